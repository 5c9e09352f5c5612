#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""test_shares.py - the store bound bounds, on the profiles in
data/profiles/: data, not this machine's timing.

A profile's "bound_loop" names the loop its store bound was measured with
(doc/cpus/README.md, "Profiles"): "v3", the shapes in which no load waits on
a store, lanes stepped in lockstep among them; "v2", the same without
those; "v1", the loop before them, whose shares could pass 1.0.
- a profile with bound figures (store rates in "limits", or a share
  column in its bench lines) says which loop measured them;
- on every "v2" and "v3" profile, "limits" has the store rate of every cell width,
  and no share in its bench or bench_batch lines exceeds 1.0 (a share of
  a bound is at most 1: a kernel past it means the bound is wrong).
The share columns are read as the benchmarks print them; the reader is
itself held to a line it must find over 1.0.
Environment: RC4TUNE_TEST_DATA, tests/.
"""
import glob
import json
import os
import re
import sys

LOOPS = ("v1", "v2", "v3")
WIDTHS = ("stores_8", "stores_32", "stores_64")
DIR = os.path.join(os.environ.get("RC4TUNE_TEST_DATA", "tests"), "..",
                   "data", "profiles")
# A bench_batch row: its label, then keys/s, /ossl, share, MB/s, /ossl,
# share, then what marks batch rows and the library's picks.
BATCH_ROW = re.compile(r"^(.*?)((?:\s+\S+){6})(\s+\(\d+ streams\))?"
                       r"(\s+<-.*)?$")
passed, failed = 0, 0


def check(ok, what):
    global passed, failed
    print(("ok - " if ok else "FAIL: ") + what)
    passed, failed = passed + bool(ok), failed + (not ok)


def bench_shares(lines):
    """(row, share) from tests/bench/bench's table at 8192 B: the last column."""
    out, on = [], False
    for line in lines:
        if line.startswith("at 8192 B") and line.split()[-1] == "share":
            on = True
        elif on and line.strip():
            f = line.split()
            out.append((f[0], f[-1]))
    return out


def batch_shares(lines):
    """(row, share) from tests/bench/bench_batch's rows: keys/s and MB/s."""
    out, on = [], False
    for line in lines:
        if line.split()[:1] == ["keys/s"] and line.count("share") == 2:
            on = True
        elif on and line.startswith("store bound"):
            on = False
        elif on and "(key+" not in line:
            m = BATCH_ROW.match(line)
            if m:
                f = m.group(2).split()
                label = m.group(1).strip()
                out += [(label + " keys/s", f[2]), (label + " MB/s", f[5])]
    return out


def shares(profile):
    """Every (where, share) the profile's bench lines print, "-" dropped."""
    got = []
    for n, lines in enumerate(profile.get("bench") or []):
        got += [("bench %d %s" % (n, r), s) for r, s in bench_shares(lines)]
    for n, lines in enumerate(profile.get("bench_batch") or []):
        got += [("bench_batch %d %s" % (n, r), s)
                for r, s in batch_shares(lines)]
    return [(w, float(s)) for w, s in got if s != "-"]


def has_bound(profile):
    limits = profile.get("limits") or {}
    return any(k in limits for k in WIDTHS) or bool(shares(profile))


def over(profile):
    return [(w, s) for w, s in shares(profile) if s > 1.0]


def reader_self_test():
    """The readers find a share over 1.0 where the benchmarks print one."""
    planted = {
        "bench": [["at 8192 B                 TSC c/B /openssl    bound"
                   "    share",
                   "char-ring5-sse41             1.70    3.033    1.098"
                   "    1.250"]],
        "bench_batch": [["                          keys/s   /ossl  share"
                         "     MB/s   /ossl  share",
                         "   (key+16 B)  (1024 B blocks)",
                         "batch serial (char-1x)    2596039    1.47  0.298"
                         "   1486.6    2.94  1.628 (8 streams)  <- pick",
                         "store bound: 8-bit 0.422 ns/B"]],
    }
    found = [w for w, _ in over(planted)]
    check(found == ["bench 0 char-ring5-sse41",
                    "bench_batch 0 batch serial (char-1x) MB/s"],
          "the readers find the planted shares over 1.0 (%s)"
          % "; ".join(found))


def main():
    reader_self_test()
    profiles = {}
    for path in sorted(glob.glob(os.path.join(DIR, "*.json"))):
        with open(path) as f:
            profiles[os.path.basename(path)[:-5]] = json.load(f)
    check(len(profiles) > 0, "profiles in %s: %d" % (DIR, len(profiles)))
    for name, p in sorted(profiles.items()):
        loop = p.get("bound_loop")
        if not has_bound(p):
            check(loop is None, "%s: no bound figures, no bound_loop" % name)
            continue
        check(loop in LOOPS, "%s: bound_loop names the loop of its bound "
              "figures (%s)" % (name, loop))
        if loop == "v1":
            continue
        limits = p.get("limits") or {}
        missing = [k for k in WIDTHS if k not in limits]
        check(not missing, "%s: limits has the store rate of every width "
              "(missing: %s)" % (name, " ".join(missing) or "none"))
        got = shares(p)
        bad = over(p)
        check(got and not bad, "%s: no share of %d above 1.0 (max %.3f%s)"
              % (name, len(got), max((s for _, s in got), default=0),
                 "".join("; %s %.3f" % b for b in bad)))
    print("shares: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
