#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fleetgen.py N DIR - N hosts' files DIR/hostI.conf, each one CPU model's
section as --generate-conf writes it (rc4tune.conf(5)): the record with
three results and four history lines a key, the speed tables (about
6 KB), the keys; unsealed (tests/helpers/seal.py seals them).  FLEETGEN_WORST=1:
the worst case for a fleet file's size (rc4tune.conf(5), FLEETS): x86
section names at their longest (a 12-byte vendor, three-digit family and
model), each key's longest kernel name among those that a library
uses together (one layout family per key), every result uncertain with the
longest reason."""
import os
import sys

# What x86-64 hosts write; FLEETGEN_KERNELS (the names this build has, as
# --list gives them) keeps those a build lacks (a cross build's) out, so
# that --check-conf here has no unknown kernel to call an error.
BUILT = set(os.environ.get("FLEETGEN_KERNELS", "").split())


def here(names, portable):
    kept = [n for n in names if not BUILT or n in BUILT]
    return kept if len(kept) == len(names) else portable


SINGLE = here(["int-ring4-sse41", "char-ahead-ring4-avx512", "int-ring4-asm",
               "char-ring4-avx512", "int-8x-chunk-asm", "long-8x-chunk-asm"],
              ["int-8x", "int-ring4", "long-ring4", "char-1x", "int-4x",
               "long-8x"])
# The batch kernels a host's library uses with each single kernel's keys:
# lanes of its state layout (the name's first word), one layout family per
# key.
LANES = {"char": here(["char-8lane-asm", "char-4lane"], ["char-2lane", "char-4lane"]),
         "int": here(["int-8lane-asm", "int-4lane"], ["int-2lane", "int-4lane"]),
         "long": ["serial", "serial"]}


def lanes(single):
    return LANES[single.split("-")[0]]


WORST = os.environ.get("FLEETGEN_WORST") == "1"
if WORST:
    # every key's value at its longest: the single kernel whose name and
    # its lanes' names are the longest together
    SINGLE = [max(SINGLE, key=lambda k: len(k) + 2 * max(map(len, lanes(k))))] * 6
CONFIDENCE, WHY = ("uncertain", "phases") if WORST else ("high", "-")


def section(i):
    name = ("cpu GenuineIntel %d %d" % (100 + i // 156, 100 + i % 156) if WORST
            else "cpu GenuineIntel %d %d" % (6 + i // 256, i % 256))
    at = "2026-%02d-%02dT%02d:%02d:00Z" % (1 + i % 12, 1 + i % 28, i % 24, i % 60)
    one = SINGLE[i % 6]
    batch = sorted(lanes(one), key=len, reverse=True) if WORST else lanes(one)
    keys = [("kernel", one, SINGLE),
            ("set_keys_kernel", batch[i % 2 if not WORST else 0], batch),
            ("crypt_many_kernel", batch[(i + 1) % 2 if not WORST else 0], batch)]
    out = ["[%s]" % name, ";@ rc4tune v=1 at=%s by=0.1.0 sum=%s" % (at, "0" * 16)]
    for key, value, _ in keys:
        out.append(";@ result key=%s value=%s confidence=%s why=%s"
                   % (key, value, CONFIDENCE, WHY))
    for key, value, names in keys:
        leaders = [value] + [n for n in names if n != value][:3]
        scores = ",".join("%s:%.3f" % (n, 1 - 0.05 * j) for j, n in enumerate(leaders))
        for run in range(4):
            out.append(";@ history key=%s at=%s confidence=high scores=%s" % (key, at, scores))
    out.append('; written by rc4tune 0.1.0 --generate-conf; the lines starting ";@" are its record (rc4tune.conf(5))')
    for t in range(40):
        out.append("; %-22s" % ("kernel-%d" % t) + "".join(" %10.2fk" % (300000 + 1000 * t + j) for j in range(5))
                   + "     1300000    4.81   0.638")
    for key, value, _ in reversed(keys):
        out.append("%s = %s" % (key, value))
    return "\n".join(out) + "\n"


n, d = int(sys.argv[1]), sys.argv[2]
for i in range(n):
    with open("%s/host%d.conf" % (d, i), "w") as f:
        f.write(section(i))
