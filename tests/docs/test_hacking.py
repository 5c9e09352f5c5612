#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""test_hacking.py - the maintainers' guide (README, Source layout;
doc/hacking.md, "Product files") names every product file, and only
files that exist: each file in the SOURCES of the libraries, programs
and modules Makefile.am builds (not the tests'), read from it now, has a
line "- `path`: its job", and every path the guide names in backquotes
is in the tree.  So a file added, moved or removed is a failure that
names it, not a guide gone stale.

Environment: RC4TUNE_TEST_DATA, the source tree's tests/ (make check sets
it); or the source tree as the first argument.
"""
import os
import re
import sys

TOP = (sys.argv[1] if len(sys.argv) > 1 else
       os.path.join(os.environ.get("RC4TUNE_TEST_DATA", "tests"), ".."))
GUIDE = "doc/hacking.md"
# The primaries that make the product: the libraries (installed or linked
# into one), the programs and the provider module; not check_ or EXTRA_.
PRIMARIES = r"(?:lib|noinst|modules)_LTLIBRARIES|bin_PROGRAMS"


def sources(top):
    """Every file in the SOURCES of every product, in any conditional."""
    with open(os.path.join(top, "Makefile.am")) as f:
        text = f.read().replace("\\\n", " ")
    products, files = set(), []
    for line in text.splitlines():
        m = re.match(r"(?:%s)\s*\+?=(.*)" % PRIMARIES, line)
        if m:
            products |= {re.sub(r"[^\w]", "_", w) for w in m.group(1).split()}
    for line in text.splitlines():
        m = re.match(r"(\w+)_SOURCES\s*\+?=(.*)", line)
        if m and m.group(1) in products:
            files += [w for w in m.group(2).split() if "$" not in w]
    return files


def guide(top):
    """The files the guide's "Product files" gives a job (a list item of
    backquoted paths, then a colon and text), and every path it names
    anywhere, with line numbers."""
    listed, named, section = {}, [], ""
    with open(os.path.join(top, GUIDE)) as f:
        for n, line in enumerate(f, 1):
            if line.startswith("## "):
                section = line[3:].strip()
            m = re.match(r"- ((?:`[^`]+`(?:, )?)+): \S", line)
            if m and section == "Product files":
                for p in re.findall(r"`([^`]+)`", m.group(1)):
                    listed[p] = n
            for p in re.findall(r"`([^`\s]+)`", line):
                # a path: a top folder of the tree, then more
                if "VENDOR" not in p and re.match(r"(kernels|src|tuner|provider|tests|data|doc|"
                            r"man|etc|debian)/", p):
                    named.append((n, p))
    return listed, named


def main():
    failed = 0
    srcs = sources(TOP)
    listed, named = guide(TOP)
    if not srcs:
        print("FAIL: no product's SOURCES read from Makefile.am")
        return 1
    for p in srcs:
        if p not in listed:
            print("FAIL: %s is in Makefile.am's SOURCES but has no line in %s"
                  % (p, GUIDE))
            failed += 1
    for p, n in sorted(listed.items()):
        if p not in srcs and not p.endswith("/"):
            print("FAIL: %s:%d gives %s a job, but it is in no product's "
                  "SOURCES" % (GUIDE, n, p))
            failed += 1
    for n, p in named:
        if not os.path.exists(os.path.join(TOP, p.rstrip("/"))):
            print("FAIL: %s:%d names %s, which is not in the tree"
                  % (GUIDE, n, p))
            failed += 1
    print("%d product files, %d lines with a job, %d paths named: %s"
          % (len(srcs), len(listed), len(named),
             "%d failures" % failed if failed else "ok"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
