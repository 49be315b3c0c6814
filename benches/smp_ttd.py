#!/usr/bin/env python3
"""Lazy SMP time to depth: how much sooner `Threads=2` reaches a fixed depth than `Threads=1`,
over positions of a suite, each searched in a fresh engine (empty hash) with the thread counts
alternated so that machine noise falls on both alike.

    benches/smp_ttd.py --ferrum target/release/ferrum --depth 16 --positions 20 --repeats 3

Prints per position the median time of each thread count and their ratio, then the median and
geometric mean of the ratios (above 1: two threads are faster). Needs an otherwise idle machine
with at least as many cores as the largest thread count."""
import argparse, math, statistics, subprocess, time

ap = argparse.ArgumentParser()
ap.add_argument('--ferrum', required=True)
ap.add_argument('--depth', type=int, default=16)
ap.add_argument('--positions', type=int, default=20)
ap.add_argument('--repeats', type=int, default=3)
ap.add_argument('--threads', default='1,2')
ap.add_argument('--hash', type=int, default=64)
ap.add_argument('--suite', default='../shared/openings/balanced.epd')
a = ap.parse_args()


def fens():
    out = []
    for line in open(a.suite):
        fields = line.split()
        if len(fields) >= 4:
            out.append(' '.join(fields[:4]) + ' 0 1')
        if len(out) == a.positions:
            break
    return out


def time_to_depth(fen, threads):
    """Seconds from `go depth D` to `bestmove` in a fresh engine with `threads` threads."""
    p = subprocess.Popen([a.ferrum], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                         bufsize=1)

    def send(line):
        p.stdin.write(line + '\n')
        p.stdin.flush()

    def wait_for(prefix):
        for line in p.stdout:
            if line.startswith(prefix):
                return line
        raise SystemExit(f'engine ended before {prefix!r}')

    send('uci')
    wait_for('uciok')
    send(f'setoption name Threads value {threads}')
    send(f'setoption name Hash value {a.hash}')
    send(f'position fen {fen}')
    send('isready')
    wait_for('readyok')
    start = time.perf_counter()
    send(f'go depth {a.depth}')
    wait_for('bestmove')
    elapsed = time.perf_counter() - start
    send('quit')
    p.wait()
    return elapsed


counts = [int(x) for x in a.threads.split(',')]
ratios = []
for i, fen in enumerate(fens()):
    times = {n: [] for n in counts}
    for r in range(a.repeats):
        # Alternate the order so that a slow moment of the machine hits both counts.
        for n in (counts if r % 2 == 0 else counts[::-1]):
            times[n].append(time_to_depth(fen, n))
    med = {n: statistics.median(t) for n, t in times.items()}
    ratio = med[counts[0]] / med[counts[-1]]
    ratios.append(ratio)
    cols = '  '.join(f'T{n} {med[n]:.3f}s' for n in counts)
    print(f'{i + 1:3} {cols}  ratio {ratio:.2f}', flush=True)
geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
print(f'time to depth {a.depth}, Threads={counts[0]} / Threads={counts[-1]}: median '
      f'{statistics.median(ratios):.2f}x, geometric mean {geo:.2f}x over {len(ratios)} positions')
