#!/usr/bin/env python3
"""Ladder runner: plays game pairs against one opponent in batches with match.py (10+0.1,
balanced openings, --resign --draw) until the 95% interval of the Elo difference excludes 0, or
a game cap is reached. Statistics come from the PGN, so an interrupted ladder resumes.

    benches/ladder.py --ferrum target/release/ferrum --name glaurung --pgn glaurung.pgn \
        --opponent "cmd=/usr/games/glaurung|option.Threads=1|option.OwnBook=false|name=glaurung"

The opponent spec is match.py's --engine words separated by '|'; Ferrum plays as `ferrum`."""
import argparse, math, re, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument('--ferrum', required=True)
ap.add_argument('--opponent', required=True, help='engine spec, e.g. "cmd=/usr/games/glaurung option.Threads=1"')
ap.add_argument('--name', required=True)
ap.add_argument('--tc', default='10+0.1')
ap.add_argument('--batch-pairs', type=int, default=5)
ap.add_argument('--max-games', type=int, default=400)
ap.add_argument('--min-games', type=int, default=20)
ap.add_argument('--pgn', required=True)
ap.add_argument('--match', default='../shared/tools/match.py')
ap.add_argument('--openings', default='../shared/openings/balanced.epd')
a = ap.parse_args()

def stats():
    w = d = l = 0
    try:
        text = open(a.pgn).read()
    except FileNotFoundError:
        return 0, 0, 0
    for g in re.finditer(r'\[White "([^"]*)"\]\s*\[Black "([^"]*)"\]\s*\[Result "([^"]*)"\]', text):
        white, black, res = g.groups()
        ferrum_white = white == 'ferrum'
        if res == '1/2-1/2': d += 1
        elif (res == '1-0') == ferrum_white: w += 1
        elif res in ('1-0', '0-1'): l += 1
    return w, d, l

def elo(w, d, l):
    n = w + d + l
    s = (w + d / 2) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * (0 - s) ** 2) / n
    se = math.sqrt(var / n)
    f = lambda p: -400 * math.log10(1 / min(max(p, 1e-9), 1 - 1e-9) - 1)
    lo, hi = s - 1.96 * se, s + 1.96 * se
    return f(s), f(lo), f(hi)

while True:
    w, d, l = stats(); n = w + d + l
    # Seeded by the games already played, so a resumed ladder plays new openings.
    seed = 1 + n // (2 * a.batch_pairs)
    if n >= a.min_games:
        e, lo, hi = elo(w, d, l)
        print(f'{a.name}: {n} games +{w} ={d} -{l} Elo {e:+.1f} [{lo:+.1f}, {hi:+.1f}]', flush=True)
        if lo > 0 or hi < 0 or n >= a.max_games:
            break
    elif n >= a.max_games:
        break
    cmd = ['python3', a.match, '--engine', f'cmd={a.ferrum}', 'name=ferrum',
           '--engine'] + a.opponent.split('|') + [
           '--tc', a.tc, '--openings', a.openings, '--random-seed', str(seed),
           '--rounds', str(a.batch_pairs), '--concurrency', '1', '--resign', '--draw', '--pgn', a.pgn]
    r = subprocess.run(cmd, capture_output=True, text=True)
    faults = [x for x in r.stdout.splitlines() if re.search(r'illegal|crash|forfeit|loses on time|readyok', x, re.I)]
    for f in faults: print('FAULT?', f, flush=True)
