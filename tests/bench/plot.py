#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Render rc4tune profiles (data/profiles/*.json, written by make profile
or converted from the tables of doc/cpus/) to SVG pictures.

    plot.py PROFILE.json --output FILE.svg
    plot.py --outdir DIR PROFILE.json...      (DIR/NAME.svg for each)

Each picture has two parts:
  - single stream: MB/s against block size (16..8192 B) for the five best
    kernels (by the geometric mean over the sizes measured) and OpenSSL.
    The figures are the profile's make bench tables ("bench") where it has
    them, which measured OpenSSL's RC4 beside the kernels, else the tuner
    runs' bytes_per_second (no OpenSSL row there); the median where several
    tables or runs measured a kernel;
  - each batch call against serial (the single kind's winner run key by
    key): rc4tune_set_keys in keys/s, rc4tune_crypt_many in MB/s over 8
    streams of 1024 B, as a share of serial.  From each run's per-call
    members "set_keys" and "crypt_many", or in profiles of earlier versions
    from its one "batch" member (keys_per_second and bytes_per_second of
    each kernel).  Converted tables that kept only each kernel's ratio to
    the best are shown as that ratio.

The SVG is reproducible (no date, fixed ids), so committed pictures change
only when their profile or this script does.  Needs matplotlib (Debian:
python3-matplotlib).
"""

import argparse
import json
import math
import os
import statistics
import sys

SIZES = [16, 64, 256, 1024, 8192]
LIBRARIES = {"openssl", "libgcrypt", "nettle"}
TOP = 5


def parse_bench(lines):
    """{name: {size: MB/s}} from one make bench table (its MB/s block)."""
    rows, sizes = {}, None
    for line in lines:
        words = line.split()
        if not words:
            if sizes:
                break
            continue
        if words[0] == "MB/s" and sizes is None:
            sizes = []
            for w in words[1:]:
                if not w.isdigit():
                    break
                sizes.append(int(w))
            continue
        if sizes is None:
            continue
        values = []
        for w in words[1:1 + len(sizes)]:
            try:
                values.append(float(w))
            except ValueError:
                break
        if len(values) == len(sizes):
            rows[words[0]] = dict(zip(sizes, values))
    return rows


def run_sizes(run, n):
    """The block sizes of a run's n byte cells: its "sizes", else the five
    standard sizes, else (a converted single figure) 8 KiB blocks."""
    if run.get("sizes") and len(run["sizes"]) == n:
        return run["sizes"]
    return SIZES if n == len(SIZES) else [8192] * n if n == 1 else None


def median_rows(tables):
    """{name: {size: median MB/s}} over several {name: {size: MB/s}}."""
    cells = {}
    for t in tables:
        for name, row in t.items():
            for size, v in row.items():
                cells.setdefault(name, {}).setdefault(size, []).append(v)
    return {n: {s: statistics.median(v) for s, v in row.items()}
            for n, row in cells.items()}


def single_stream(profile):
    """({kernel: {size: MB/s}}, {size: MB/s} of OpenSSL or None, source)."""
    tables = [parse_bench(b) for b in profile.get("bench") or []]
    tables = [t for t in tables if t]
    if tables:
        rows = median_rows(tables)
        openssl = rows.get("openssl")
        kernels = {n: r for n, r in rows.items() if n not in LIBRARIES}
        return kernels, openssl, "make bench (%d table%s)" % (
            len(tables), "" if len(tables) == 1 else "s")
    runs = []
    for run in profile.get("runs", []):
        t = {}
        for k in run.get("kernels", []):
            bps = k.get("bytes_per_second") or []
            if k.get("status") != "ok" or not bps:
                continue
            sizes = run_sizes(run, len(bps))
            if sizes:
                t[k["name"]] = {s: v / 1e6 for s, v in zip(sizes, bps)}
        if t:
            runs.append(t)
    return median_rows(runs), None, "tuner runs (%d)" % len(runs)


def geomean(row):
    return math.exp(sum(math.log(v) for v in row.values()) / len(row))


def best_kernels(kernels, n=TOP):
    """The n best by geometric mean over the sizes each was measured at;
    kernels measured at fewer sizes than the most are ranked after."""
    most = max((len(r) for r in kernels.values()), default=0)
    return sorted(kernels, key=lambda k: (len(kernels[k]) < most,
                                          -geomean(kernels[k]), k))[:n]


CALLS = {
    "set_keys": ("rc4tune_set_keys", "keys/s (64 fresh 16-byte keys a call)",
                 lambda k: k.get("keys_per_second")),
    "crypt_many": ("rc4tune_crypt_many", "MB/s (8 streams x 1024 B)",
                   lambda k: (k.get("bytes_per_second") or [None])[0]),
}


def batch_calls(profile):
    """{call: {kernel: median figure}} for each batch call measured, and
    {kernel: median ratio} from converted tables with ratios only."""
    calls, ratios = {c: {} for c in CALLS}, {}
    for run in profile.get("runs", []):
        for call, (_, _, figure) in CALLS.items():
            if call in run:
                ks = run[call].get("kernels", [])
            else:
                ks = run.get("batch", {}).get("kernels", [])
            for k in ks:
                v = figure(k) if k.get("status") == "ok" else None
                if v is not None:
                    calls[call].setdefault(k["name"], []).append(v)
        if not any(c in run for c in CALLS):
            for k in run.get("batch", {}).get("kernels", []):
                if (k.get("status") == "ok" and "ratio" in k and
                        all(f(k) is None for _, _, f in CALLS.values())):
                    ratios.setdefault(k["name"], []).append(k["ratio"])
    return ({c: {n: statistics.median(v) for n, v in ks.items()}
             for c, ks in calls.items()},
            {n: statistics.median(v) for n, v in ratios.items()})


def title_of(profile, path):
    cpu = profile.get("cpu", {})
    name = cpu.get("model_name") or ""
    return "%s: %s" % (profile.get("section", os.path.basename(path)), name)


def draw_single(ax, kernels, openssl, source):
    """The top panel: the best kernels' MB/s by block size, and OpenSSL's."""
    best = best_kernels(kernels)
    for name in best:
        row = kernels[name]
        xs = sorted(row)
        ax.plot(xs, [row[x] for x in xs], marker="o", label=name)
    if openssl:
        xs = sorted(openssl)
        ax.plot(xs, [openssl[x] for x in xs], marker="s", color="black",
                linestyle="--", label="OpenSSL RC4")
    ax.set_xscale("log", base=2)
    ax.set_xticks(SIZES)
    ax.set_xticklabels([str(s) for s in SIZES])
    ax.set_xlim(12, 11000)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("block size (bytes)")
    ax.set_ylabel("MB/s")
    ax.grid(True, alpha=0.3)
    what = "single stream: the %d best kernels%s, from %s%s" % (
        len(best), " and OpenSSL" if openssl else "", source,
        "" if openssl else "; no OpenSSL row in this profile")
    ax.set_title(what)
    if best or openssl:
        ax.legend(loc="lower right", fontsize=8)
    else:
        ax.text(0.5, 0.5, "no single-stream figures in this profile",
                transform=ax.transAxes, ha="center")


def say_instead(bx, text, va="baseline"):
    bx.set_axis_off()
    bx.text(0.5, 0.5, text, transform=bx.transAxes, ha="center", va=va)


def draw_call(bx, i, call, figures, ratios):
    """Panel I: batch call CALL's kernels, as shares of serial (or of the
    best without a serial row); a converted table's RATIOS in the first."""
    fn, unit, _ = CALLS[call]
    if figures and "serial" in figures:
        base = figures["serial"]
        names = sorted(figures, key=lambda n: figures[n])
        colors = ["grey" if n == "serial" else "tab:blue" for n in names]
        bx.barh(names, [figures[n] / base for n in names], color=colors)
        bx.axvline(1.0, color="black", linewidth=0.8)
        bx.set_xlabel("share of serial (serial: %s)" % fmt(base, call))
        bx.set_title("%s: %s" % (fn, unit.split(" (")[0]))
    elif figures:
        best_v = max(figures.values())
        names = sorted(figures, key=lambda n: figures[n])
        bx.barh(names, [figures[n] / best_v for n in names])
        bx.set_xlabel("share of the best (no serial row)")
        bx.set_title("%s: %s" % (fn, unit.split(" (")[0]))
    elif ratios and i == 0:
        names = sorted(ratios, key=lambda n: ratios[n])
        bx.barh(names, [ratios[n] for n in names], color="tab:green")
        bx.set_xlabel("share of the best")
        bx.set_title("batch kernels, both calls (one ratio each)")
    elif ratios:
        return say_instead(bx, "a converted table: one ratio to the best\n"
                           "per batch kernel, for both calls;\nno serial "
                           "row, no figure per call", va="center")
    else:
        return say_instead(bx, "%s: not measured in this profile" % fn)
    bx.tick_params(axis="y", labelsize=7)
    bx.grid(True, axis="x", alpha=0.3)


