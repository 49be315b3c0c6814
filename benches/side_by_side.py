#!/usr/bin/env python3
"""Time whole-process commands side by side, alternating runs, and print medians and ratios.

    benches/side_by_side.py [--runs N] [--warmup W] NAME='shell command' NAME='shell command' ...

Runs are interleaved (A B C A B C ...) so that load changes on a shared machine hit every
command alike. The first command is the reference for the ratios: a ratio above 1 means the
command is that many times faster than the reference.
"""

import argparse
import statistics
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("commands", nargs="+", help="NAME=COMMAND")
    args = ap.parse_args()
    cmds = []
    for spec in args.commands:
        name, sep, cmd = spec.partition("=")
        if not sep:
            ap.error(f"expected NAME=COMMAND, got {spec!r}")
        cmds.append((name, cmd))
    times = {name: [] for name, _ in cmds}
    for i in range(args.warmup + args.runs):
        for name, cmd in cmds:
            start = time.perf_counter()
            done = subprocess.run(cmd, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            elapsed = time.perf_counter() - start
            if done.returncode != 0:
                sys.exit(f"{name}: exit status {done.returncode}")
            if i >= args.warmup:
                times[name].append(elapsed)
    ref = statistics.median(times[cmds[0][0]])
    print(f"{'command':<28} {'median s':>9} {'min s':>8} {'max s':>8} {'speed vs ' + cmds[0][0]:>16}")
    for name, _ in cmds:
        t = times[name]
        med = statistics.median(t)
        print(f"{name:<28} {med:>9.3f} {min(t):>8.3f} {max(t):>8.3f} {ref / med:>15.2f}x")
    print(f"({args.runs} alternating runs each after {args.warmup} warm-up)")


if __name__ == "__main__":
    main()
