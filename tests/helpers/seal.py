#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""seal.py FILE - put the right checksum into every record of FILE, as
rc4tune.conf(5) defines it, so that tests can write the tuner's sections by
hand.  An implementation of the documented format apart from the tuner's."""
import re
import sys


def fnv1a64(data, h=0xCBF29CE484222325):
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def seal(section):
    """SECTION: its lines (bytes, no newline), the header first."""
    h = 0xCBF29CE484222325
    for line in section[1:]:
        t = line.strip()
        if t.startswith(b";@ "):
            if re.match(rb";@ rc4tune( |$)", t):
                continue
            t = t[3:]
        elif not t or t[:1] in (b";", b"#"):
            continue
        h = fnv1a64(t + b"\n", h)
    for i, line in enumerate(section):
        if re.match(rb"\s*;@ rc4tune( |$)", line):
            section[i] = re.sub(rb" sum=[0-9a-f]{16}", b" sum=%016x" % h, line)


def main(path):
    lines = open(path, "rb").read().split(b"\n")
    starts = [i for i, l in enumerate(lines) if l.strip().startswith(b"[")]
    for a, b in zip(starts, starts[1:] + [len(lines)]):
        sec = lines[a:b]
        seal(sec)
        lines[a:b] = sec
    open(path, "wb").write(b"\n".join(lines))


main(sys.argv[1])
