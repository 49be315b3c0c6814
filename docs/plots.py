#!/usr/bin/env python3
"""Pictures of Ferrum's recorded results, drawn from the tables in the repository.

Run from anywhere in the checkout (Python 3.11, matplotlib from PyPI):

    pip install matplotlib
    python3 docs/plots.py            # writes docs/plots/*.svg and docs/plots/README.md
    python3 docs/plots.py --png DIR  # also writes a PNG of each picture into DIR (to look at)

Every number comes from the Markdown the project already keeps; none is typed in here:

- networks-vs-ethereal.svg: the Ethereal 12 rows of the table in docs/strength.md;
- levels.svg: the measured table of the strength levels in docs/levels.md;
- wdl-calibration.svg: the calibration table of the win/draw/loss model in TRAINING.md
  ("The win/draw/loss model"), score = win + draw / 2;
- training-loss.svg: the per-epoch held-out losses TRAINING.md records for the embedded
  fine-tuned networks that became the default (g3-353, g4-483t, g5-576t, g6-724tr, with the
  variants trained beside them on the same held-out positions), the parent's loss on those
  positions before epoch 1, and the training loss where the text gives it.

A row or sentence that is not understood stops the script with an error rather than being
skipped. The output is deterministic: the same sources and matplotlib version give the same
bytes (fixed svg.hashsalt, text kept as text, no date in the metadata).
"""

import argparse
import re
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "plots"
STRENGTH = "docs/strength.md"
LEVELS = "docs/levels.md"
TRAINING = "TRAINING.md"

plt.rcParams.update(
    {
        "svg.hashsalt": "ferrum-plots",
        "svg.fonttype": "none",
        "font.size": 13,
        "axes.titlesize": 14,
        "axes.labelsize": 13,
        "legend.fontsize": 11.5,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "axes.unicode_minus": True,
    }
)

NUM = r"[−\-+]?\d+(?:\.\d+)?"


class NotUnderstood(Exception):
    pass


def fail(source, what):
    raise NotUnderstood(f"{source}: {what}")


def number(text):
    """A number as the docs write it: Unicode minus, optional plus sign, thousands commas."""
    return float(text.replace("−", "-").replace(",", "").replace("+", ""))


def read(rel):
    return (ROOT / rel).read_text(encoding="utf-8")


def cells(line):
    line = line.strip()
    if not (line.startswith("|") and line.endswith("|")):
        return None
    return [c.strip() for c in line[1:-1].split("|")]


def tables(text):
    """Every Markdown table in text: a list of (header cells, list of row cells)."""
    lines = text.splitlines()
    found = []
    i = 0
    while i + 1 < len(lines):
        head = cells(lines[i])
        sep = cells(lines[i + 1])
        if head and sep and all(re.fullmatch(r":?-+:?", c) for c in sep):
            rows = []
            j = i + 2
            while j < len(lines) and cells(lines[j]) is not None:
                row = cells(lines[j])
                if len(row) != len(head):
                    fail("table", f"row {lines[j]!r} has {len(row)} cells, header {len(head)}")
                rows.append(row)
                j += 1
            found.append((head, rows))
            i = j
        else:
            i += 1
    return found


def table_with(text, source, header_contains):
    """The one table whose header has a cell containing header_contains."""
    hits = [t for t in tables(text) if any(header_contains in c for c in t[0])]
    if len(hits) != 1:
        fail(source, f"expected one table with a {header_contains!r} column, found {len(hits)}")
    return hits[0]


def column(head, source, contains):
    hits = [i for i, c in enumerate(head) if contains in c]
    if len(hits) != 1:
        fail(source, f"expected one column {contains!r} in {head}, found {len(hits)}")
    return hits[0]


