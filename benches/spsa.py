#!/usr/bin/env python3
"""A local SPSA tuner of the search's named parameters (`src/search/params.rs`), playing its
games with fastchess, the runner OpenBench's workers and Ferrum's users run.

It is OpenBench's SPSA on two cores: the same input (`ferrum spsa`: name, int, value, min, max,
c_end, r_end), the same schedule (alpha 0.602, gamma 0.101, A a tenth of the planned
iterations; c_k = c_end · N^gamma / k^gamma, a_k = r_end · c_end² · (A + N)^alpha / (A + k)^alpha),
and the same step: every parameter is moved by ±c_k at random, the engine with the values
moved up plays the one with them moved down for `--pairs` game pairs, and each parameter then
goes by a_k / c_k · (wins − losses) in the direction its "up" engine had.

    cargo build --release --features tune-search
    benches/spsa.py --engine target/release/ferrum --state $FERRUM_DATA/spsa/run1 \\
        --iterations 2500 --pairs 4 --tc 8+0.08           # 2500 · 4 pairs = 20,000 games

A run is meant to outlive sessions and machines: everything it knows is in `--state`
(`state.json`: the plan, the iteration reached and the values; `log.jsonl`: one line per
iteration with its perturbation, result and the values after it). Started again with the same
`--state`, it goes on from the last finished iteration; an interrupted iteration is played
again. `--minutes` stops it cleanly between iterations. Each iteration's perturbation and
openings come from `--seed` and the iteration number, so a run replayed from its log is the
same run. `--report` prints where a run stands: the values, their change from the defaults, and
`ferrum spsa` lines for OpenBench to go on from them.

The values it ends with are a candidate, not a result: they land only through an SPRT against
main (the tune-search binary with `option.NAME=VALUE` against the same binary with none)."""
import argparse
import json
import math
import os
import random
import re
import subprocess
import sys
import time

ALPHA = 0.602
GAMMA = 0.101
A_SHARE = 0.1  # A = A_SHARE · the planned iterations, as OpenBench.

FINISHED = re.compile(r'^Finished game \d+ \((\S+) vs (\S+)\): (1-0|0-1|1/2-1/2)')


def read_params(engine, only):
    """The engine's SPSA lines as dicts, all of them or those named in `only`."""
    out = subprocess.run([engine, 'spsa'], capture_output=True, text=True, check=True).stdout
    params = []
    for line in out.splitlines():
        fields = [f.strip() for f in line.split(',')]
        if len(fields) != 7 or fields[1] != 'int':
            raise SystemExit(f'{engine} spsa: not an SPSA line: {line!r}')
        name, _, value, lo, hi, c_end, r_end = fields
        params.append({'name': name, 'default': int(value), 'min': int(lo), 'max': int(hi),
                       'c_end': float(c_end), 'r_end': float(r_end)})
    if only:
        known = {p['name'] for p in params}
        missing = [n for n in only if n not in known]
        if missing:
            raise SystemExit(f'not parameters of {engine}: {", ".join(missing)}')
        params = [p for p in params if p['name'] in only]
    return params


def schedule(p, k, n):
    """c_k and a_k of parameter `p` at iteration k (1-based) of a run planned for n."""
    big_a = A_SHARE * n
    c = p['c_end'] * n ** GAMMA / k ** GAMMA
    a = p['r_end'] * p['c_end'] ** 2 * (big_a + n) ** ALPHA / (big_a + k) ** ALPHA
    return c, a


def clamp(p, x):
    return min(max(x, p['min']), p['max'])


def play(args, plus, minus, srand):
    """Plays the pairs of one iteration; returns (wins, losses, draws) of the `plus` engine."""
    def engine(name, values):
        opts = [f'option.{n}={v}' for n, v in values.items()]
        return ['-engine', f'cmd={os.path.abspath(args.engine)}', f'name={name}', *opts]
    # fastchess writes its config.json into its working directory: the run's, not the caller's.
    cmd = [os.path.abspath(args.fastchess), *engine('plus', plus), *engine('minus', minus),
           '-each', f'tc={args.tc}', f'option.Hash={args.hash}', 'proto=uci',
           '-openings', f'file={os.path.abspath(args.openings)}', 'format=epd', 'order=random',
           '-srand', str(srand), '-rounds', str(args.pairs), '-games', '2', '-repeat',
           '-concurrency', str(args.concurrency),
           '-pgnout', 'file=games.pgn']
    run = subprocess.run(cmd, capture_output=True, text=True, cwd=args.state)
    wins = losses = draws = 0
    for line in run.stdout.splitlines():
        m = FINISHED.match(line)
        if not m:
            continue
        white, _, result = m.groups()
        if result == '1/2-1/2':
            draws += 1
        elif (result == '1-0') == (white == 'plus'):
            wins += 1
        else:
            losses += 1
    if run.returncode != 0 or wins + losses + draws != 2 * args.pairs:
        tail = '\n'.join((run.stdout + run.stderr).splitlines()[-10:])
        raise SystemExit(f'fastchess: {wins + losses + draws} of {2 * args.pairs} games '
                         f'finished (exit {run.returncode}):\n{tail}')
    return wins, losses, draws


