#!/usr/bin/env python3
"""How large a network's scores are against the hand-crafted evaluation's, on the same positions.

    training/scale.py --pgn games.pgn [--positions 3000] [--engine target/release/ferrum] \
        [NAME=NET.nnue ...]

Samples quiet positions (not in check, from ply 9 on, about one in twelve) from the games of a
PGN file, has the engine's `eval` command score each with the hand-crafted evaluation and with
each network (the embedded one, plus any NAME=FILE given), and prints per network the
least-squares slope through the origin of its score on the hand-crafted score, the ratio of
their standard deviations and their correlation, over positions where both are within
±1000 cp. A slope of 1.2 means the network calls a position 1.2 times as good as the
hand-crafted evaluation does, on average: the search's margins, set on the hand-crafted
evaluation's scale, are then that much narrower in the network's units. Needs python-chess.
"""

import argparse
import random
import re
import statistics
import subprocess

import chess.pgn


def sample(pgn_path, count, seed):
    rng = random.Random(seed)
    fens = []
    with open(pgn_path) as f:
        while len(fens) < count:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            board = game.board()
            for ply, move in enumerate(game.mainline_moves()):
                board.push(move)
                if ply >= 8 and rng.random() < 0.08 and not board.is_check() and not board.is_game_over():
                    fens.append(board.fen())
    return fens[:count]


def scores(engine, fens, net_file):
    lines = [f"setoption name EvalFile value {net_file}"] if net_file else []
    for fen in fens:
        lines += [f"position fen {fen}", "eval"]
    out = subprocess.run([engine], input="\n".join(lines + ["quit"]) + "\n",
                         capture_output=True, text=True, check=True).stdout
    hce = [int(x) for x in re.findall(r"final evaluation (-?\d+) cp", out)]
    net = [int(x) for x in re.findall(r"network .*?: (-?\d+) cp for the side", out)]
    if len(hce) != len(fens) or len(net) != len(fens):
        raise SystemExit(f"expected {len(fens)} evaluations, read {len(hce)} and {len(net)}")
    return hce, net


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pgn", required=True)
    ap.add_argument("--positions", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--engine", default="target/release/ferrum")
    ap.add_argument("nets", nargs="*", help="NAME=FILE.nnue (the embedded network is always measured)")
    args = ap.parse_args()
    fens = sample(args.pgn, args.positions, args.seed)
    print(f"{len(fens)} positions from {args.pgn}")
    print("| network | positions | slope on the hand-crafted score | sd ratio | correlation |")
    print("|---|---:|---:|---:|---:|")
    for name, _, path in [("embedded", "", "")] + [n.partition("=") for n in args.nets]:
        hce, net = scores(args.engine, fens, path)
        pairs = [(h, n) for h, n in zip(hce, net) if abs(h) < 1000 and abs(n) < 1000]
        sxy = sum(h * n for h, n in pairs)
        sxx = sum(h * h for h, _ in pairs)
        syy = sum(n * n for _, n in pairs)
        sd = statistics.pstdev([n for _, n in pairs]) / statistics.pstdev([h for h, _ in pairs])
        print(f"| {name} | {len(pairs)} | {sxy / sxx:.3f} | {sd:.3f} | {sxy / (sxx * syy) ** 0.5:.3f} |")


if __name__ == "__main__":
    main()