def section(text, source, heading_start):
    """The text under the heading that starts with heading_start, up to the next heading
    of the same or a higher level."""
    lines = text.splitlines()
    fence = [False]

    def in_fence(line):
        if line.startswith("```"):
            fence[0] = not fence[0]
        return fence[0]

    starts = [i for i, l in enumerate(lines) if not in_fence(l) and l.startswith(heading_start)]
    if len(starts) != 1:
        fail(source, f"expected one heading {heading_start!r}, found {len(starts)}")
    level = len(heading_start) - len(heading_start.lstrip("#"))
    body = []
    fenced = False
    for line in lines[starts[0] + 1 :]:
        if line.startswith("```"):
            fenced = not fenced
        m = re.match(r"(#+) ", line)
        if m and not fenced and len(m.group(1)) <= level:
            break
        body.append(line)
    return "\n".join(body)


def flat(text):
    """Text with its line breaks turned into spaces, for sentences that wrap."""
    return re.sub(r"\s+", " ", text)


def save(fig, name, png_dir):
    path = OUT / name
    fig.savefig(path, format="svg", metadata={"Date": None})
    if png_dir:
        fig.savefig(Path(png_dir) / (Path(name).stem + ".png"), format="png", dpi=100)
    plt.close(fig)
    print(f"wrote {path.relative_to(ROOT)}")


# ---------------------------------------------------------------- 1. networks vs Ethereal


def ethereal_rows():
    head, rows = table_with(read(STRENGTH), STRENGTH, "opponent")
    c_opp = column(head, STRENGTH, "opponent")
    c_games = column(head, STRENGTH, "games")
    c_elo = column(head, STRENGTH, "Elo")
    out = []
    for row in rows:
        opp = row[c_opp].replace("**", "")
        if "Ethereal" not in opp:
            continue
        m = re.fullmatch(rf"\**({NUM}) ± (\d+(?:\.\d+)?)\**", row[c_elo])
        if not m:
            fail(STRENGTH, f"Ethereal row's Elo {row[c_elo]!r} is not 'x ± y'")
        if not re.fullmatch(r"\d+", row[c_games]):
            fail(STRENGTH, f"Ethereal row's games {row[c_games]!r} is not a count")
        nets = re.findall(r"`([^`]+)`", opp)
        if "hand-crafted" in opp and not nets:
            label = "hand-crafted"
        elif len(nets) == 1 and "time management" in opp:
            label = f"{nets[0]}\n+ time mgmt"
        elif len(nets) == 1:
            label = nets[0]
        else:
            fail(STRENGTH, f"Ethereal row {opp!r}: cannot tell which network played")
        commit = re.search(r"\(([0-9a-f]{7,40})\)", opp)
        if commit:
            label += f"\n({commit.group(1)})"
        out.append((label, int(row[c_games]), number(m.group(1)), number(m.group(2))))
    if len(out) < 2:
        fail(STRENGTH, f"found {len(out)} Ethereal rows")
    # The table lists the newest first; the picture runs in the order the networks came.
    out.reverse()
    if out[0][0] != "hand-crafted":
        fail(STRENGTH, f"the oldest Ethereal row should be the hand-crafted one, is {out[0][0]!r}")
    return out


def plot_ethereal(png_dir):
    rows = ethereal_rows()
    labels = [r[0] for r in rows]
    games = [r[1] for r in rows]
    elo = [r[2] for r in rows]
    err = [r[3] for r in rows]
    x = list(range(len(rows)))
    fig, ax = plt.subplots(figsize=(10, 6), layout="constrained")
    ax.axhline(0, color="0.3", lw=1)
    ax.text(-0.4, 4, "Ethereal 12's level", ha="left", va="bottom", color="0.3", fontsize=11.5)
    ax.errorbar(x, elo, yerr=err, fmt="o", ms=7, capsize=5, lw=1.6, color="tab:blue")
    for xi, e, g in zip(x, elo, games):
        ax.annotate(f"{e:+.1f}".replace("-", "−"), (xi, e), xytext=(8, 0),
                    textcoords="offset points", va="center", fontsize=11.5)
    ax.set_xticks(x, labels, fontsize=11.5)
    ax.set_xlim(-0.5, len(rows) - 0.3)
    ax.set_xlabel("Ferrum's evaluation, in the order the networks came")
    ax.set_ylabel("Ferrum's Elo against Ethereal 12 (95% interval)")
    g_lo, g_hi = min(games), max(games)
    span = f"{g_lo}" if g_lo == g_hi else f"{g_lo}–{g_hi}"
    ax.set_title(
        "Ferrum against Ethereal 12, network by network\n"
        f"(docs/strength.md, 10+0.1, {span} games each, 95% intervals)"
    )
    save(fig, "networks-vs-ethereal.svg", png_dir)


