#!/usr/bin/env python3
"""Games an engine did not win although it had scored itself well ahead.

Reads a PGN written by fastchess (or cutechess), whose move comments start with the mover's
score, `{+1.23/17 0.250s ...}` or `{-M6/18 ...}`, and lists the games in which ENGINE at some
move scored itself at least `--ahead` pawns (default 2.0) and then drew or lost. For each it
prints the first such move, the opponent's score at its next move (seen from ENGINE's side),
and how the game ended (the last comment's text after the score, such as
`Draw by 3-fold repetition`).

A network that overrates positions shows here: the search was sure of a win that the other
engine saw as level. Usage:

    python3 benches/squandered.py games.pgn Ferrum [--ahead 2.0] [--list]
"""

import argparse
import re
import statistics
import sys
from collections import Counter

TAG = re.compile(r'^\[(\w+) "(.*)"\]$')
COMMENT = re.compile(r"\{([^}]*)\}")
SCORE = re.compile(r"^\s*([+-]?)(M?)(\d+(?:\.\d+)?)/\d+")


def parse_score(comment):
    """The mover's score in pawns (mates as +-1000), or None when the comment has none."""
    m = SCORE.match(comment)
    if not m:
        return None
    sign = -1.0 if m.group(1) == "-" else 1.0
    value = 1000.0 if m.group(2) else float(m.group(3))
    return sign * value


def games(path):
    """Yields (tags, [move comments]) per game."""
    tags, text = {}, []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            t = TAG.match(line)
            if t:
                if text:
                    yield tags, COMMENT.findall(" ".join(text))
                    tags, text = {}, []
                tags[t.group(1)] = t.group(2)
            elif line.strip():
                text.append(line)
    if tags:
        yield tags, COMMENT.findall(" ".join(text))


def first_move_colour(tags):
    fen = tags.get("FEN")
    return fen.split()[1] if fen else "w"


def won_by(tags, engine):
    """Whether ENGINE won the game."""
    r = tags.get("Result")
    return (r == "1-0" and tags.get("White") == engine) or (
        r == "0-1" and tags.get("Black") == engine
    )


def analyse(tags, comments, engine, ahead):
    """None, or what the game shows when ENGINE was ahead by `ahead` and did not win."""
    white, black = tags.get("White"), tags.get("Black")
    if engine not in (white, black):
        return None
    colour = "w" if white == engine else "b"
    result = tags.get("Result", "*")
    if won_by(tags, engine) or result == "*":
        return None
    mover = first_move_colour(tags)
    for i, c in enumerate(comments):
        side = mover if i % 2 == 0 else ("b" if mover == "w" else "w")
        if side != colour:
            continue
        s = parse_score(c)
        if s is None or s < ahead:
            continue
        reply = parse_score(comments[i + 1]) if i + 1 < len(comments) else None
        ending = comments[-1].split(",", 1)[1].strip() if "," in comments[-1] else "?"
        return {
            "round": tags.get("Round", "?"),
            "result": "draw" if result == "1/2-1/2" else "loss",
            "ply": i + 1,
            "score": s,
            "opponent": None if reply is None else -reply,
            "ending": ending,
        }
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn")
    ap.add_argument("engine", help="the engine's name in the White/Black tags")
    ap.add_argument("--ahead", type=float, default=2.0, help="pawns (default 2.0)")
    ap.add_argument("--list", action="store_true", help="one line per game")
    args = ap.parse_args()

    played = not_won = 0
    found = []
    for tags, comments in games(args.pgn):
        if args.engine not in (tags.get("White"), tags.get("Black")):
            continue
        played += 1
        not_won += not won_by(tags, args.engine)
        a = analyse(tags, comments, args.engine, args.ahead)
        if a:
            found.append(a)
    if played == 0:
        sys.exit(f"no game of {args.engine!r} in {args.pgn}")

    results = Counter(a["result"] for a in found)
    endings = Counter(a["ending"] for a in found)
    print(
        f"{args.engine}: {played} games, {not_won} not won; in {len(found)} of them it had "
        f"scored itself +{args.ahead:.2f} or more ({results['draw']} draws, "
        f"{results['loss']} losses)"
    )
    replies = [a["opponent"] for a in found if a["opponent"] is not None]
    if replies:
        print(
            f"  the opponent's next score, from {args.engine}'s side: median "
            f"{statistics.median(replies):+.2f}, below +1.00 in "
            f"{sum(r < 1.0 for r in replies)} of {len(replies)}"
        )
    for ending, n in endings.most_common():
        print(f"  {n:4d}  {ending}")
    if args.list:
        for a in found:
            opp = "?" if a["opponent"] is None else f"{a['opponent']:+.2f}"
            print(
                f"  round {a['round']}: {a['result']}, ply {a['ply']} at {a['score']:+.2f} "
                f"(opponent {opp}), {a['ending']}"
            )


if __name__ == "__main__":
    main()
