#!/usr/bin/env python3
"""Time whole-process commands side by side, alternating runs, and print medians and ratios.

    benches/side_by_side.py [--runs N] [--warmup W] NAME='shell command' NAME='shell command' ...

Runs are interleaved (A B C A B C ...) so that load changes on a shared machine hit every
command alike. The first command is the reference for the ratios: a ratio above 1 means the
command is that many times faster than the reference.

With `--rate REGEX` the commands are compared by a rate they print instead of their wall time:
the first group of REGEX, searched in each run's stdout and stderr (last match), is read as a
number where higher is faster, e.g. nodes per second from `ferrum bench` ("([0-9]+) nps") and
Ethereal's `bench` ("NPS *: *([0-9]+)"). One REGEX per command may be given as NAME~REGEX=COMMAND.
"""

import argparse
import re
import statistics
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--rate", help="compare by the number this regex's first group captures")
    ap.add_argument("commands", nargs="+", help="NAME=COMMAND")
    args = ap.parse_args()
    cmds = []
    for spec in args.commands:
        name, sep, cmd = spec.partition("=")
        if not sep:
            ap.error(f"expected NAME=COMMAND, got {spec!r}")
        name, _, regex = name.partition("~")
        regex = regex or args.rate
        cmds.append((name, cmd, re.compile(regex) if regex else None))
    if any(regex for _, _, regex in cmds) and not all(regex for _, _, regex in cmds):
        ap.error("with rates, every command needs a REGEX (--rate or NAME~REGEX=COMMAND)")
    values = {name: [] for name, _, _ in cmds}
    for i in range(args.warmup + args.runs):
        for name, cmd, regex in cmds:
            value = run_once(name, cmd, regex)
            if i >= args.warmup:
                values[name].append(value)
    report(cmds, values, rates=any(regex for _, _, regex in cmds))
    print(f"({args.runs} alternating runs each after {args.warmup} warm-up)")


def run_once(name, cmd, regex):
    """One run: its wall time in seconds, or with a regex the rate it printed."""
    start = time.perf_counter()
    done = subprocess.run(cmd, shell=True, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{name}: exit status {done.returncode}")
    if regex is None:
        return elapsed
    found = regex.findall(done.stdout + done.stderr)
    if not found:
        sys.exit(f"{name}: no match for {regex.pattern!r} in its output")
    return float(found[-1])


def report(cmds, values, rates):
    """Medians, extremes and the speed of each command relative to the first."""
    ref = statistics.median(values[cmds[0][0]])
    unit = "rate" if rates else "s"
    print(f"{'command':<28} {'median ' + unit:>12} {'min':>12} {'max':>12} {'speed vs ' + cmds[0][0]:>16}")
    for name, _, _ in cmds:
        v = values[name]
        med = statistics.median(v)
        ratio = med / ref if rates else ref / med
        fmt = ",.0f" if rates else ".3f"
        print(f"{name:<28} {med:>12{fmt}} {min(v):>12{fmt}} {max(v):>12{fmt}} {ratio:>15.2f}x")


if __name__ == "__main__":
    main()