# ---------------------------------------------------------------- 2. strength levels


def level_rows():
    head, rows = table_with(read(LEVELS), LEVELS, "measured Elo")
    c_nom = column(head, LEVELS, "UCI_Elo")
    c_meas = column(head, LEVELS, "measured Elo")
    c_games = column(head, LEVELS, "games")
    out = []
    for row in rows:
        m = re.fullmatch(r"(\d+) ± (\d+)", row[c_meas])
        if not re.fullmatch(r"\d+", row[c_nom]) or not m or not re.fullmatch(r"\d+", row[c_games]):
            fail(LEVELS, f"measured-table row {row} is not 'level … games … x ± y'")
        out.append((int(row[c_nom]), number(m.group(1)), number(m.group(2)), int(row[c_games])))
    if len(out) < 2:
        fail(LEVELS, f"found {len(out)} levels")
    return out


def plot_levels(png_dir):
    rows = level_rows()
    nom = [r[0] for r in rows]
    meas = [r[1] for r in rows]
    err = [r[2] for r in rows]
    games = [r[3] for r in rows]
    fig, (ax, dx) = plt.subplots(
        2, 1, figsize=(10, 8.5), layout="constrained", sharex=True,
        gridspec_kw={"height_ratios": [2.2, 1]},
    )
    lo, hi = min(nom) - 150, max(nom) + 150
    ax.plot([lo, hi], [lo, hi], color="0.5", ls="--", lw=1.2, label="measured = nominal (y = x)")
    ax.errorbar(nom, meas, yerr=err, fmt="o", ms=7, capsize=5, lw=1.6, color="tab:blue",
                label="measured Elo, 95% interval")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_ylabel("measured Elo")
    ax.legend(loc="upper left")
    diff = [m - n for m, n in zip(meas, nom)]
    dx.axhline(0, color="0.5", ls="--", lw=1.2)
    dx.errorbar(nom, diff, yerr=err, fmt="o", ms=7, capsize=5, lw=1.6, color="tab:blue")
    for n, d in zip(nom, diff):
        dx.annotate(f"{d:+.0f}".replace("-", "−"), (n, d), xytext=(8, 0),
                    textcoords="offset points", va="center", fontsize=11.5)
    dx.set_ylabel("measured − nominal, Elo")
    dx.set_xlabel("nominal UCI_Elo of the level")
    dx.set_xticks(nom)
    g_lo, g_hi = min(games), max(games)
    fig.suptitle(
        "Strength levels: measured Elo against the nominal UCI_Elo\n"
        f"(docs/levels.md, measured table: 10+0.1 against other engines,\n{g_lo}–{g_hi} games "
        "a level, 95% intervals)",
        fontsize=14,
    )
    save(fig, "levels.svg", png_dir)


# ---------------------------------------------------------------- 3. WDL calibration


def wdl_rows():
    sec = section(read(TRAINING), TRAINING, "### The win/draw/loss model")
    head, rows = table_with(sec, TRAINING + " (win/draw/loss model)", "score bucket")
    c_b = column(head, TRAINING, "score bucket")
    c_n = column(head, TRAINING, "positions")
    c_p = column(head, TRAINING, "predicted")
    c_o = column(head, TRAINING, "observed")
    out = []
    for row in rows:
        b = re.fullmatch(rf"\[({NUM}), ({NUM})\)", row[c_b])
        wdl = []
        for c in (c_p, c_o):
            m = re.fullmatch(r"(\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)", row[c])
            if not m:
                fail(TRAINING, f"calibration cell {row[c]!r} is not W/D/L")
            wdl.append(tuple(number(g) for g in m.groups()))
        if not b or not re.fullmatch(r"[\d,]+", row[c_n]):
            fail(TRAINING, f"calibration row {row} not understood")
        out.append(((number(b.group(1)), number(b.group(2))), int(number(row[c_n])), *wdl))
    if len(out) < 2:
        fail(TRAINING, f"found {len(out)} calibration buckets")
    intro = flat(sec)
    m = re.search(r"on gen(\d+)'s first (\d+) chunks", intro)
    m2 = re.search(r"([\d,]+) held out\.", intro)
    if not m or not m2:
        fail(TRAINING, "cannot find which games the win/draw/loss model was fitted on")
    return out, f"gen{m.group(1)}", m2.group(1)