def render(path, out):
    import matplotlib
    matplotlib.use("svg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "rc4tune", "svg.fonttype": "none",
                         "font.size": 9})
    with open(path) as f:
        profile = json.load(f)
    kernels, openssl, source = single_stream(profile)
    calls, ratios = batch_calls(profile)

    fig = plt.figure(figsize=(10, 7.5))
    grid = fig.add_gridspec(2, 2, height_ratios=[1.3, 1], hspace=0.45,
                            wspace=0.45)
    draw_single(fig.add_subplot(grid[0, :]), kernels, openssl, source)
    for i, call in enumerate(CALLS):
        draw_call(fig.add_subplot(grid[1, i]), i, call, calls[call], ratios)
    fig.suptitle(title_of(profile, path))
    fig.savefig(out, format="svg", metadata={"Date": None},
                bbox_inches="tight")
    plt.close(fig)


def fmt(v, call):
    if call == "set_keys":
        return "%.3g M keys/s" % (v / 1e6)
    return "%.0f MB/s" % (v / 1e6)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("profiles", nargs="+", metavar="PROFILE.json")
    ap.add_argument("--output", "-o", help="the SVG (one profile)")
    ap.add_argument("--outdir", "-d", help="NAME.svg here for each profile")
    a = ap.parse_args()
    if bool(a.output) == bool(a.outdir):
        ap.error("give --output FILE (one profile) or --outdir DIR")
    if a.output and len(a.profiles) != 1:
        ap.error("--output takes one profile")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        sys.exit("plot.py: no matplotlib (Debian: python3-matplotlib)")
    for p in a.profiles:
        out = a.output or os.path.join(
            a.outdir, os.path.splitext(os.path.basename(p))[0] + ".svg")
        tmp = out + ".tmp"
        render(p, tmp)
        os.replace(tmp, out)
        print("%s -> %s" % (p, out))


if __name__ == "__main__":
    main()
