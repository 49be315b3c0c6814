#!/usr/bin/env python3
"""Polyglot interoperability between Ferrum and python-chess (needs `pip install chess`).

CI runs the check mode after `cargo test`; it recomputes everything from committed inputs with
python-chess and fails on any difference:

    python3 tests/polyglot_interop.py

1. Ferrum's random table (src/book/random.rs) equals chess.polyglot.POLYGLOT_RANDOM_ARRAY.
2. tests/data/polyglot_keys.txt: every FEN's key is chess.polyglot.zobrist_hash (tests/book.rs
   checks Ferrum computes the same keys).
3. Ferrum -> python-chess: tests/data/interop_ferrum.bin, which Ferrum built from the games in
   tests/data/interop_games.uci (tests/book.rs checks it still builds exactly that), holds exactly
   the entries this script expects from the same games by the published rules (keys from
   zobrist_hash, Polyglot move encoding, weight 2 per win / 1 per draw or unknown result / 0 per
   loss of the side that moved, sorted by key then weight then move), and python-chess's reader
   finds the same moves and weights in every position as tests/data/interop_ferrum.txt lists
   (tests/book.rs checks Ferrum's reader finds exactly those too).
4. python-chess -> Ferrum: tests/data/interop_python.bin is the book this script packs from
   tests/data/interop_python.txt (FENs, moves, weights, learn values; keys from zobrist_hash,
   packed with struct here, independently of Ferrum); tests/book.rs checks Ferrum reads every
   entry and probes every position identically.

Regenerating (only when the fixtures must change):

    python3 tests/polyglot_interop.py --write        # games, keys, python-written book
    FERRUM_BLESS=1 cargo test --release --test book  # Ferrum rebuilds interop_ferrum.bin
    python3 tests/polyglot_interop.py --write        # listing of what python-chess reads
    python3 tests/polyglot_interop.py                # check
"""

import pathlib
import random
import re
import struct
import sys

import chess
import chess.polyglot

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
TABLE = ROOT / "src" / "book" / "random.rs"
KEYS = DATA / "polyglot_keys.txt"
GAMES = DATA / "interop_games.uci"
FERRUM_BIN = DATA / "interop_ferrum.bin"
FERRUM_LISTING = DATA / "interop_ferrum.txt"
PYTHON_BIN = DATA / "interop_python.bin"
PYTHON_LISTING = DATA / "interop_python.txt"

ENTRY = struct.Struct(">QHHI")
PROMOTION_CODE = {None: 0, chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 4}
POINTS = {"1-0": (2, 0), "0-1": (0, 2), "1/2-1/2": (1, 1), "*": (1, 1)}  # (white, black)

# Positions whose en-passant key needs care (FEN en-passant field as FEN writers set it).
SPECIAL_FENS = [
    # Black's d4 pawn beside the pushed e4 pawn, but d4xe3 would expose the king: key counts.
    "8/8/8/8/k2pP2Q/8/8/4K3 b - e3 0 1",
    # The same for White (d5xe6 would expose the king on a5 to the queen on h5).
    "4k3/8/8/K2Pp2q/8/8/8/8 w - e6 0 2",
    # Double push with no pawn of the side to move beside it: no en-passant key.
    "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1",
    # A pawn beside it, but of the wrong colour.
    "4k3/8/8/8/3PP3/8/8/4K3 b - e3 0 1",
    # Two pawns able to capture.
    "4k3/8/8/3PpP2/8/8/8/4K3 w - e6 0 2",
    # Legal en passant, castling rights partly gone.
    "r3k2r/ppp2ppp/8/3pP3/8/8/PPP2PPP/R3K2R w Kq d6 0 10",
    # Castling both ways for both sides.
    "r3k2r/ppp2ppp/2nqbn2/3pp3/3PP3/2NQBN2/PPP2PPP/R3K2R w KQkq - 0 8",
    "r3k2r/ppp2ppp/2nqbn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3K2R b KQkq - 1 8",
    # Promotions and under-promotions, with captures; castling rights held but castling illegal.
    "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
    "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R b KQkq - 0 1",
]


def fail(message):
    sys.exit(f"polyglot interop: FAILED: {message}")


def raw_move(board, move):
    """Polyglot's encoding: castling as king takes rook, promotion piece in bits 12-14."""
    to = move.to_square
    if board.is_castling(move):
        rook_file = 7 if board.is_kingside_castling(move) else 0
        to = chess.square(rook_file, chess.square_rank(move.from_square))
    return to | move.from_square << 6 | PROMOTION_CODE[move.promotion] << 12