def plot_wdl(png_dir):
    rows, gen, held = wdl_rows()
    score = lambda w: (w[0] + w[1] / 2)  # noqa: E731  per cent, for the side to move
    pred = [score(r[2]) for r in rows]
    obs = [score(r[3]) for r in rows]
    mid = [(r[0][0] + r[0][1]) / 2 for r in rows]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11.5, 6), layout="constrained")
    ax.plot([0, 100], [0, 100], color="0.5", ls="--", lw=1.2, label="observed = predicted")
    ax.plot(pred, obs, "o", ms=7, color="tab:blue", label="score bucket (100 cp wide)")
    for p, o, r in zip(pred, obs, rows):
        if abs(o - p) >= 1.5:
            lo, hi = (int(v) for v in r[0])
            ax.annotate(f"[{lo}, {hi})".replace("-", "−"), (p, o), xytext=(6, -12),
                        textcoords="offset points", fontsize=10.5, color="0.25")
    ax.set_xlim(-2, 102)
    ax.set_ylim(-2, 102)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel("predicted score, % (win + draw / 2)")
    ax.set_ylabel("observed score, %")
    ax.set_title("score: observed against predicted")
    ax.legend(loc="upper left")
    colours = {"win": "tab:green", "draw": "tab:gray", "loss": "tab:red"}
    for k, name in enumerate(("win", "draw", "loss")):
        bx.plot(mid, [r[2][k] for r in rows], "-", color=colours[name], lw=1.8,
                label=f"{name}, predicted")
        bx.plot(mid, [r[3][k] for r in rows], "o", color=colours[name], ms=6,
                label=f"{name}, observed")
    bx.set_xlabel("search score of the side to move, cp (bucket centre)")
    bx.set_ylabel("per cent of positions")
    bx.set_title("win / draw / loss by score bucket")
    bx.legend(loc="center left", ncol=1, fontsize=10.5)
    fig.suptitle(
        "Win/draw/loss model (UCI_ShowWDL): calibration on held-out positions\n"
        f"(TRAINING.md calibration table; {gen}'s games, {held} held-out positions)",
        fontsize=14,
    )
    save(fig, "wdl-calibration.svg", png_dir)


# ---------------------------------------------------------------- 4. training loss

EPOCH_LIST = rf"((?:\d\.\d+(?:, | and )?)+)"


def losses(text, source, n=None):
    vals = [number(v) for v in re.findall(r"\d\.\d+", text)]
    if not vals or (n is not None and len(vals) != n):
        fail(source, f"expected {n or 'some'} losses in {text!r}")
    return vals


def epoch_table(sec, source, row_contains):
    """(held-out losses per epoch, parent's loss) from a section's 'holdout loss, epochs' table."""
    head, rows = table_with(sec, source, "holdout loss, epochs")
    c = column(head, source, "holdout loss, epochs")
    hits = [r for r in rows if row_contains in r[0]]
    starts = [r for r in rows if "(start)" in r[0]]
    if len(hits) != 1 or len(starts) != 1:
        fail(source, f"expected one row with {row_contains!r} and one '(start)' row")
    m = re.fullmatch(r"epochs 1 … (\d+).*", head[c].split("holdout loss, ")[1])
    if not m:
        fail(source, f"column {head[c]!r} does not say how many epochs")
    per_epoch = losses(hits[0][c], source, int(m.group(1)))
    start = losses(starts[0][c], source)[0]  # the first figure: on the same held-out positions
    return per_epoch, start


