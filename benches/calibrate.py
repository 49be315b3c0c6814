#!/usr/bin/env python3
"""Calibration of the strength levels (`UCI_LimitStrength` + `UCI_Elo`): games of each level
against engines of roughly known strength, then one maximum-likelihood fit of every level's Elo
with the anchors' ratings held fixed.

    benches/calibrate.py play  --ferrum target/release/ferrum --dir calib --levels 1200,1600,2000
    benches/calibrate.py table --dir calib [--dir calib2 ...] [--free hoichess,fairymax]
    benches/calibrate.py summary --dir calib > benches/calibration/passN/games.results
    benches/calibrate.py refit --dir pass2 --calibration 1000:0.41,...,2800:1.0 \
                               --dir pass3 --calibration 1000:0.349,...,2800:0.987

`play` plays, for each level, game pairs (balanced openings, colours swapped, match.py at
--tc) against every anchor rated within --window of the level, and against the next level
below it (so the lowest levels, far below every anchor, are still tied to the scale through
the levels above them). Each pairing has its own PGN in --dir; a run that is stopped resumes
where it was (new openings: the seed is the number of games already played), and --games is
the target per pairing.

--anchors limits the anchors played, --no-ladder leaves out the games against the level below
(a pass that adds anchors to an earlier one of the same binary).

`table` reads every PGN (and results file, below) in --dir (repeated: passes of one binary,
pooled) and fits one Elo per level: anchors
are fixed at the ratings below, each game contributes its score to a logistic (Bradley-Terry) likelihood, and the 95%
interval of a level comes from the curvature of the likelihood at its optimum (draws counted
as half a win and half a loss, which overstates the variance: the intervals are conservative).
--free fits the named anchors like the levels instead of holding them at their ratings. After
the fit, each level's record against the level below it, with its likelihood of superiority,
shows the ordering.
--anchors-only leaves the games between levels out of the fit: a level against the next one is
self-play of one engine at two node caps, where the stronger sees all the weaker sees, and such
games spread the levels far more than games against other engines do (pass 5: 1900 beat 1600
59.5 of 60, yet scored 50% against Stockfish-1600 where 1600 scored 38%).

`summary` prints a dir's games as a results file (pairing, wins, draws, losses): the fit needs
nothing else, so each pass's results are kept in benches/calibration/ and outlive the PGNs.

The anchors' ratings are second-hand (rating lists at longer time controls than the ones
played here, on other hardware): they place the scale roughly, not exactly. A level's
measured Elo is therefore "the rating that explains its scores against these engines at this
time control"; the README says so next to the table."""
import argparse, glob, math, os, re, subprocess, sys

# name: (match.py engine words, approximate rating, where the rating comes from)
ANCHORS = {
    'hoichess': (['cmd=/usr/games/hoichess --norc', 'proto=xboard', 'option.cores=1'], 1800,
                 'HoiChess 0.22.0, ~1800 (issue 21, second-hand)'),
    'fairymax': (['cmd=/usr/games/fairymax', 'proto=xboard'], 1850,
                 'Fairy-Max 5.0b, ~1850 (issue 21, second-hand)'),
    'phalanx': (['cmd=/usr/games/phalanx -b- -l-', 'proto=xboard'], 2610,
                'Phalanx XXV, ~2610 (issue 21, second-hand)'),
    'gnuchess': (['cmd=/usr/games/gnuchess --uci', 'option.OwnBook=false'], 2800,
                 'GNU Chess 6.2.7, ~2800 (issue 21, second-hand)'),
}


def stockfish_anchor(elo):
    """Stockfish 15.1 limited to `UCI_Elo` elo. Its limited strength picks its move at depth
    1 + skill (skill 0 at 1350, 2.0 at 1600, 5.3 at 1900, 9.1 at 2200: depth 1 to 10), so it plays the
    same at 10+0.1 as at its own calibration's 60+0.6 (its documentation: anchored to CCRL
    40/4): a clock-independent scale, like the levels' node caps."""
    return (['cmd=/usr/games/stockfish', 'option.Threads=1', 'option.Hash=16',
             'option.UCI_LimitStrength=true', f'option.UCI_Elo={elo}'], elo,
            f'Stockfish 15.1 limited to UCI_Elo {elo}, ~{elo} (its authors\' calibration: '
            '60+0.6, anchored to CCRL 40/4)')