def pack(entries):
    return b"".join(ENTRY.pack(*e) for e in entries)


def hex_key(key):
    return f"{key:016x}"


def random_game(rng, plies):
    """A random game; promotions, castling and en passant are preferred when available."""
    board = chess.Board()
    moves = []
    for _ in range(plies):
        legal = sorted(board.legal_moves, key=lambda m: m.uci())
        if not legal:
            break
        special = [m for m in legal if m.promotion or board.is_castling(m) or board.is_en_passant(m)]
        move = rng.choice(special) if special and rng.random() < 0.7 else rng.choice(legal)
        moves.append(move)
        board.push(move)
    return moves


def read_games():
    games = []
    for line in GAMES.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            result, *moves = line.split()
            games.append((result, [chess.Move.from_uci(m) for m in moves]))
    return games


def replay(moves):
    """Yields (board before the move, move) along a game."""
    board = chess.Board()
    for move in moves:
        if not board.is_legal(move):
            fail(f"illegal move {move.uci()} in {GAMES.name}")
        yield board, move
        board.push(move)


# ---- 1. the random table ------------------------------------------------------------------

def check_table():
    ours = [int(h, 16) for h in re.findall(r"0x([0-9A-Fa-f]{16})", TABLE.read_text())]
    if ours != list(chess.polyglot.POLYGLOT_RANDOM_ARRAY):
        fail(f"{TABLE} differs from chess.polyglot.POLYGLOT_RANDOM_ARRAY")
    print(f"ok: the {len(ours)} random numbers equal python-chess's")


# ---- 2. keys -------------------------------------------------------------------------------

def sample_fens(rng, games, shortest, longest, share):
    """The special FENs, then a share of the positions of random games, every position just
    after a double push included (FEN en-passant field set, as FEN writers do)."""
    fens = list(SPECIAL_FENS)
    for _ in range(games):
        board = chess.Board()
        for move in random_game(rng, rng.randint(shortest, longest)):
            board.push(move)
            if rng.random() < share or board.ep_square is not None:
                fens.append(board.fen(en_passant="fen"))
    return fens


def write_keys(rng):
    fens = sample_fens(rng, 12, 40, 160, 0.35)
    seen = set()
    lines = []
    for fen in fens:
        if fen not in seen:
            seen.add(fen)
            lines.append(f"{hex_key(chess.polyglot.zobrist_hash(chess.Board(fen)))} {fen}")
    KEYS.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    print(f"wrote {KEYS} ({len(lines)} positions)")


def check_keys():
    count = 0
    for line in KEYS.read_text(encoding="utf-8").splitlines():
        key, fen = line.split(" ", 1)
        board = chess.Board(fen)
        if not board.is_valid():
            fail(f"{KEYS.name}: invalid position {fen}")
        if hex_key(chess.polyglot.zobrist_hash(board)) != key:
            fail(f"{KEYS.name}: key of {fen} is not {key}")
        count += 1
    print(f"ok: {count} keys in {KEYS.name} are python-chess's")


# ---- 3. Ferrum -> python-chess ---------------------------------------------------------------

def write_games(rng):
    lines = ["# Random games (seeded) for tests/polyglot_interop.py: result, then UCI moves."]
    for _ in range(16):
        result = rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
        moves = random_game(rng, rng.randint(30, 110))
        lines.append(" ".join([result] + [m.uci() for m in moves]))
    GAMES.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {GAMES} (16 games)")


def expected_ferrum_entries():
    """The book the published rules make of the games (no weight here exceeds 16 bits)."""
    points = {}
    for result, moves in read_games():
        counted = set()
        for board, move in replay(moves):
            pair = (chess.polyglot.zobrist_hash(board), raw_move(board, move))
            if pair in counted:
                continue  # a position and move repeated within a game count once
            counted.add(pair)
            white, black = POINTS[result]
            points[pair] = points.get(pair, 0) + (white if board.turn == chess.WHITE else black)
    entries = [(k, m, w, 0) for (k, m), w in points.items() if w > 0]
    entries.sort(key=lambda e: (e[0], -e[2], e[1]))
    return entries


def ferrum_listing(reader):
    """What python-chess's reader finds in each position of the games, in file order."""
    lines = []
    seen = set()
    for _, moves in read_games():
        boards = [board.copy() for board, _ in replay(moves)]
        for board in boards:
            key = chess.polyglot.zobrist_hash(board)
            if key in seen:
                continue
            seen.add(key)
            found = [
                f"{e.move.uci()},{e.raw_move:04x},{e.weight},{e.learn}"
                for e in reader.find_all(board, minimum_weight=0)
            ]
            lines.append(" ".join([hex_key(key)] + found))
    return "".join(line + "\n" for line in lines)


