#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""profile.py - this CPU's profile for data/profiles/ (`make profile`).

Runs the tuner's --speed --json (both kinds) several times, a minute or
more apart (--gap), with `make bench`, `make bench-batch` and the flows a
program runs through the public calls with the CPU rules' kernels
(tests/bench/bench_flows --machine: "flows", each flow's worst and median
placement) after each but the last (and `make limits` once: the bound loops and the store
rates, stores_W and bound_W per cell width), and writes one JSON file
named after the CPU's section (doc/cpus/README.md, "Profiles", has the
format).  The rules test (tests/rules/test_rules.py) reads the runs' scores.
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import time

# The store bound's loop (tests/bench/storebound.c): the profile says which one
# measured its bound and shares (doc/cpus/README.md, "Profiles"), "v3" the
# shapes in which no load waits on a store, lanes stepped in lockstep
# among them.  A new loop is a new name.
BOUND_LOOP = "v3"
# How the tuner and the benchmarks timed (doc/cpus/README.md, "Profiles"):
# "core", through the timing core (tuner/speed.h), each figure the median
# as at the slowest placement.  A new statistic is a new name.
TIMING = "core"


def run(argv):
    return subprocess.run(argv, check=True, capture_output=True,
                          text=True).stdout


def cpuinfo():
    """The first CPU's fields that name it, from /proc/cpuinfo."""
    want = {"vendor_id": "vendor", "cpu family": "family", "model": "model",
            "model name": "model_name", "stepping": "stepping",
            "microcode": "microcode", "flags": "flags", "CPU implementer":
            "implementer", "CPU part": "part", "Features": "flags"}
    got = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if not line.strip():
                    break
                key, _, value = line.partition(":")
                name = want.get(key.strip())
                if name and name not in got:
                    got[name] = value.strip()
    except OSError:
        pass
    if "flags" in got:
        got["flags"] = got["flags"].split()
    return got


def text_lines(argv):
    return run(argv).splitlines() if argv[0] else None


def flows_of(prog):
    """The flows with no config (the CPU rules' kernels): each flow's
    worst and median placement, and the kernels that ran them."""
    env = dict(os.environ, RC4TUNE_CONF="/nonexistent/rc4tune.conf")
    env.pop("RC4TUNE_KERNEL", None)
    out = subprocess.run([prog, "--machine"], check=True, env=env,
                         capture_output=True, text=True).stdout
    got = {"load": os.getloadavg()[0]}
    for line in out.splitlines():
        if line.startswith("flow "):
            _, name, worst, median = line.split()
            got[name] = [float(worst), float(median)]
        elif line.startswith("flows through the public calls: kernel "):
            got["kernels"] = line.split(": kernel ", 1)[1].split(" (")[0]
    return got


def profile_path(outdir, section):
    """data/profiles/VENDOR-FAMILY-MODEL.json for section "cpu V F M"."""
    name = "-".join(section.split()[1:]).replace("/", "_") + ".json"
    return os.path.join(outdir, name)


def args():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rc4tune", required=True)
    ap.add_argument("--bench", default="")
    ap.add_argument("--bench-batch", default="")
    ap.add_argument("--limits", default="")
    ap.add_argument("--flows", default="")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--budget", default="8")
    ap.add_argument("--gap", type=float, default=60,
                    help="seconds between runs, so they meet other states")
    ap.add_argument("--commit", default="")
    ap.add_argument("--outdir", required=True)
    ap.add_argument("--force", action="store_true",
                    help="replace an existing profile of this CPU")
    return ap.parse_args()


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc) \
        .strftime("%Y-%m-%dT%H:%M:%SZ")


def timed(taken, step, run_no, measure):
    """MEASURE()'s result; TAKEN gets when it ran, how long, and the
    load after it, so a slowed minute can be matched to its figures."""
    at, start = utc_now(), time.monotonic()
    got = measure()
    taken.append({"step": step, "run": run_no, "at": at,
                  "seconds": round(time.monotonic() - start, 1),
                  "load": os.getloadavg()[0]})
    return got


def measure(a):
    """The runs, each but the last (or the only one) followed by the
    benchmarks named; what each list got, and when (\"taken\")."""
    got = {"runs": [], "bench": [], "bench_batch": [], "flows": [],
           "taken": []}
    steps = [("bench", a.bench, lambda: text_lines([a.bench])),
             ("bench_batch", a.bench_batch,
              lambda: text_lines([a.bench_batch])),
             ("flows", a.flows, lambda: flows_of(a.flows))]
    for i in range(a.runs):
        if i > 0:
            time.sleep(a.gap)
        sys.stderr.write("profile: run %d of %d\n" % (i + 1, a.runs))
        speed = json.loads(run([a.rc4tune, "--speed", "--json", "--budget",
                                a.budget]))
        speed["at"] = utc_now()
        speed["load"] = os.getloadavg()[0]
        got["runs"].append(speed)
        for step, prog, fn in steps:
            if prog and (i + 1 < a.runs or a.runs == 1):
                got[step].append(timed(got["taken"], step, i + 1, fn))
    return got


def limits_of(prog, taken):
    # Named, it must run: a profile without the store bound cannot
    # give the bench lines' shares a meaning.
    limits = timed(taken, "limits", None,
                   lambda: json.loads(run([prog, "--json"])))
    missing = [k for k in ("stores_8", "stores_32", "stores_64")
               if k not in limits]
    if missing:
        sys.exit("profile: %s --json lacks %s" % (prog, ", ".join(missing)))
    return limits


def main():
    a = args()
    # A committed profile is evidence the rules are held against: refuse
    # to replace it unless told to, and say so before measuring anything.
    section = run([a.rc4tune, "--section"]).strip()
    path = profile_path(a.outdir, section)
    if os.path.exists(path) and not a.force:
        sys.exit("profile: %s exists (a committed profile?); not replacing "
                 "it: make profile PROFILE_FORCE=1 (profile.py --force) "
                 "replaces it" % path)
    got = measure(a)
    limits = limits_of(a.limits, got["taken"]) if a.limits else None
    section = got["runs"][0]["cpu"]
    profile = {
        "format": "rc4tune-profile 1",
        "section": section,
        "cpu": cpuinfo(),
        "source": "make profile",
        "commit": a.commit,
        "partial": False,
        "runs": got["runs"],
        "bench": got["bench"],
        "bench_batch": got["bench_batch"],
        "flows": got["flows"],
        "limits": limits,
        "taken": got["taken"],
        "bound_loop": BOUND_LOOP,
        "timing": TIMING,
    }
    path = profile_path(a.outdir, section)
    if os.path.exists(path) and not a.force:
        sys.exit("profile: %s appeared while measuring; not replacing it "
                 "(--force replaces it)" % path)
    os.makedirs(a.outdir, exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump(profile, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)
    print(path)


if __name__ == "__main__":
    main()
