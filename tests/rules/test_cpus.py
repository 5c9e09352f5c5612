#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""test_cpus.py - the evidence behind the CPU rules can be found (README,
CPU rules and profiles): every profile data/profiles/NAME.json has its
page doc/cpus/NAME.md, and every citation of a page in the code, the
pages, the profiles and the tests (doc/cpus/NAME.md, then a section in
quotes) names a page that exists and a section it has.  So a page or a
section renamed or removed is a failure that names the citation.

Environment: RC4TUNE_TEST_DATA, the source tree's tests/ (make check sets
it); or the source tree as the first argument.
"""
import glob
import os
import re
import sys

TOP = (sys.argv[1] if len(sys.argv) > 1 else
       os.path.join(os.environ.get("RC4TUNE_TEST_DATA", "tests"), ".."))
WHERE = ("src", "kernels", "tuner", "provider", "tests", "man", "data",
         "doc")
SUFFIX = (".c", ".h", ".S", ".def", ".py", ".sh", ".in", ".json", ".md")
# doc/cpus/NAME.md, then maybe a separator and a section in quotes
CITE = re.compile(r"doc/cpus/([\w.-]+\.md)(?:[,:;] (?:\\?\"([^\"\\]+)\\?\"|"
                  r"'([^']+)'))?")


def headings(page):
    with open(page) as f:
        return [l.lstrip("#").strip().lower() for l in f if l.startswith("#")]


def main():
    failed = 0
    pages = os.path.join(TOP, "doc", "cpus")
    for prof in sorted(glob.glob(os.path.join(TOP, "data", "profiles",
                                              "*.json"))):
        name = os.path.basename(prof)[:-5]
        if not os.path.exists(os.path.join(pages, name + ".md")):
            print("FAIL: data/profiles/%s.json has no page doc/cpus/%s.md"
                  % (name, name))
            failed += 1
    n = 0
    for top in WHERE:
        for dirpath, _, files in os.walk(os.path.join(TOP, top)):
            for f in files:
                if not f.endswith(SUFFIX):
                    continue
                path = os.path.join(dirpath, f)
                with open(path, errors="replace") as fh:
                    text = fh.read()
                # a citation may run over comment lines: join them
                flat = re.sub(r"\n\s*(?:\*|#|//)?\s*", " ", text)
                for m in CITE.finditer(flat):
                    if m.group(1) == "NAME.md" or "VENDOR" in m.group(1):
                        continue  # a placeholder: NAME.md, VENDOR-...
                    n += 1
                    page = os.path.join(pages, m.group(1))
                    rel = os.path.relpath(path, TOP)
                    if not os.path.exists(page):
                        print("FAIL: %s cites doc/cpus/%s, which is not in "
                              "the tree" % (rel, m.group(1)))
                        failed += 1
                        continue
                    section = m.group(2) or m.group(3)
                    if section and not any(section.lower() in h
                                           for h in headings(page)):
                        print("FAIL: %s cites doc/cpus/%s, \"%s\": no such "
                              "section there" % (rel, m.group(1), section))
                        failed += 1
    print("%d citations of doc/cpus/: %s"
          % (n, "%d failures" % failed if failed else "ok"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
