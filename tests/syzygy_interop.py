#!/usr/bin/env python3
"""Ferrum's Syzygy probes against python-chess's, on the same table files.

Generates random legal positions (fixed seed) of every 3- and 4-piece material set, both
colourings, both sides to move, plus en-passant positions of KPvKP; probes each with python-chess
(WDL and DTZ) and with `ferrum tb probe --batch`, and fails on any difference.

The tables must be present (../shared/syzygy beside the checkout, or --path): without them this
test fails loudly instead of passing with nothing checked.
"""

import argparse
import os
import random
import subprocess
import sys
import time

import chess
import chess.syzygy

PIECES = "QRBNP"


def materials():
    """Every 3- and 4-piece material as (strong side, weak side) piece letters, kings left out."""
    out = [(p, "") for p in PIECES]
    for i, a in enumerate(PIECES):
        for b in PIECES[i:]:
            out.append((a + b, ""))
    for i, a in enumerate(PIECES):
        for b in PIECES[i:]:
            out.append((a, b))
    return out


def random_position(rng, strong, weak):
    """A random legal placement of K+strong against K+weak, random colouring and side to move."""
    while True:
        white_strong = rng.random() < 0.5
        board = chess.Board(None)
        squares = list(chess.SQUARES)
        rng.shuffle(squares)
        for color, letters in ((white_strong, strong), (not white_strong, weak)):
            for letter in "K" + letters:
                piece_type = chess.PIECE_SYMBOLS.index(letter.lower())
                while True:
                    sq = squares.pop()
                    if piece_type != chess.PAWN or chess.square_rank(sq) not in (0, 7):
                        break
                board.set_piece_at(sq, chess.Piece(piece_type, chess.WHITE if color else chess.BLACK))
        board.turn = rng.random() < 0.5
        if board.is_valid():
            return board


def ep_position(rng):
    """A KPvKP position where the side to move can capture en passant."""
    while True:
        board = chess.Board(None)
        mover = rng.random() < 0.5  # the side that just pushed two squares
        file = rng.randrange(8)
        rank = 3 if mover == chess.WHITE else 4
        pushed = chess.square(file, rank)
        side = file + rng.choice([-1, 1])
        if not 0 <= side < 8:
            continue
        board.set_piece_at(pushed, chess.Piece(chess.PAWN, mover))
        board.set_piece_at(chess.square(side, rank), chess.Piece(chess.PAWN, not mover))
        behind = [chess.square(file, rank - 1 if mover == chess.WHITE else rank + 1),
                  chess.square(file, rank - 2 if mover == chess.WHITE else rank + 2)]
        free = [s for s in chess.SQUARES if board.piece_at(s) is None and s not in behind]
        a, b = rng.sample(free, 2)
        board.set_piece_at(a, chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(b, chess.Piece(chess.KING, chess.BLACK))
        board.turn = not mover
        board.ep_square = behind[0]
        if board.is_valid() and board.has_legal_en_passant():
            return board


def positions(seed, per_material, ep_count):
    rng = random.Random(seed)
    fens = []
    for strong, weak in materials():
        fens += [random_position(rng, strong, weak).fen() for _ in range(per_material)]
    fens += [ep_position(rng).fen() for _ in range(ep_count)]
    return fens


# The DTZ of a zeroing move, by the WDL it leaves for the side that played it (the prober's
# convention: a cursed win is 101 plies away from counting as a win).
ZEROING_DTZ = {2: 1, 1: 101, 0: 0, -1: -101, -2: -1}


def move_dtz(tb, board, move):
    """Plies to zeroing counted from before `move`, signed for the side that plays it."""
    zeroing = board.is_zeroing(move)
    board.push(move)
    try:
        if board.is_checkmate():
            return 1
        if zeroing:
            return ZEROING_DTZ[-tb.probe_wdl(board)]
        v = -tb.probe_dtz(board)
        return v + 1 if v > 0 else v - 1 if v < 0 else 0
    finally:
        board.pop()


def oracle(tb, fen, moves):
    board = chess.Board(fen)
    try:
        line = f"{tb.probe_wdl(board)} {tb.probe_dtz(board)}"
        if moves:
            items = sorted(f" {m.uci()}:{move_dtz(tb, board, m)}" for m in board.legal_moves)
            line += "".join(items)
        return line
    except (chess.syzygy.MissingTableError, KeyError) as e:
        return f"oracle-error {e}"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--engine", default=os.path.join(here, "..", "target", "release", "ferrum"))
    ap.add_argument("--path", default=os.path.join(here, "..", "..", "shared", "syzygy"))
    ap.add_argument("--per-material", type=int, default=300)
    ap.add_argument("--ep", type=int, default=500)
    ap.add_argument("--seed", type=int, default=20)
    # A binary that names files its own way (ferrum.exe under wine: Z:\\...) gets the
    # directory as it names it; python-chess reads --path.
    ap.add_argument("--engine-path", help="the tables' directory as the engine names it "
                    "(default: --path)")
    args = ap.parse_args()

    if not os.path.isfile(os.path.join(args.path, "KQvK.rtbw")):
        print(f"FAIL: no Syzygy tables at {args.path}: nothing was compared", file=sys.stderr)
        return 1
    start = time.time()
    fens = positions(args.seed, args.per_material, args.ep)
    # Every move's DTZ too (the engine's root ranking rests on them), for one position in twenty.
    with_moves = [i % 20 == 0 for i in range(len(fens))]
    with chess.syzygy.open_tablebase(args.path) as tb:
        want = [oracle(tb, f, m) for f, m in zip(fens, with_moves)]
    engine_path = args.engine_path or args.path
    run = subprocess.run([args.engine, "tb", "probe", "--path", engine_path, "--batch", "--moves"],
                         input="\n".join(fens) + "\n", capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        print(f"FAIL: ferrum exited with {run.returncode}: {run.stderr}", file=sys.stderr)
        return 1
    got = [l for l in run.stdout.splitlines() if not l.startswith("info")]
    # The engine printed every move's DTZ; keep them only where python-chess was asked too.
    got = [g if m else " ".join(g.split()[:2]) for g, m in zip(got, with_moves)]
    if len(got) != len(fens):
        print(f"FAIL: {len(fens)} positions sent, {len(got)} answers", file=sys.stderr)
        return 1
    skipped = sum(w.startswith("oracle-error") for w in want)
    bad = [(f, w, g) for f, w, g in zip(fens, want, got) if not w.startswith("oracle-error") and w != g]
    for f, w, g in bad[:20]:
        print(f"differs: {f}: python-chess {w}, ferrum {g}")
    compared = len(fens) - skipped
    eps = sum(f.split()[3] != "-" for f in fens)
    print(f"{compared} positions compared ({eps} with en passant; every move's DTZ too in "
          f"{sum(with_moves)}), {skipped} python-chess could not probe, in {time.time() - start:.1f} s")
    if compared < 10_000:
        print("FAIL: fewer than 10,000 positions compared", file=sys.stderr)
        return 1
    print(f"{compared - len(bad)} passed, {len(bad)} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