def iterate(args, state, k):
    """One SPSA iteration: perturb, play, step. Appends its line to the log."""
    rng = random.Random(f'{state["seed"]}:{k}')
    n = state['iterations']
    plus, minus, flips, steps = {}, {}, {}, {}
    for p in state['params']:
        c, a = schedule(p, k, n)
        flip = rng.choice((-1, 1))
        theta = state['theta'][p['name']]
        plus[p['name']] = round(clamp(p, theta + c * flip))
        minus[p['name']] = round(clamp(p, theta - c * flip))
        flips[p['name']] = flip
        steps[p['name']] = a / c * flip
    srand = state['seed'] * 1_000_000 + k
    wins, losses, draws = play(args, plus, minus, srand)
    for p in state['params']:
        theta = state['theta'][p['name']] + steps[p['name']] * (wins - losses)
        state['theta'][p['name']] = clamp(p, theta)
    state['k'] = k
    line = {'k': k, 'srand': srand, 'wins': wins, 'losses': losses, 'draws': draws,
            'flips': flips, 'theta': state['theta'], 'time': int(time.time())}
    with open(os.path.join(args.state, 'log.jsonl'), 'a') as log:
        log.write(json.dumps(line) + '\n')
    save(args.state, state)


def save(directory, state):
    path = os.path.join(directory, 'state.json')
    with open(path + '.new', 'w') as f:
        json.dump(state, f, indent=1)
    os.replace(path + '.new', path)


def load_or_start(args):
    path = os.path.join(args.state, 'state.json')
    if os.path.exists(path):
        with open(path) as f:
            state = json.load(f)
        print(f'spsa: {args.state}: going on after iteration {state["k"]} of '
              f'{state["iterations"]}', file=sys.stderr)
        return state
    if args.iterations is None:
        raise SystemExit(f'spsa: {args.state} holds no run: --iterations starts one')
    params = read_params(args.engine, args.params.split(',') if args.params else [])
    os.makedirs(args.state, exist_ok=True)
    state = {'iterations': args.iterations, 'seed': args.seed, 'k': 0, 'params': params,
             'theta': {p['name']: float(p['default']) for p in params},
             'tc': args.tc, 'pairs': args.pairs}
    save(args.state, state)
    return state


def report(state):
    print(f'iteration {state["k"]} of {state["iterations"]} '
          f'({2 * state["pairs"] * state["k"]} games at {state["tc"]})')
    for p in state['params']:
        theta = state['theta'][p['name']]
        c, _ = schedule(p, max(state['k'], 1), state['iterations'])
        print(f'{p["name"]:24} {theta:9.2f}  default {p["default"]:6}  '
              f'change {theta - p["default"]:+8.2f}  ({(theta - p["default"]) / c:+.1f} c_k)')
    print('\nfor OpenBench, from here:')
    for p in state['params']:
        print(f'{p["name"]}, int, {round(state["theta"][p["name"]])}, {p["min"]}, {p["max"]}, '
              f'{p["c_end"]}, {p["r_end"]}')
    print('\nfastchess options of the candidate:')
    print(' '.join(f'option.{p["name"]}={round(state["theta"][p["name"]])}'
                   for p in state['params']))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--state', required=True, help='the run\'s directory (created if new)')
    ap.add_argument('--engine', default='target/release/ferrum',
                    help='a binary built with --features tune-search')
    ap.add_argument('--iterations', type=int, help='the planned length of a new run')
    ap.add_argument('--pairs', type=int, default=4, help='game pairs per iteration')
    ap.add_argument('--params', help='comma-separated names to tune (default: all)')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--tc', default='8+0.08')
    ap.add_argument('--hash', type=int, default=16)
    ap.add_argument('--concurrency', type=int, default=2)
    ap.add_argument('--openings', default='../shared/openings/balanced.epd')
    ap.add_argument('--fastchess', default='../shared/tools/bin/fastchess')
    ap.add_argument('--minutes', type=float, help='stop between iterations after this long')
    ap.add_argument('--report', action='store_true', help='print where the run stands and stop')
    args = ap.parse_args()
    state = load_or_start(args)
    if args.report:
        report(state)
        return
    if state['pairs'] != args.pairs or state['tc'] != args.tc:
        raise SystemExit(f'spsa: this run plays {state["pairs"]} pairs at {state["tc"]} an '
                         f'iteration; give the same --pairs and --tc')
    start = time.time()
    while state['k'] < state['iterations']:
        if args.minutes is not None and time.time() - start > 60 * args.minutes:
            break
        iterate(args, state, state['k'] + 1)
        if state['k'] % 10 == 0:
            print(f'spsa: iteration {state["k"]} of {state["iterations"]}', file=sys.stderr)
    report(state)


if __name__ == '__main__':
    main()
