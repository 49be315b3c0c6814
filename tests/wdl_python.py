#!/usr/bin/env python3
"""UCI_ShowWDL through python-chess: chess.engine must parse Ferrum's `wdl` from its info
lines, and the triples must sum to 1000 and agree with the score's sign.

Usage: tests/wdl_python.py target/release/ferrum
Ends with `N passed, N failed` and exits 0 only when nothing failed.
"""
import sys

import chess
import chess.engine

POSITIONS = [
    chess.STARTING_FEN,
    "4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1",  # a queen up
    "4k3/8/8/8/8/8/3Q4/4K3 b - - 0 1",  # a queen down
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4",  # mate in one
]


def main() -> int:
    engine_path = sys.argv[1]
    passed = failed = 0

    def check(ok: bool, what: str) -> None:
        nonlocal passed, failed
        print(("PASS  " if ok else "FAIL  ") + what)
        passed += ok
        failed += not ok

    with chess.engine.SimpleEngine.popen_uci(engine_path) as engine:
        engine.configure({"UCI_ShowWDL": True})
        for fen in POSITIONS:
            board = chess.Board(fen)
            infos = engine.analyse(board, chess.engine.Limit(depth=8), multipv=2)
            for info in infos:
                wdl = info.get("wdl")
                score = info.get("score")
                if wdl is None or score is None:
                    check(False, f"{fen}: no wdl or score in {info}")
                    continue
                w, d, l = wdl.relative.wins, wdl.relative.draws, wdl.relative.losses
                check(w + d + l == 1000, f"{fen}: wdl {w} {d} {l} sums to 1000")
                cp = score.relative.score(mate_score=100000)
                agrees = (cp > 150 and w > l) or (cp < -150 and l > w) or abs(cp) <= 150
                check(agrees, f"{fen}: wdl {w} {d} {l} agrees with score {cp}")
        engine.configure({"UCI_ShowWDL": False})
        info = engine.analyse(chess.Board(), chess.engine.Limit(depth=4))
        check("wdl" not in info, "no wdl when UCI_ShowWDL is off")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