def check_ferrum_book(write):
    expected = expected_ferrum_entries()
    with chess.polyglot.open_reader(FERRUM_BIN) as reader:
        got = [(e.key, e.raw_move, e.weight, e.learn) for e in reader]
        if got != expected:
            diff = next((i for i, (a, b) in enumerate(zip(got, expected)) if a != b), None)
            fail(
                f"{FERRUM_BIN.name} has {len(got)} entries, expected {len(expected)}; "
                f"first difference at entry {diff}"
            )
        listing = ferrum_listing(reader)
    if write:
        FERRUM_LISTING.write_text(listing, encoding="utf-8")
        print(f"wrote {FERRUM_LISTING}")
    elif FERRUM_LISTING.read_text(encoding="utf-8") != listing:
        fail(f"python-chess no longer reads {FERRUM_BIN.name} as {FERRUM_LISTING.name} lists")
    print(f"ok: python-chess reads Ferrum's {FERRUM_BIN.name} as expected ({len(got)} entries)")


# ---- 4. python-chess -> Ferrum ---------------------------------------------------------------

def write_python_listing(rng):
    fens = sample_fens(rng, 10, 20, 120, 0.2)
    by_key = {}
    for fen in fens:
        board = chess.Board(fen)
        key = chess.polyglot.zobrist_hash(board)
        legal = sorted(board.legal_moves, key=lambda m: m.uci())
        if key in by_key or not legal:
            continue
        special = [m for m in legal if m.promotion or board.is_castling(m) or board.is_en_passant(m)]
        others = [m for m in legal if m not in special]
        chosen = special + rng.sample(others, min(len(others), rng.randint(1, 6)))
        rng.shuffle(chosen)
        tokens = []
        for move in chosen:  # file order within a key is the sample's (random) order
            weight = rng.choice([0, 1, 2, 7, 100, 65535, rng.randint(0, 65535)])
            learn = rng.choice([0, 0, 1, 0xDEADBEEF, rng.randint(0, 2**32 - 1)])
            tokens.append(f"{move.uci()},{raw_move(board, move):04x},{weight},{learn}")
        by_key[key] = f"{fen}|{hex_key(key)}|{' '.join(tokens)}"
    lines = [by_key[k] for k in sorted(by_key)]
    PYTHON_LISTING.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    print(f"wrote {PYTHON_LISTING} ({len(lines)} positions)")


def python_book_bytes():
    """Packs the listing into a Polyglot book, checking every key, move and encoding."""
    entries = []
    for line in PYTHON_LISTING.read_text(encoding="utf-8").splitlines():
        fen, key, tokens = line.split("|")
        board = chess.Board(fen)
        if hex_key(chess.polyglot.zobrist_hash(board)) != key:
            fail(f"{PYTHON_LISTING.name}: key of {fen} is not {key}")
        for token in tokens.split():
            uci, raw, weight, learn = token.split(",")
            move = chess.Move.from_uci(uci)
            if not board.is_legal(move) or f"{raw_move(board, move):04x}" != raw:
                fail(f"{PYTHON_LISTING.name}: {uci} in {fen} is illegal or not encoded as {raw}")
            entries.append((int(key, 16), int(raw, 16), int(weight), int(learn)))
    if [e[0] for e in entries] != sorted(e[0] for e in entries):
        fail(f"{PYTHON_LISTING.name} is not sorted by key")
    return pack(entries), len(entries)


def check_python_book(write):
    data, count = python_book_bytes()
    if write:
        PYTHON_BIN.write_bytes(data)
        print(f"wrote {PYTHON_BIN} ({count} entries)")
    elif PYTHON_BIN.read_bytes() != data:
        fail(f"{PYTHON_BIN.name} is not the book packed from {PYTHON_LISTING.name}")
    print(f"ok: {PYTHON_BIN.name} is python-chess's packing of {PYTHON_LISTING.name} ({count} entries)")


def main():
    write = "--write" in sys.argv[1:]
    check_table()
    if write:
        rng = random.Random(0xF3_22_0E_5)
        write_keys(rng)
        write_games(rng)
        write_python_listing(rng)
    check_keys()
    check_python_book(write)
    if FERRUM_BIN.exists():
        check_ferrum_book(write)
    elif write:
        print(f"{FERRUM_BIN.name} missing: run FERRUM_BLESS=1 cargo test --release --test book, "
              "then this script with --write again")
    else:
        fail(f"{FERRUM_BIN} is missing")
    print("polyglot interop: all checks passed")


if __name__ == "__main__":
    main()
