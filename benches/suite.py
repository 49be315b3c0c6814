#!/usr/bin/env python3
"""Solve an EPD test suite (`bm`/`am` operations) with one or more UCI engines, side by side.

Each engine gets `go movetime MS` on every position (fresh `ucinewgame` each time, one thread
unless an option says otherwise); a position counts as solved when the engine's best move is one
of the `bm` moves (or none of the `am` moves). The engines take turns position by position, so a
noisy machine slows them alike. Needs python-chess (`pip install chess`).

    benches/suite.py ../shared/suites/tactics.epd --ms 1000 \
        "ferrum=target/release/ferrum" "stockfish=/usr/games/stockfish|Threads=1|Hash=16"

An engine is `name=command[|Option=value...]`; the last line prints `name: solved/total` per engine.
"""

import argparse
import sys

import chess
import chess.engine


def parse_engine(spec):
    name, _, rest = spec.partition("=")
    parts = rest.split("|")
    options = {}
    for opt in parts[1:]:
        key, _, value = opt.partition("=")
        options[key] = value
    return name, parts[0].split(), options


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suite")
    ap.add_argument("engines", nargs="+", help="name=command[|Option=value...]")
    ap.add_argument("--ms", type=int, default=1000, help="milliseconds per position")
    ap.add_argument("--verbose", action="store_true", help="print every position's answers")
    args = ap.parse_args()

    positions = []
    with open(args.suite) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            board, ops = chess.Board.from_epd(line)
            positions.append((board, ops))

    engines = []
    for spec in args.engines:
        name, cmd, options = parse_engine(spec)
        eng = chess.engine.SimpleEngine.popen_uci(cmd)
        eng.configure({k: v for k, v in options.items()})
        engines.append((name, eng))

    solved = {name: 0 for name, _ in engines}
    try:
        for i, (board, ops) in enumerate(positions, 1):
            bm, am = ops.get("bm", []), ops.get("am", [])
            answers = []
            for name, eng in engines:
                result = eng.play(board, chess.engine.Limit(time=args.ms / 1000), game=object())
                ok = (result.move in bm) if bm else (result.move not in am)
                solved[name] += ok
                answers.append(f"{name} {board.san(result.move) if result.move else '-'}{'' if ok else ' x'}")
            if args.verbose:
                print(f"{i} {ops.get('id', '')}: " + ", ".join(answers), flush=True)
    finally:
        for _, eng in engines:
            eng.quit()
    print(", ".join(f"{name}: {solved[name]}/{len(positions)}" for name, _ in engines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
