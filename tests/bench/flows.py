#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""flows.py - `make bench-batch`'s second half: the flows a program runs
through the public calls (tests/bench/bench_flows), beside the tuner's own
figures for the same kernels (`rc4tune --speed --json`), a difference over
10 % flagged: a tuner that times something programs do not run shows here.

The kernels are the library's here (`rc4tune --explain --json`: the
environment, RC4TUNE_CONF, else the CPU rules).  Compared: "keys" with the
set_keys kernel's keys/s (both: fresh keys set up together, 16 bytes of
each), "many" with the crypt_many kernel's 8x1024 (both: 8 streams of
1 KiB on keys set up once).  The other flows have no tuner figure.
"""
import argparse
import json
import subprocess
import sys

FLAG = 0.10


def run(argv):
    return subprocess.run(argv, check=True, capture_output=True,
                          text=True).stdout


def tuner_figures(rc4tune, names, budget):
    """The tuner's keys/s of the set_keys kernel and 8x1024 bytes/s of the
    crypt_many kernel, timed in one --speed run of the three."""
    single, set_keys, crypt_many = names
    out = json.loads(run([rc4tune, "--speed", "--json", "--budget",
                          str(budget)] + sorted(set(names))))

    def of(kind, name, field):
        for k in out.get(kind, {}).get("kernels", []):
            if k["name"] == name and k["status"] == "ok":
                v = k[field]
                return v[0] if isinstance(v, list) else v
        return None

    many = of("crypt_many", crypt_many, "bytes_per_second")
    return {"keys": of("set_keys", set_keys, "keys_per_second"),
            "many": many / 1e6 if many else None}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rc4tune", required=True)
    ap.add_argument("--flows", required=True)
    ap.add_argument("--budget", type=float, default=2.0)
    a = ap.parse_args()
    ex = json.loads(run([a.rc4tune, "--explain", "--json"]))
    names = [ex[k]["name"] for k in ("kernel", "set_keys_kernel",
                                     "crypt_many_kernel")]
    text = run([a.flows, "--machine"])
    print("\n" + "".join(l + "\n" for l in text.splitlines()
                         if not l.startswith("flow ")), end="")
    flows = {}
    for line in text.splitlines():
        if line.startswith("flow "):
            _, name, worst, median = line.split()
            flows[name] = (float(worst), float(median))
    tuner = tuner_figures(a.rc4tune, names, a.budget)
    print("kernels: %s, set_keys %s, crypt_many %s" % tuple(names))
    print("%-10s %12s %12s %12s %8s" % ("flow", "program", "(worst)",
                                         "tuner", "ratio"))
    flagged = 0
    for name, (worst, median) in flows.items():
        t = tuner.get(name)
        if t:
            r = median / t
            flag = abs(1 - r) > FLAG
            flagged += flag
            print("%-10s %12.1f %12.1f %12.1f %8.2f%s" % (
                name, median, worst, t, r,
                "  <- differs by over 10 %" if flag else ""))
        else:
            print("%-10s %12.1f %12.1f %12s %8s" % (name, median, worst,
                                                    "-", "-"))
    print("%d flow(s) differ from the tuner's figure by over 10 %%"
          % flagged)
    return 0


if __name__ == "__main__":
    sys.exit(main())