def training_losses():
    text = read(TRAINING)
    panels = []

    src = TRAINING + " (g3-353)"
    sec = section(text, src, "### 2026-12-04 — `g3-353`:")
    one, start = epoch_table(sec, src, "one output layer")
    eight, _ = epoch_table(sec, src, "8 output buckets")
    m = re.search(rf"training loss keeps falling \((\d\.\d+) at epoch (\d+) with one layer, "
                  rf"(\d\.\d+) with buckets\)", flat(sec))
    if not m:
        fail(src, "cannot find the recorded training loss")
    ep = int(m.group(2))
    panels.append({
        "title": "g3-353: g2-239 fine-tuned on gen3",
        "start": ("g2-239", start),
        "held": [("g3-353 (one output layer)", one), ("8 output buckets (not kept)", eight)],
        "train": [("g3-353", ep, number(m.group(1))), ("8 buckets", ep, number(m.group(3)))],
        "ylabel": "loss (λ 0, search scores)",
    })

    src = TRAINING + " (g4-483)"
    sec = section(text, src, "### 2026-12-04 — `g4-483`:")
    untied, start_u = epoch_table(sec, src, "**`g4-483`**")
    src = TRAINING + " (g4-483t)"
    sec = section(text, src, "### 2026-12-04 — `g4-483t`:")
    tied, start = epoch_table(sec, src, "**`g4-483t`**")
    if start != start_u:
        fail(src, "g4-483 and g4-483t should start from the same held-out loss")
    panels.append({
        "title": "g4-483t: g3-353 fine-tuned on gen4",
        "start": ("g3-353", start),
        "held": [("g4-483t (tied buckets)", tied), ("g4-483 (untied, set aside)", untied)],
        "train": [],
        "ylabel": "loss (λ 0, search scores)",
    })

    src = TRAINING + " (g5-576t)"
    sec = section(text, src, "### 2026-12-05 — `g5-576t`:")
    g5, start = epoch_table(sec, src, "**`g5-576t`**")
    panels.append({
        "title": "g5-576t: g4-483t fine-tuned on gen4 + gen5",
        "start": ("g4-483t", start),
        "held": [("g5-576t (float)", g5)],
        "train": [],
        "ylabel": "loss (λ 0, search scores)",
    })

    src = TRAINING + " (g6-724tr)"
    sec = flat(section(text, src, "### 2026-12-05 — `g6-724tr`:"))
    m = re.search(rf"Held-out loss on its own target \(λ ([\d.]+), scale (\d+)\): `([^`]+)` "
                  rf"(\d\.\d+); epochs 1 … (\d+) {EPOCH_LIST}", sec)
    if not m:
        fail(src, "cannot find the per-epoch held-out losses")
    g6 = losses(m.group(6), src, int(m.group(5)))
    panels.append({
        "title": "g6-724tr: g5-576t fine-tuned on gen6",
        "start": (m.group(3), number(m.group(4))),
        "held": [("g6-724tr (float)", g6)],
        "train": [],
        "ylabel": f"loss (λ {m.group(1)}, eval scale {m.group(2)})",
    })
    return panels


