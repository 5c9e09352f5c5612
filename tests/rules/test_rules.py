#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""test_rules.py - the CPU rules (src/heuristic.c) held against the profiles
in data/profiles/ (README, CPU rules and profiles): data, not this
machine's timing.

A kernel's standing on a profile is its mixed score over the best's in
each run (the geometric mean over block sizes; the tuner's "score"),
averaged over the runs that measured it; a batch call's standing is its
own cell's (keys/s for rc4tune_set_keys, 8x1024 for rc4tune_crypt_many).
For each kind and call:
- on each profile, the rule its CPU matches gives, from the kernels the
  profile measured, at least 0.95 of the best (0.90 for the rule of CPUs
  no rule names), and passes over only kernels the CPU cannot run;
- a rule measured on models claims only its profiles' models;
- a family's rule for its other models, and the rule for CPUs no rule
  names, have the best worst case over their profiles (within the tie
  window) and name exactly those profiles; the latter at least 0.90 on
  each where some walk reaches it (ANY_FLOOR);
- every profile a rule names exists;
- on each profile that carries the flows a program runs with the rules'
  kernels (tests/bench/bench_flows, through the public calls), the batch flows
  are not below one key at a time: set_keys + crypt_many at least 0.97 of
  keys set up and run one by one, set_keys + crypt per key at least 0.95
  (the median placement's, the median over runs);
- one layout family per key: a batch call's rule, walked for the keys of
  the kernel the single rule gives that CPU, gives serial or a kernel of
  that kernel's layout, and is held against the kernels of that family
  (librc4tune(3), "Many keys at once").
Environment: RULES, the tests/rules/rules program; RC4TUNE_TEST_DATA, tests/;
TEST_EMULATOR, if set, runs RULES (a cross build's, under qemu-user).
"""
import glob
import json
import os
import subprocess
import sys

MODELS, FAMILY, ANY = 0.95, 0.95, 0.90
# Whether the rule for CPUs no rule names must reach ANY on every profile:
# where no walk does, it is held to the best worst case alone.  For
# rc4tune_crypt_many serial leads where byte stores are slow, the lanes
# elsewhere; for the single call, AVX-512 tells Zen 4 from Zen 5, Rocket
# Lake and Emerald Rapids apart for no kernel, and none of its AVX-512
# kernels reaches 0.90 on Zen 4's timing-core profile (the rings' bad
# placements: doc/cpus/AuthenticAMD-25-17.md).
ANY_FLOOR = {"single": False, "set_keys": True, "crypt_many": False}
TIE = 0.02  # the tuner's tie window: kernels closer than this are equal

RULES = os.environ.get("RULES", "")
EMULATOR = os.environ.get("TEST_EMULATOR", "").split()
DIR = os.path.join(os.environ.get("RC4TUNE_TEST_DATA", "tests"), "..",
                   "data", "profiles")
passed, failed = 0, 0


def check(ok, what):
    global passed, failed
    print(("ok - " if ok else "FAIL: ") + what)
    passed, failed = passed + bool(ok), failed + (not ok)


def rules(*args):
    return subprocess.run(EMULATOR + [RULES] + [str(a) for a in args],
                          check=True,
                          capture_output=True, text=True).stdout


def table(kind):
    rows = []
    for line in rules("table", kind).splitlines():
        i, vendor, fmin, fmax, mmin, mmax, basis, names = line.split("\t")
        rows.append({"i": int(i), "vendor": vendor, "fam": (int(fmin),
                     int(fmax)), "mod": (int(mmin), int(mmax)),
                     "basis": basis, "profiles": set(names.split())})
    return rows


def batch_call(run, kind):
    """A batch call's kernels in RUN, each with its "score": the call's
    own member, or in profiles of earlier versions (one "batch" member
    for both calls) the call's cell of it."""
    if kind in run:
        return run[kind]["kernels"]
    cell = {"set_keys": lambda k: k.get("keys_per_second"),
            "crypt_many": lambda k: (k.get("bytes_per_second") or [None])[0]}
    ks = run.get("batch", {}).get("kernels", [])
    if any(k["status"] == "ok" and cell[kind](k) is None for k in ks):
        return []  # a converted table with the mixed ratio alone
    return [dict(k, score=cell[kind](k)) if k["status"] == "ok" else k
            for k in ks]


def standing(profile, kind):
    """{kernel: mean share of the best}, and the kernels it cannot run."""
    shares, unusable = {}, set()
    for run in profile["runs"]:
        ks = run["kernels"] if kind == "single" else batch_call(run, kind)
        # other-layout: timed, not chosen for that run's kernel's keys
        ok = [k for k in ks if k["status"] in ("ok", "other-layout")]
        unusable |= {k["name"] for k in ks if k["status"] == "unusable"}
        if not ok:
            continue
        if all("score" in k for k in ok):
            best = max(k["score"] for k in ok)
            for k in ok:
                shares.setdefault(k["name"], []).append(k["score"] / best)
        else:
            for k in ok:
                shares.setdefault(k["name"], []).append(k["ratio"])
    return {n: sum(v) / len(v) for n, v in shares.items()}, unusable


def walk(kind, row, share, one="-"):
    return rules("walk", kind, row, one, *sorted(share)).strip()


def width(name):
    """The layout a kernel's name says (as tests/rules/rules.c reads it)."""
    for prefix, w in (("char-", 1), ("int-", 4), ("long-", 8)):
        if name.startswith(prefix):
            return w
    return 0


def fits(batch, one):
    return batch == "serial" or (width(batch) != 0 and
                                 width(batch) == width(one))


def single_of(p):
    """The kernel the single-stream rule gives profile P's CPU."""
    share = standing(p, "single")[0]
    i = int(rules("match", "single", *cpu_of(p)))
    return walk("single", i, share) if share and i >= 0 else "-"


def family_share(p, kind):
    """Batch standings among the kernels that can run the keys of the
    single rule's kernel, relative to the best of those."""
    share, unusable = standing(p, kind)
    one = single_of(p)
    if kind == "single" or one == "-":
        return share, unusable, "-"
    share = {k: v for k, v in share.items() if fits(k, one)}
    top = max(share.values(), default=0.0)
    return ({k: v / top for k, v in share.items()} if top else {},
            unusable, one)


def cpu_of(p):
    c = p["cpu"]
    return c["vendor"], int(c["family"]), int(c["model"])


def on_profiles(kind, rows, profiles):
    """Each profile's rule gives enough of that profile's best."""
    for name, p in sorted(profiles.items()):
        share, unusable, one = family_share(p, kind)
        if not share:
            print("# %s: no %s figures" % (name, kind))
            continue
        i = int(rules("match", kind, *cpu_of(p)))
        if i < 0:
            check(False, "%s %s: no rule matches" % (kind, name))
            continue
        row = rows[i]
        # walked over every kernel measured: the walk must pass over the
        # other families itself
        k = walk(kind, i, standing(p, kind)[0], one)
        if one != "-":
            check(fits(k, one), "%s %s: rule %d gives %s for keys of %s: "
                  "one layout family per key" % (kind, name, i, k, one))
        floor = ANY if row["basis"] == "any" else MODELS
        got = share.get(k, 0.0)
        check(got >= floor, "%s %s: rule %d (%s) gives %s at %.3f of the "
              "best (at least %.2f)" % (kind, name, i, row["basis"], k, got,
                                        floor))
        names = rules_kernels(kind, i)
        before = names[:names.index(k)] if k in names else names
        unmeasured = [n for n in before if n not in unusable and
                      (one == "-" or fits(n, one))]
        check(not unmeasured, "%s %s: rule %d passes over only kernels the "
              "CPU cannot run (%s)" % (kind, name, i,
                                       " ".join(unmeasured) or "none"))


def rules_kernels(kind, i):
    return rules("kernels", kind, i).split()


def measured_rows(kind, rows, profiles):
    """A row measured on models claims only its profiles' models."""
    for row in rows:
        for n in sorted(row["profiles"]):
            check(n in profiles, "%s rule %d names profile %s, which exists"
                  % (kind, row["i"], n))
        if row["basis"] != "models":
            continue
        ok = len(row["profiles"]) == 1
        for n in row["profiles"] & set(profiles):
            v, f, m = cpu_of(profiles[n])
            ok = ok and row["vendor"] == v and row["fam"] == (f, f) and \
                row["mod"] == (m, m) and not profiles[n]["partial"]
        check(ok, "%s rule %d claims only the model it was measured on "
              "(%s)" % (kind, row["i"], " ".join(sorted(row["profiles"]))))


def best_worst(kind, rows, profiles):
    """Family and any-CPU rows: the best worst case over their profiles."""
    for row in rows:
        if row["basis"] not in ("family", "any"):
            continue
        scope = {n: p for n, p in profiles.items() if not p["partial"] and
                 (row["vendor"] == "*" or (cpu_of(p)[0] == row["vendor"] and
                  row["fam"][0] <= cpu_of(p)[1] <= row["fam"][1]))}
        scope = {n: p for n, p in scope.items() if standing(p, kind)[0]}
        check(set(scope) == row["profiles"], "%s rule %d names the profiles "
              "of its scope (%s)" % (kind, row["i"], " ".join(sorted(scope))))
        if not scope:
            continue
        fam = {n: family_share(p, kind) for n, p in scope.items()}
        shares = {n: f[0] for n, f in fam.items()}
        worst = min(f[0].get(walk(kind, row["i"], standing(p, kind)[0],
                                  f[2]), 0.0)
                    for p, f in ((scope[n], fam[n]) for n in fam))
        common = set.intersection(*(set(s) for s in shares.values()))
        single = max(((min(s[k] for s in shares.values()), k)
                      for k in common), default=(0.0, "-"))
        check(worst >= single[0] - TIE, "%s rule %d: worst case %.3f over "
              "its profiles, any one kernel's at best %.3f (%s)"
              % (kind, row["i"], worst, single[0], single[1]))
        if row["basis"] == "any" and ANY_FLOOR[kind]:
            check(worst >= ANY, "%s rule %d: at least %.2f on every profile"
                  % (kind, row["i"], ANY))


FLOW_FLOORS = (("streams", 0.97), ("continue", 0.95))


def flows_hold(profiles):
    """The batch flows against the single-stream one, where measured."""
    for name, p in sorted(profiles.items()):
        runs = [f for f in p.get("flows", []) if "one" in f]
        if not runs:
            print("# %s: no flows" % name)
            continue
        for flow, floor in FLOW_FLOORS:
            r = sorted(f[flow][1] / f["one"][1] for f in runs if flow in f)
            if not r:
                continue
            med = r[len(r) // 2]
            check(med >= floor, "flows %s: %s / one %.3f with %s (at least "
                  "%.2f)" % (name, flow, med, runs[0].get("kernels", "?"),
                             floor))


def main():
    if not RULES or not os.access(RULES, os.X_OK):
        print("SKIP: set RULES to the tests/rules/rules program")
        return 77
    profiles = {}
    for path in sorted(glob.glob(os.path.join(DIR, "*.json"))):
        with open(path) as f:
            profiles[os.path.basename(path)[:-5]] = json.load(f)
    check(len(profiles) > 0, "profiles in %s: %d" % (DIR, len(profiles)))
    for kind in ("single", "set_keys", "crypt_many"):
        rows = table(kind)
        on_profiles(kind, rows, profiles)
        measured_rows(kind, rows, profiles)
        best_worst(kind, rows, profiles)
    flows_hold(profiles)
    print("rules: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
