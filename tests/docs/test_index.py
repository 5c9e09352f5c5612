#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""test_index.py - the index of the tests by promise (tests/README.md;
README, Source layout) names every test file, and only files that exist:
each test of Makefile.am's TESTS, read now, is in a row of "Promises" and
opens (its first 30 lines) with the page of one of its rows; every other
source file in tests/ and its folders is in a row of either table; every
file a row names (by its path under tests/) is there.  So a test added, renamed or removed is a failure
that names it, not an index gone stale.

Environment: RC4TUNE_TEST_DATA, the source tree's tests/ (make check sets
it); or the source tree as the first argument.
"""
import os
import re
import sys

TOP = (sys.argv[1] if len(sys.argv) > 1 else
       os.path.join(os.environ.get("RC4TUNE_TEST_DATA", "tests"), ".."))
INDEX = "tests/README.md"
SOURCE = (".c", ".h", ".S", ".sh", ".py", ".txt")
PAGES = r"(librc4tune\(3\)|rc4tune\.conf\(5\)|rc4tune\(1\)|" \
        r"rc4tune-provider\(7\)|README)"


def tests(top):
    """Makefile.am's TESTS, in any conditional, as source files by their
    path under tests/."""
    with open(os.path.join(top, "Makefile.am")) as f:
        text = f.read().replace("\\\n", " ")
    files = []
    for line in text.splitlines():
        m = re.match(r"TESTS\s*\+?=(.*)", line)
        if m:
            for w in m.group(1).split():
                # a Check suite is its program's name: its source is NAME.c
                files.append(w + ".c" if "." not in os.path.basename(w) else w)
    return [os.path.relpath(f, "tests") for f in files]


def sources(top):
    """Every source file in tests/ and its folders, by its path there."""
    found = []
    for d, _, names in os.walk(os.path.join(top, "tests")):
        found += [os.path.relpath(os.path.join(d, f), os.path.join(top, "tests"))
                  for f in names if f.endswith(SOURCE)]
    return found


def index(top):
    """Per table, each named file's rows: (line, the row's pages)."""
    rows = {"Promises": {}, "other": {}}
    section = ""
    with open(os.path.join(top, INDEX)) as f:
        for n, line in enumerate(f, 1):
            if line.startswith("## "):
                section = line[3:].strip()
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not line.startswith("|") or set(cells[0]) <= set("-"):
                continue
            table = rows["Promises" if section == "Promises" else "other"]
            pages = set(re.findall(PAGES, cells[1])) if len(cells) > 2 else set()
            for name in re.findall(r"`([^`\s]+)`", cells[-1] if table is
                                   rows["Promises"] else cells[0]):
                table.setdefault(name, []).append((n, pages))
    return rows


def main():
    failed = 0

    def fail(msg):
        nonlocal failed
        print("FAIL: " + msg)
        failed += 1

    listed = tests(TOP)
    rows = index(TOP)
    promises, other = rows["Promises"], rows["other"]
    if not listed or not promises:
        fail("no TESTS read from Makefile.am, or no rows in " + INDEX)
        return 1
    for t in listed:
        if t not in promises:
            fail("%s is in Makefile.am's TESTS but in no row of %s's "
                 "Promises" % (t, INDEX))
            continue
        path = os.path.join(TOP, "tests", t)
        if not os.path.exists(path):
            continue  # said below
        with open(path, errors="replace") as f:
            head = "".join(f.readline() for _ in range(30))
        pages = set().union(*(p for _, p in promises[t]))
        said = set(re.findall(PAGES, head))
        if not pages & said:
            fail("tests/%s does not open with the page of its promise "
                 "(%s: %s)" % (t, INDEX, ", ".join(sorted(pages))))
    here = sources(TOP)
    for f in sorted(here):
        if f not in promises and f not in other:
            fail("tests/%s is in no row of %s" % (f, INDEX))
    for name, where in sorted(list(promises.items()) + list(other.items())):
        if not os.path.exists(os.path.join(TOP, "tests", name)):
            fail("%s:%d names %s, which is not in tests/"
                 % (INDEX, where[0][0], name))
    print("%d tests in TESTS, %d source files in tests/, %d files in %s: %s"
          % (len(listed), len(here), len(promises) + len(other), INDEX,
             "%d failures" % failed if failed else "ok"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
