#!/usr/bin/env python3
"""Validate book/ferrum.pgn and derive book/ferrum.uci from it (needs `pip install chess`).

Every game must parse without error, be legal from the start position, have 8 to 16 plies and
a result tag, and no line may appear twice. The UCI game list has one line per game: the result,
then the moves in UCI notation. Ferrum builds book/ferrum.bin from that list until PGN import is
available in Ferrum itself (tests/book.rs checks the .bin is exactly what the list builds).

    python3 book/pgn_to_uci.py          # validate and (re)write book/ferrum.uci
    python3 book/pgn_to_uci.py --check  # validate and fail if book/ferrum.uci is out of date
"""

import pathlib
import sys

import chess
import chess.pgn

HERE = pathlib.Path(__file__).resolve().parent
PGN = HERE / "ferrum.pgn"
UCI = HERE / "ferrum.uci"
HEADER = (
    "# Derived from book/ferrum.pgn by book/pgn_to_uci.py: do not edit by hand.\n"
    "# One line per game: the result, then the moves in UCI notation.\n"
)


def convert() -> str:
    lines = []
    seen = set()
    problems = []
    with PGN.open(encoding="utf-8") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            name = f"game {len(lines) + 1} ({game.headers.get('Opening', '?')})"
            if game.errors:
                problems.append(f"{name}: {game.errors[0]}")
                continue
            board = game.board()
            if board.fen() != chess.STARTING_FEN:
                problems.append(f"{name}: does not start from the start position")
                continue
            moves = []
            for move in game.mainline_moves():
                if not board.is_legal(move):
                    problems.append(f"{name}: illegal move {move.uci()}")
                    break
                moves.append(move.uci())
                board.push(move)
            if not 8 <= len(moves) <= 16:
                problems.append(f"{name}: {len(moves)} plies, expected 8 to 16")
            result = game.headers.get("Result", "")
            if result not in ("1-0", "0-1", "1/2-1/2", "*"):
                problems.append(f"{name}: bad result {result!r}")
            text = " ".join(moves)
            if text in seen:
                problems.append(f"{name}: the same line appears twice")
            seen.add(text)
            lines.append(f"{result} {text}")
    if problems:
        sys.exit("book/ferrum.pgn is not valid:\n  " + "\n  ".join(problems))
    return HEADER + "".join(line + "\n" for line in lines)


def main() -> None:
    text = convert()
    if "--check" in sys.argv[1:]:
        if not UCI.exists() or UCI.read_text(encoding="utf-8") != text:
            sys.exit("book/ferrum.uci is out of date: run python3 book/pgn_to_uci.py")
        print(f"book/ferrum.pgn valid, book/ferrum.uci up to date ({text.count(chr(10)) - 2} games)")
    else:
        UCI.write_text(text, encoding="utf-8")
        print(f"wrote {UCI} ({text.count(chr(10)) - 2} games)")


if __name__ == "__main__":
    main()