for _elo in (1350, 1600, 1900, 2200):
    ANCHORS[f'stockfish-{_elo}'] = stockfish_anchor(_elo)


def fixed_ratings(free=''):
    """The anchors' ratings held fixed in a fit: all but those named in `free` (a comma list),
    which are fitted like the levels."""
    loose = {n for n in free.split(',') if n}
    unknown = loose - set(ANCHORS)
    if unknown:
        sys.exit(f'--free: no anchor named {", ".join(sorted(unknown))}')
    return {name: float(r) for name, (_, r, _) in ANCHORS.items() if name not in loose}


def level_name(elo):
    return f'ferrum-{elo}'


def level_elo(name):
    """The Elo of a level's name (`ferrum-1600` -> 1600)."""
    return int(name.split('-')[1])


def level_engine(ferrum, elo):
    return [f'cmd={ferrum}', f'name={level_name(elo)}', 'option.UCI_LimitStrength=true',
            f'option.UCI_Elo={elo}', 'option.Hash=16']


def games_in(path):
    """(white, black, result) of every finished game of a PGN, or [] when it does not exist."""
    try:
        text = open(path).read()
    except FileNotFoundError:
        return []
    return re.findall(r'\[White "([^"]*)"\]\s*\[Black "([^"]*)"\]\s*\[Result "(1-0|0-1|1/2-1/2)"\]',
                      text)


def pairings(levels, window, anchors=None, ladder=True):
    """(level, opponent name, opponent engine words, or the Elo of the level below) to play:
    the anchors (all, or those named in `anchors`) within `window` of each level, and with
    `ladder` the level below."""
    out = []
    for i, elo in enumerate(levels):
        for name, (words, rating, _) in ANCHORS.items():
            if abs(rating - elo) <= window and (anchors is None or name in anchors):
                out.append((elo, name, words))
        if i > 0 and ladder:
            out.append((elo, level_name(levels[i - 1]), levels[i - 1]))
    return out