def plot_training(png_dir):
    panels = training_losses()
    fig, axes = plt.subplots(2, 2, figsize=(11.5, 9), layout="constrained")
    styles = [("o-", "tab:blue"), ("s--", "tab:orange")]
    for ax, p in zip(axes.flat, panels):
        parent, s0 = p["start"]
        shown = []
        for (label, vals), (fmt, colour) in zip(p["held"], styles):
            ax.plot(range(1, len(vals) + 1), vals, fmt, color=colour, ms=6, lw=1.8,
                    label=f"{label}, held-out")
            shown += vals
        for (label, ep, val), (_, colour) in zip(p["train"], styles):
            ax.plot([ep], [val], "x", color=colour, ms=10, mew=2.5,
                    label=f"{label}, training (only epoch {ep} recorded)")
            shown.append(val)
        lo, hi = min(shown), max(shown)
        pad = (hi - lo) * 0.1
        lo -= pad * 3  # room for the note on the parent's loss
        top = hi + pad * (2 + 1.6 * (len(p["held"]) + len(p["train"])))
        ax.set_ylim(lo - pad, top)
        if s0 > top:
            # The parent's loss is far above the epochs': say it rather than squash the curves.
            ax.annotate(f"before epoch 1, {parent}'s loss on the same positions:\n"
                        f"{s0:.6f} (above the scale)", xy=(0.03, 0.03),
                        xycoords="axes fraction", ha="left", va="bottom", fontsize=11,
                        color="0.2")
        else:
            ax.axhline(s0, color="black", ls=":", lw=1.2, label=f"{parent}'s loss, before epoch 1")
        ax.set_title(p["title"], fontsize=13)
        ax.set_xlabel("epoch")
        ax.set_ylabel(p["ylabel"])
        ax.set_xticks(range(1, max(len(v) for _, v in p["held"]) + 1))
        ax.ticklabel_format(axis="y", style="plain", useOffset=False)
        ax.legend(loc="upper right", fontsize=10.5)
    fig.suptitle(
        "Held-out loss per epoch of the fine-tuned networks that became the default (TRAINING.md)\n"
        "g0-76 … g2-239 have only a final loss recorded; training loss is recorded only at "
        "g3-353's epoch 6",
        fontsize=14,
    )
    save(fig, "training-loss.svg", png_dir)


# ---------------------------------------------------------------- README


def data_commit():
    paths = [STRENGTH, LEVELS, TRAINING]
    commit = subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%h", "--", *paths],
                            capture_output=True, text=True, check=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(ROOT), "diff", "--quiet", "HEAD", "--", *paths])
    return commit + (" (with uncommitted changes to them)" if dirty.returncode else "")


def write_readme():
    text = f"""# Plots

Pictures of recorded results, generated by `docs/plots.py` from the tables in the repository
(no number is typed into the script; a row it does not understand stops it). Made with:

```sh
pip install matplotlib
python3 docs/plots.py
```

The data is that of commit {data_commit()}, the last to change its sources
(`{STRENGTH}`, `{LEVELS}`, `{TRAINING}`).

| picture | shows | from |
|---|---|---|
| [`networks-vs-ethereal.svg`](networks-vs-ethereal.svg) | Ferrum's Elo against Ethereal 12 for each network, in the order they came, with 95% intervals | the Ethereal rows of the table in `{STRENGTH}` |
| [`levels.svg`](levels.svg) | each strength level's measured Elo against its nominal `UCI_Elo`, with 95% intervals, the diagonal y = x, and the difference | the measured table in `{LEVELS}` |
| [`wdl-calibration.svg`](wdl-calibration.svg) | the win/draw/loss model's predicted against observed score (win + draw / 2) per 100 cp bucket of held-out positions, and W/D/L per bucket | the calibration table under "The win/draw/loss model" in `{TRAINING}` |
| [`training-loss.svg`](training-loss.svg) | held-out loss per epoch of the fine-tuned networks that became the default (and the variants trained beside them on the same held-out positions), the parent's loss on those positions before epoch 1, and the training loss where it is recorded | the per-epoch tables and sentences of the `g3-353`, `g4-483`, `g4-483t`, `g5-576t` and `g6-724tr` log entries of `{TRAINING}` |

`g0-76`, `g1-142` and `g2-239` have no per-epoch losses recorded (only their final held-out
loss in the Networks table), and of these networks' training losses only `g3-353`'s sixth
epoch is recorded, so the last picture shows held-out losses for the four fine-tuned networks
that became the default.
"""
    (OUT / "README.md").write_text(text, encoding="utf-8")
    print(f"wrote {(OUT / 'README.md').relative_to(ROOT)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--png", metavar="DIR", help="also write a PNG of each picture into DIR")
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    try:
        plot_ethereal(args.png)
        plot_levels(args.png)
        plot_wdl(args.png)
        plot_training(args.png)
    except NotUnderstood as e:
        sys.exit(f"plots.py: not understood: {e}")
    write_readme()


if __name__ == "__main__":
    main()
