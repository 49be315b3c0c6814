#!/usr/bin/env python3
"""Where a match.py SPRT stands, from its PGN: games, W/D/L, pentanomial counts, Elo and nElo
with 95% intervals, and the LLR so far. match.py reports the LLR only when it ends; this reads a
running (or interrupted) match, and several runs appended to one PGN (new seed each) count as
one test, which is how an SPRT is carried across sessions. Several PGNs also count as one test:
two match.py processes with different seeds, one per core, each writing its own PGN.

    benches/sprt_status.py sprt.pgn [more.pgn ...] new [--elo0 0 --elo1 10]

`new` is the name the tested engine had in the PGN (match.py's or fastchess's). Games pair with the last unpaired game on
the same opening (match.py at concurrency 1 plays a pair back to back).

When an earlier session's PGNs are gone but its counts were written down, `--carry` adds them:
the `carry` line this script prints (W,D,L then the five pentanomial counts) is that argument."""
import argparse, importlib.util, re

ap = argparse.ArgumentParser()
ap.add_argument('pgn', nargs='+')
ap.add_argument('name')
ap.add_argument('--elo0', type=float, default=0)
ap.add_argument('--elo1', type=float, default=10)
ap.add_argument('--match', default='../shared/tools/match.py')
ap.add_argument('--carry', default=None,
                help='W,D,L,LL,LD,DD,WD,WW of finished pairs played before these PGNs')
a = ap.parse_args()

spec = importlib.util.spec_from_file_location('match', a.match)
match = importlib.util.module_from_spec(spec)
spec.loader.exec_module(match)

text = '\n'.join(open(path).read() for path in a.pgn)
# Tags are read per game in any order: match.py writes White, Black, Result, FEN in a row,
# fastchess puts its own tags between them.
games = []
for block in re.findall(r'(?:^\[[^\n]*\]\n)+', text, flags=re.M):
    tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', block, flags=re.M))
    if {'White', 'Black', 'Result', 'FEN'} <= tags.keys():
        games.append((tags['White'], tags['Black'], tags['Result'], tags['FEN']))
tally = match.Tally()
for white, black, result, fen in games:
    points = {'1-0': 1, '0-1': 0, '1/2-1/2': 0.5}.get(result)
    if points is None or a.name not in (white, black):
        continue
    tally.add(fen, points if white == a.name else 1 - points)
if a.carry:
    counts = [int(x) for x in a.carry.split(',')]
    if len(counts) != 8 or min(counts) < 0:
        raise SystemExit('--carry wants eight counts: W,D,L,LL,LD,DD,WD,WW')
    tally.wins += counts[0]
    tally.draws += counts[1]
    tally.losses += counts[2]
    tally.penta = [x + y for x, y in zip(tally.penta, counts[3:])]
if not tally.games:
    raise SystemExit(f'no finished games of {a.name} in {", ".join(a.pgn)}')
llr = match.sprt_llr(tally.penta, a.elo0, a.elo1)
print(f'{a.name}: LLR {llr:.2f} (bounds -2.94, 2.94 for alpha = beta = 0.05), '
      f'nElo [{a.elo0:g}, {a.elo1:g}]')
for line in tally.lines():
    print(line)
# Only finished pairs carry over: a game whose partner is unplayed is left out of the W,D,L too.
done = dict(wins=tally.wins, draws=tally.draws, losses=tally.losses)
for points in tally.open_pairs.values():
    done['wins'] -= points == 1
    done['draws'] -= points == 0.5
    done['losses'] -= points == 0
print(f"  carry: {done['wins']},{done['draws']},{done['losses']},{','.join(map(str, tally.penta))}")