def play(a):
    levels = sorted(int(x) for x in a.levels.split(','))
    os.makedirs(a.dir, exist_ok=True)
    anchors = None if a.anchors is None else set(a.anchors.split(','))
    if anchors is not None and not anchors <= set(ANCHORS):
        sys.exit(f'--anchors: no anchor named {", ".join(sorted(anchors - set(ANCHORS)))}')
    for elo, opp, words in pairings(levels, a.window, anchors, not a.no_ladder):
        pgn = os.path.join(a.dir, f'{level_name(elo)}-vs-{opp}.pgn')
        while True:
            played = len(games_in(pgn))
            if played >= a.games:
                break
            pairs = max(1, min(a.batch_pairs, (a.games - played + 1) // 2))
            if isinstance(words, int):
                other = level_engine(a.ferrum, words)
            else:
                other = words + [f'name={opp}']
            cmd = ['python3', a.match, '--engine'] + level_engine(a.ferrum, elo) + \
                  ['--engine'] + other + \
                  ['--tc', a.tc, '--openings', a.openings, '--random-seed', str(1 + played),
                   '--rounds', str(pairs), '--concurrency', str(a.concurrency), '--pgn', pgn]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                tail = '\n'.join((r.stdout + r.stderr).splitlines()[-8:])
                print(f'{level_name(elo)} vs {opp}: match.py reported a fault:\n{tail}',
                      flush=True)
            if len(games_in(pgn)) == played:
                sys.exit(f'{level_name(elo)} vs {opp}: no game finished; stopping')
            print(f'{level_name(elo)} vs {opp}: {len(games_in(pgn))} games', flush=True)


def expected(diff):
    return 1 / (1 + 10 ** (-diff / 400))


def fit(results, fixed, iterations=200):
    """Maximum-likelihood ratings of the players not in `fixed`. `results` holds
    (player, opponent, score) per game. Returns {player: (rating, half-width of 95%)}."""
    players = sorted({p for p, _, _ in results} | {o for _, o, _ in results})
    free = [p for p in players if p not in fixed]
    rating = {p: fixed.get(p, 2000.0) for p in players}
    k = math.log(10) / 400
    for _ in range(iterations):
        # Newton steps per player, one at a time (the problem is small and well conditioned).
        for p in free:
            grad = hess = 0.0
            for x, y, s in results:
                if p not in (x, y):
                    continue
                mine, theirs, score = (x, y, s) if p == x else (y, x, 1 - s)
                e = expected(rating[mine] - rating[theirs])
                grad += k * (score - e)
                hess += k * k * e * (1 - e)
            if hess > 0:
                rating[p] += max(-200.0, min(200.0, grad / hess))
    # The covariance is the inverse of the whole information matrix: a level tied to the
    # scale only through another level inherits that level's uncertainty too.
    index = {p: i for i, p in enumerate(free)}
    n = len(free)
    info = [[0.0] * n for _ in range(n)]
    for x, y, _ in results:
        w = k * k * expected(rating[x] - rating[y]) * (1 - expected(rating[x] - rating[y]))
        for p, q in ((x, y), (y, x)):
            if p in index:
                info[index[p]][index[p]] += w
                if q in index:
                    info[index[p]][index[q]] -= w
    cov = invert(info)
    return {p: (rating[p], 1.96 * math.sqrt(cov[i][i]) if cov else math.inf)
            for p, i in index.items()}


def invert(m):
    """The inverse of a small square matrix (Gauss-Jordan), or None when it is singular."""
    n = len(m)
    a = [row[:] + [float(i == j) for j in range(n)] for i, row in enumerate(m)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(a[r][c]))
        if abs(a[pivot][c]) < 1e-12:
            return None
        a[c], a[pivot] = a[pivot], a[c]
        f = a[c][c]
        a[c] = [v / f for v in a[c]]
        for r in range(n):
            if r != c and a[r][c] != 0:
                g = a[r][c]
                a[r] = [v - g * w for v, w in zip(a[r], a[c])]
    return [row[n:] for row in a]


def games_in_results(path):
    """(player, opponent, score) of every game counted in a results file: one pairing a line,
    `PLAYER OPPONENT WINS DRAWS LOSSES` from the player's side (`#` starts a comment). A pass's
    fit depends only on these counts (colours do not enter it), so a results file kept in the
    repository (`summary`) stands for PGNs that are gone."""
    out = []
    for n, line in enumerate(open(path), 1):
        words = line.split('#')[0].split()
        if not words:
            continue
        try:
            me, them, w, d, l = words[0], words[1], *map(int, words[2:])
        except ValueError:
            sys.exit(f'{path}:{n}: expected PLAYER OPPONENT WINS DRAWS LOSSES')
        out += [(me, them, 1.0)] * w + [(me, them, 0.5)] * d + [(me, them, 0.0)] * l
    return out


def read_dir(d):
    """Every game of the PGNs and results files (`summary`) in `d` (a directory, or a list of
    directories whose games are pooled) as (player, opponent, score), and each level's record
    {level name: {opponent: (wins, draws, losses)}}."""
    games = []
    scores = {'1-0': 1.0, '0-1': 0.0, '1/2-1/2': 0.5}
    for one in ([d] if isinstance(d, str) else d):
        for path in sorted(glob.glob(os.path.join(one, '*.pgn'))):
            games += [(w, b, scores[r]) for w, b, r in games_in(path)]
        for path in sorted(glob.glob(os.path.join(one, '*.results'))):
            games += games_in_results(path)
    results = []
    per_level = {}
    for white, black, s in games:
        results.append((white, black, s))
        for me, them, score in ((white, black, s), (black, white, 1 - s)):
            if me.startswith('ferrum-'):
                row = per_level.setdefault(me, {})
                w, d, l = row.get(them, (0, 0, 0))
                row[them] = (w + (score == 1), d + (score == 0.5), l + (score == 0))
    if not results:
        sys.exit(f'no games in {d}')
    return results, per_level


def summary(a):
    """Prints the dir's games as a results file: one line per pairing, from the level's side
    (between two levels, from the lower one's)."""
    _, per_level = read_dir(a.dir)
    # The dir's own name only: the header must not name a path of one machine.
    name = os.path.basename(os.path.normpath(a.dir))
    print(f'# {name}: PLAYER OPPONENT WINS DRAWS LOSSES (calibrate.py summary)')
    for name in sorted(per_level, key=level_elo):
        for opp, (w, d, l) in sorted(per_level[name].items()):
            if opp.startswith('ferrum-') and level_elo(opp) < level_elo(name):
                continue
            print(f'{name} {opp} {w} {d} {l}')


def between_levels(game):
    """True for a game of one level against another."""
    return game[0].startswith('ferrum-') and game[1].startswith('ferrum-')


def fitted(results, a):
    """The fit of a dir's games with the table's or refit's options."""
    if a.anchors_only:
        results = [g for g in results if not between_levels(g)]
    return fit(results, fixed_ratings(a.free))


def table(a):
    results, per_level = read_dir(a.dir)
    ratings = fitted(results, a)
    print('| `UCI_Elo` | opponents (+win =draw −loss) | games | score | measured Elo (95%) |')
    print('| ---: | --- | ---: | ---: | ---: |')
    for name in sorted(per_level, key=level_elo):
        row = per_level[name]
        games = sum(sum(v) for v in row.values())
        points = sum(w + d / 2 for w, d, _ in row.values())
        opps = ', '.join(f'{o} +{w} ={d} −{l}' for o, (w, d, l) in sorted(row.items()))
        elo, half = ratings.get(name, (math.nan, math.inf))
        # An all-won or all-lost record has no finite estimate; with --anchors-only a level
        # that played only other levels has none either.
        if not math.isfinite(elo):
            measured = 'not fitted (no anchor games)'
        else:
            measured = f'{elo:.0f} ± {half:.0f}' if 0 < points < games else 'unbounded'
        print(f'| {level_elo(name)} | {opps} | {games} | {100 * points / games:.0f}% | '
              f'{measured} |')
    print()
    print_ladder(per_level)
    fixed = fixed_ratings(a.free)
    played = {p for p, _, _ in results} | {o for _, o, _ in results}
    print('Anchors (fixed): ' + '; '.join(note for name, (_, _, note) in ANCHORS.items()
                                          if name in fixed and name in played))
    for name in sorted(set(ANCHORS) - set(fixed)):
        if name in ratings:
            elo, half = ratings[name]
            print(f'Anchor fitted (--free): {name} {elo:.0f} ± {half:.0f} (listed at '
                  f'{ANCHORS[name][1]})')


def print_ladder(per_level):
    """The ordering evidence: each level against the level below it, with the likelihood of
    superiority (LOS, from wins and losses; draws say nothing about which is stronger)."""
    names = sorted(per_level, key=level_elo)
    rows = []
    for lower, upper in zip(names, names[1:]):
        w, d, l = per_level[upper].get(lower, (0, 0, 0))
        if w + d + l == 0:
            continue
        los = 0.5 * (1 + math.erf((w - l) / math.sqrt(2 * (w + l)))) if w + l else 0.5
        rows.append(f'| {level_elo(upper)} | {level_elo(lower)} | +{w} ={d} −{l} | '
                    f'{100 * (w + d / 2) / (w + d + l):.0f}% | {100 * los:.1f}% |')
    if rows:
        print('| level | against the level below | +win =draw −loss | score | LOS |')
        print('| ---: | ---: | --- | ---: | ---: |')
        print('\n'.join(rows))
        print()


def interpolate(points, x):
    """The piecewise-linear function through `points` (sorted by x) at `x`, extended past
    either end along the end segment."""
    i = 1
    while i < len(points) - 1 and x > points[i][0]:
        i += 1
    (x0, y0), (x1, y1) = points[i - 1], points[i]
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0)


def refit(a):
    """A new CALIBRATION table: each level of a pass (--dir) was played at the strength t that
    the binary's table (its --calibration) gave its UCI_Elo; its measured Elo places that t on
    the scale. Several passes pool their points (a level's behaviour depends on t alone, so a
    pass on another table measures other points of the same curve; each pass is fitted on its
    own, as its levels share names). Points whose measured Elo does not rise with t are pooled
    (weighted by the precision of their measurement), then t is read off the line through the
    points at each --targets Elo."""
    if len(a.dir) != len(a.calibration):
        sys.exit('give one --calibration per --dir')
    points = []  # [t, measured Elo, weight]
    for d, calibration in zip(a.dir, a.calibration):
        old = sorted((int(e), float(t)) for e, t in (p.split(':') for p in calibration.split(',')))
        results, per_level = read_dir(d)
        ratings = fitted(results, a)
        for name in sorted(per_level, key=level_elo):
            t = min(1.0, max(0.0, interpolate(old, level_elo(name))))
            games = sum(sum(v) for v in per_level[name].values())
            elo, half = ratings.get(name, (math.nan, math.inf))
            if not math.isfinite(elo):
                print(f'# {d}: t {t:.3f} not fitted (no anchor games)')
                continue
            # Weighted by precision, not games: a level tied to the scale only through fitted
            # anchors or far from every anchor says less per game.
            weight = (1.96 / half) ** 2 if math.isfinite(half) and half > 0 else 0.0
            points.append([t, elo, weight])
            print(f'# {d}: t {t:.3f} measured {elo:.0f} ± {half:.0f} ({games} games)')
    points.sort()
    pooled = []
    for p in points:
        pooled.append(p[:])
        # Pool adjacent violators: a stronger t measured no stronger.
        while len(pooled) > 1 and pooled[-1][1] <= pooled[-2][1]:
            (t1, e1, g1), (t2, e2, g2) = pooled[-2], pooled.pop()
            g = max(g1 + g2, 1e-12)
            pooled[-1] = [(t1 * g1 + t2 * g2) / g, (e1 * g1 + e2 * g2) / g, g1 + g2]
    line = [(elo, t) for t, elo, _ in pooled]
    print('pub const CALIBRATION: [(u32, f64); %d] = [' % len(a.targets.split(',')))
    for target in sorted(int(x) for x in a.targets.split(',')):
        t = min(1.0, max(0.0, interpolate(line, target))) if len(line) > 1 else line[0][1]
        print(f'    ({target}, {t:.3f}),')
    print('];')


ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
sub = ap.add_subparsers(dest='what', required=True)
p = sub.add_parser('play')
p.add_argument('--ferrum', required=True)
p.add_argument('--dir', required=True)
p.add_argument('--levels', required=True, help='UCI_Elo values, e.g. 1200,1600,2000,2400,2800')
p.add_argument('--games', type=int, default=60, help='games per pairing')
p.add_argument('--window', type=int, default=500,
               help='anchors rated within this many Elo of a level are played')
p.add_argument('--anchors', help='play only these anchors (comma list; default all)')
p.add_argument('--no-ladder', action='store_true', help='no games against the level below')
p.add_argument('--tc', default='10+0.1')
p.add_argument('--batch-pairs', type=int, default=5)
p.add_argument('--concurrency', type=int, default=1)
p.add_argument('--match', default='../shared/tools/match.py')
p.add_argument('--openings', default='../shared/openings/balanced.epd')
anchors_only_help = ('fit the levels on their games against anchors alone (the games between '
                     'levels are listed, not fitted)')
free_help = 'anchors to fit like the levels instead of holding at their ratings (comma list)'
t = sub.add_parser('table')
t.add_argument('--dir', required=True, action='append',
               help='a pass; repeated, the passes (of one binary) are pooled')
t.add_argument('--free', default='', help=free_help)
t.add_argument('--anchors-only', action='store_true', help=anchors_only_help)
m = sub.add_parser('summary')
m.add_argument('--dir', required=True)
r = sub.add_parser('refit')
r.add_argument('--dir', required=True, action='append', help='a pass; may be repeated')
r.add_argument('--calibration', required=True, action='append',
               help='the CALIBRATION of the binary that played the --dir at the same place, '
                    'e.g. 1000:0.41,1400:0.552,...')
r.add_argument('--targets', default='1000,1300,1600,1900,2200,2500,2800')
r.add_argument('--free', default='', help=free_help)
r.add_argument('--anchors-only', action='store_true', help=anchors_only_help)
a = ap.parse_args()
{'play': play, 'table': table, 'summary': summary, 'refit': refit}[a.what](a)
