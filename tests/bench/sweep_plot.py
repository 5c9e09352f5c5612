#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""sweep_plot.py - tests/bench/sweep's tables as one picture: a panel per thing
swept (key, in, out, data, stack), each kernel's MB/s over its own median
at each offset, the median over runs as a line and the runs' range as a
band, so that a relation that costs shows in every run at the same offset
and noise does not.

    tests/bench/sweep_plot.py -o OUT.png FILE...

Each FILE is one run of tests/bench/sweep (its first "# MB/s ... by the W's page
offset" line says which W); runs of one W are pooled.
"""
import argparse
import io
import re
import statistics

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from PIL import Image  # noqa: E402

ORDER = ["key", "in", "out", "data", "stack"]


def read(path):
    """(what, kernel names, offsets, rows of MB/s) of one run."""
    what, names, offs, rows = None, None, [], []
    with open(path) as f:
        for line in f:
            m = re.search(r"by the (\w+)'s page offset", line)
            if m:
                what = m.group(1)
            elif line.startswith("offset"):
                names = line.split()[1:]
            elif line.strip() and not line.startswith("#"):
                p = line.split()
                offs.append(int(p[0]))
                rows.append([float(x) for x in p[1:]])
    return what, names, offs, rows


def ratios(rows, k):
    """Kernel K's figures over its median."""
    med = statistics.median(r[k] for r in rows)
    return [r[k] / med for r in rows]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--title", default="")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    runs = {}
    for path in a.files:
        what, names, offs, rows = read(path)
        runs.setdefault(what, []).append((names, offs, rows))
    kinds = [w for w in ORDER if w in runs]
    fig, axes = plt.subplots(len(kinds), 1, figsize=(8, 2.1 * len(kinds)),
                             sharex=True, squeeze=False)
    for ax, what in zip(axes[:, 0], kinds):
        names, offs, _ = runs[what][0]
        for k, name in enumerate(names):
            per = [ratios(rows, k) for _, _, rows in runs[what]]
            mid = [statistics.median(v) for v in zip(*per)]
            line, = ax.plot(offs, mid, lw=1, label=name)
            ax.fill_between(offs, [min(v) for v in zip(*per)],
                            [max(v) for v in zip(*per)],
                            color=line.get_color(), alpha=0.12, lw=0)
        ax.set_ylim(0.6, 1.2)
        ax.axhline(1, color="grey", lw=0.5)
        ax.set_ylabel(f"{what} moved\n({len(runs[what])} runs)")
        ax.grid(alpha=0.3)
    axes[0, 0].legend(fontsize=6, ncol=3, loc="lower right")
    axes[0, 0].set_title(a.title, fontsize=8)
    axes[-1, 0].set_xlabel("page offset (bytes); y: MB/s over the "
                           "kernel's median in its run")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=64)
    # a palette of 64 colours keeps the committed picture small
    Image.open(buf).convert("RGB").quantize(64).save(a.output,
                                                       optimize=True)


if __name__ == "__main__":
    main()
