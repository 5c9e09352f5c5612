#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""test_docs.py - the documentation's examples, run, so that they cannot
drift from the program (issue 38, "Documentation that is tested").

- C: README.md's ```c blocks and librc4tune(3)'s EXAMPLES (.EX/.EE or
  .nf/.fi, roff escapes undone) are compiled with $CC -Wall -Wextra
  -Werror against the in-tree header (src/rc4tune.h) and the built
  library (.libs/librc4tune.so, else .libs/librc4tune.a); a complete
  program (one with main) is run, and where the page says what it
  "prints" (.B TEXT after the block), its output must start so.  A
  fragment is compiled as the body of a function whose parameters the
  line before the block gives: <!-- doctest-context: DECLS --> in
  README.md, .\\" doctest-context: DECLS in a page.
- Config files: every example file of rc4tune.conf(5) (and any ```ini
  block of README.md) passes rc4tune --check-conf, and each section is
  what the page claims: the roff comment .\\" doctest-claim: [SECTION]
  WORDS | ... before the block names the words --check-conf must give
  that section (the tuner's, a person's, pinned); a file without a claim
  fails.
- Commands: the rc4tune command lines of README.md (```sh blocks, `$ `
  lines of other blocks, `rc4tune --...` code spans) and of rc4tune(1)'s
  EXAMPLES run in a scratch directory with the built rc4tune first on
  PATH (and as ./rc4tune) and must exit 0; --speed and --generate-conf
  get --budget 0.2 where they give none.  hostN.conf for --merge are
  rc4tune.conf(5)'s examples.  What cannot run here is skipped and listed
  with the reason: templates (FILE, NAME, ...), root, writing the system
  config or /etc, installing packages, the build itself, other programs.

Environment (make check sets it): RC4TUNE_TEST_DATA (tests/ of the source
tree), top_builddir, RC4TUNE, CC.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

# this file is in tests/docs/; the source tree is two folders up
SRCDIR = os.path.join(os.environ.get("RC4TUNE_TEST_DATA", os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..")), "..")
BUILDDIR = os.environ.get("top_builddir", ".")
RC4TUNE = os.path.abspath(os.environ.get("RC4TUNE",
                                         os.path.join(BUILDDIR, "rc4tune")))
CC = shlex.split(os.environ.get("CC", "cc"))
WARN = ["-Wall", "-Wextra", "-Werror"]
BUDGET = "0.2"

for v in ("RC4TUNE_KERNEL", "RC4TUNE_BATCH_KERNEL", "RC4TUNE_CONF",
          "RC4TUNE_DEBUG"):
    os.environ.pop(v, None)

failures = []
skipped = []
counts = {"compiled": 0, "run (C)": 0, "config files checked": 0,
          "commands run": 0}


def fail(what, detail=""):
    failures.append(what)
    print("FAIL: %s" % what)
    if detail:
        print("  " + detail.rstrip().replace("\n", "\n  "))


def ok(what):
    print("ok: %s" % what)


def skip(where, what, why):
    skipped.append((where, what, why))


def read(rel):
    with open(os.path.join(SRCDIR, rel), encoding="utf-8") as f:
        return f.read()


# --- the sources ---------------------------------------------------------

def unroff(line):
    """A line of an .EX block as the reader sees it."""
    out, i = [], 0
    while i < len(line):
        c = line[i]
        if c != "\\" or i + 1 == len(line):
            out.append(c)
            i += 1
            continue
        n = line[i + 1]
        if n in "-e\\":
            out.append("-" if n == "-" else "\\")
            i += 2
        elif n == "&" or n == ":":
            i += 2
        elif n == "(":
            name = line[i + 2:i + 4]
            out.append({"aq": "'", "dq": '"', "em": "--", "en": "-",
                        "ti": "~", "ha": "^", "rs": "\\"}.get(name, ""))
            i += 4
        elif n == "f":  # font changes: \fB, \fI, \fR, \fP, \f(CW
            i += 5 if line[i + 2:i + 3] == "(" else 3
        else:
            out.append(n)
            i += 2
    return "".join(out)


def sysconf(text):
    return text.replace("@sysconfdir@", "/etc").replace("@bindir@", "/usr/bin")


def man_blocks(rel, section=None):
    """(line number, the block's text, the roff comments just before it,
    the page's text after it) for each .EX/.EE and .nf/.fi block of REL,
    only in SECTION (an .SH name) when given."""
    lines = read(rel).split("\n")
    blocks, cur, start, sh, notes = [], None, 0, None, []
    for i, line in enumerate(lines):
        if line.startswith(".SH"):
            sh = line[3:].strip().strip('"')
        if cur is None:
            if line.startswith('.\\" doctest-'):
                notes.append(line[3:].strip())
            elif line in (".EX", ".nf"):
                cur, start, end = [], i + 1, ".EE" if line == ".EX" else ".fi"
            elif not line.startswith((".PP", ".RS", ".TP")) and line.strip():
                notes = []
            continue
        if line == end:
            if section is None or sh == section:
                after = "\n".join(lines[i + 1:i + 8])
                blocks.append((start, "\n".join(sysconf(unroff(x)) for x in cur),
                               notes, after))
            cur, notes = None, []
        else:
            cur.append(line)
    return blocks


def md_blocks(rel):
    """(line number, info string, text, the doctest comments just before)
    for each fenced block of REL."""
    lines = read(rel).split("\n")
    blocks, cur, notes = [], None, []
    for i, line in enumerate(lines):
        if cur is None:
            m = re.match(r"<!-- (doctest-[a-z]+: .*) -->$", line)
            if m:
                notes.append(m.group(1))
            elif line.startswith("```"):
                cur, info, start = [], line[3:].strip(), i + 2
            elif line.strip():
                notes = []
            continue
        if line.startswith("```"):
            blocks.append((start, info, "\n".join(cur), notes))
            cur, notes = None, []
        else:
            cur.append(line)
    return blocks


def md_spans(rel):
    """The code spans of REL outside its fenced blocks, with line numbers."""
    text = read(rel)
    text = re.sub(r"```.*?```", lambda m: "\n" * m.group(0).count("\n"),
                  text, flags=re.S)
    for m in re.finditer(r"`([^`]+)`", text):
        yield text.count("\n", 0, m.start()) + 1, " ".join(m.group(1).split())


def note(notes, kind):
    for n in notes:
        if n.startswith("doctest-%s:" % kind):
            return n.split(":", 1)[1].strip()
    return None


# --- C -----------------------------------------------------------------

def library():
    libs = os.path.join(BUILDDIR, ".libs")
    so = os.path.join(libs, "librc4tune.so")
    if os.path.exists(so):
        return [so, "-Wl,-rpath," + os.path.abspath(libs)]
    return [os.path.join(libs, "librc4tune.a"), "-lpthread"]


def c_example(where, code, context, prints):
    if re.search(r"\bint\s+main\s*\(", code):
        source, program = code, True
    else:
        if context is None:
            fail("%s: a C fragment without a doctest-context line" % where)
            return
        head = [l for l in code.split("\n") if l.startswith("#")]
        body = [l for l in code.split("\n") if not l.startswith("#")]
        params = [p.strip() for p in context.split(",") if p.strip()]
        names = [re.search(r"(\w+)\s*(\[\s*\])?$", p).group(1) for p in params]
        source = "\n".join(
            ["#include <stddef.h>", "#include <rc4tune.h>"] + head +
            ["int doc_example(%s);" % ", ".join(params),
             "int doc_example(%s)" % ", ".join(params), "{"] +
            ["\t(void)%s;" % n for n in names] + body +
            ["\treturn 0;", "}"]) + "\n"
        program = False
    d = tempfile.mkdtemp(dir=scratch)
    src = os.path.join(d, "example.c")
    with open(src, "w") as f:
        f.write(source)
    out = os.path.join(d, "example")
    cmd = CC + WARN + ["-I" + os.path.join(SRCDIR, "src")]
    cmd += [src, "-o", out] + library() if program else ["-c", src, "-o", out + ".o"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        fail("%s: does not compile with %s" % (where, " ".join(WARN)),
             r.stderr + "--- as compiled:\n" + source)
        return
    counts["compiled"] += 1
    if not program:
        ok("%s: compiled (a fragment, not run)" % where)
        return
    env = dict(os.environ, RC4TUNE_CONF=os.path.join(d, "none.conf"))
    emulator = os.environ.get("TEST_EMULATOR", "").split()
    r = subprocess.run(emulator + [out], capture_output=True, text=True,
                       env=env, timeout=60)
    if r.returncode != 0:
        fail("%s: exits %d" % (where, r.returncode), r.stdout + r.stderr)
        return
    if prints and not r.stdout.startswith(prints):
        fail("%s: prints %r, the page says %s" % (where, r.stdout, prints))
        return
    counts["run (C)"] += 1
    ok("%s: compiled and run%s" % (where, ", prints " + prints if prints else ""))


# --- config files ------------------------------------------------------

def built_kernels():
    r = subprocess.run([RC4TUNE, "--list"], capture_output=True, text=True)
    return {l.split()[0] for l in r.stdout.splitlines() if l.strip()}


def unbuilt_only(out):
    """The kernels --check-conf called unknown, when those are its only
    errors and this build lacks them (a cross build has no x86-64
    assembly): the examples name x86-64 kernels; else None."""
    errors = re.findall(r": error: (.*)$", out, re.M)
    names = [m.group(1) for m in (re.search(r'^unknown .*kernel "([^"]+)"', e)
                                  for e in errors) if m]
    built = built_kernels()
    if any(n.endswith("-asm") for n in built):
        return None  # an x86-64 build: an unknown kernel is a mistake
    if errors and len(names) == len(errors) and \
            not any(n in built for n in names):
        return sorted(set(names))
    return None


def conf_example(where, text, claim, name):
    path = os.path.join(scratch, name)
    with open(path, "w") as f:
        f.write(text + "\n")
    if claim is None:
        fail("%s: an example file without a doctest-claim line" % where)
        return
    r = subprocess.run([RC4TUNE, "--check-conf", path], capture_output=True,
                       text=True)
    out = r.stdout + r.stderr
    bad = []
    lacks = unbuilt_only(out) if r.returncode == 1 else None
    if lacks:
        print("# %s: kernels this build lacks, not checked: %s"
              % (where, " ".join(lacks)))
    elif r.returncode != 0 or "OK (0 errors, 0 warnings)" not in out:
        bad.append("not OK (exit %d)" % r.returncode)
    for c in claim.split("|"):
        m = re.match(r"\s*(\[[^\]]*\])\s+(.*\S)\s*$", c)
        if not m:
            fail("%s: bad claim %r" % (where, c))
            return
        if not re.search(r"^%s:\d+: %s: %s" % (re.escape(path),
                                               re.escape(m.group(1)),
                                               re.escape(m.group(2))),
                         out, re.M):
            bad.append("%s is not %r" % m.groups())
    if bad:
        fail("%s: --check-conf: %s" % (where, "; ".join(bad)), out)
        return
    counts["config files checked"] += 1
    ok("%s: --check-conf: %s" % (where, claim))


# --- commands ----------------------------------------------------------

TEMPLATE = re.compile(r"\b(FILE|NAME|OUT|SECONDS|KERNEL|VENDOR|PROGRAM)\b|\.\.\.|…")


def command(where, line):
    line = re.sub(r"\s+#.*$", "", line.strip())
    if not line or line.startswith("#"):
        return
    for part in re.split(r"\s*(?:&&|;)\s*", line):
        run_one(where, part)


# Why a documented command is not run here, by its program: not rc4tune.
OTHER_PROGRAMS = {
    "apt-get": "installs packages (root)",
    "autoreconf": "the build itself (make check runs in it)",
    "./configure": "the build itself (make check runs in it)",
    "make": "the build itself (make check runs in it)",
    "sh": "CI (.ci/*), as root, minutes to hours",
    "exec": "a container's entrypoint: runs its program",
    "docker": "docker",
    "COPY": "a Dockerfile line",
    "ansible-playbook": "ansible, on hosts",
    "cc": "needs the library installed (pkg-config); this test "
          "compiles the same program against the build",
    "echo": "writes /etc (as root)"}


def not_run(cmd, words):
    """Why CMD (its WORDS, without leading VAR=value) is not run, or None."""
    prog = os.path.basename(words[0]) if words else ""
    if prog != "rc4tune":
        return OTHER_PROGRAMS.get(words[0] if words else "",
                                  "not an rc4tune command")
    if TEMPLATE.search(cmd):
        return "a template (placeholders), not a command"
    opts = words[1:]
    if ("--generate-conf" in opts or "-g" in opts) and \
            "--output" not in opts and "-o" not in opts:
        return "writes the system config (root)"
    if "--speed" in opts:
        missing = [k for k in opts if not k.startswith("-") and k not in kernels]
        if missing:
            return "kernels not in this build: " + " ".join(missing)
    return None


def run_one(where, cmd):
    try:
        argv = shlex.split(cmd)
    except ValueError:
        skip(where, cmd, "not one shell command")
        return
    words = [w for w in argv if not re.match(r"\w+=", w)]
    why = not_run(cmd, words)
    if why:
        skip(where, cmd, why)
        return
    opts = words[1:]
    if ("--speed" in opts or "--generate-conf" in opts) and "--budget" not in opts:
        argv = argv + ["--budget", BUDGET]
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"])
    for a in argv:
        m = re.match(r"(\w+)=(.*)", a)
        if not m:
            break
        env[m.group(1)] = m.group(2)
        argv = argv[1:]
    argv[0] = os.path.join(bindir, "rc4tune")
    r = subprocess.run(argv, cwd=scratch, env=env, capture_output=True,
                       text=True, timeout=120)
    lacks = None
    if r.returncode == 1 and "--check-conf" in argv:
        lacks = unbuilt_only(r.stdout + r.stderr)
    if r.returncode != 0 and not lacks:
        fail("%s: `%s` exits %d" % (where, cmd, r.returncode),
             (r.stdout + r.stderr)[-2000:])
        return
    if lacks:
        print("# %s: kernels this build lacks, not checked: %s"
              % (where, " ".join(lacks)))
    counts["commands run"] += 1
    ran = " ".join(shlex.quote(a) for a in argv[1:])
    ok("%s: `%s` exits 0%s" % (where, cmd, "" if ran == " ".join(
        shlex.quote(a) for a in words[1:]) else " (run as rc4tune " + ran + ")"))


def is_rc4tune(line):
    return re.match(r"(\w+=\S+\s+)*(\./)?rc4tune\s+-", line) is not None


# --- main --------------------------------------------------------------

scratch = tempfile.mkdtemp(prefix="test_docs.")
bindir = os.path.join(scratch, "bin")
os.mkdir(bindir)
os.symlink(RC4TUNE, os.path.join(bindir, "rc4tune"))
os.symlink(RC4TUNE, os.path.join(scratch, "rc4tune"))
try:
    kernels = {l.split()[0] for l in subprocess.run(
        [RC4TUNE, "--list"], capture_output=True, text=True,
        check=True).stdout.split("\n") if l.strip()}

    # config files first: rc4tune(1)'s --merge takes them as hostN.conf
    n = 0
    for start, text, notes, _ in man_blocks("man/rc4tune.conf.5.in"):
        if re.match(r"\s*[\[;]", text):
            n += 1
            conf_example("rc4tune.conf.5.in:%d" % start, text,
                         note(notes, "claim"), "conf%d.conf" % n)
    for start, info, text, notes in md_blocks("README.md"):
        if info in ("ini", "conf") or (info == "" and re.match(r"\s*\[", text)):
            n += 1
            conf_example("README.md:%d" % start, text, note(notes, "claim"),
                         "conf%d.conf" % n)
    confs = sorted(f for f in os.listdir(scratch) if f.startswith("conf"))
    for i in range(1, 4):
        if confs:
            shutil.copy(os.path.join(scratch, confs[(i - 1) % len(confs)]),
                        os.path.join(scratch, "host%d.conf" % i))

    # C
    for start, info, text, notes in md_blocks("README.md"):
        if info == "c":
            c_example("README.md:%d" % start, text, note(notes, "context"), None)
    for start, text, notes, after in man_blocks("man/librc4tune.3.in",
                                                "EXAMPLES"):
        where = "librc4tune.3.in:%d" % start
        if "#include" in text or re.search(r"\brc4tune_\w+\s*\(.*;", text):
            m = re.search(r"^prints\s*\n\.B\s+(\S+)", after, re.M)
            c_example(where, text, note(notes, "context"),
                      m.group(1) if m else None)
        else:
            for line in text.split("\n"):
                command(where, line)

    # commands
    for start, info, text, notes in md_blocks("README.md"):
        where = "README.md:%d" % start
        if info == "sh":
            if re.search(r"^\s*(if|case|for|while)\b", text, re.M):
                skip(where, text.split("\n")[0] + " ...",
                     "a script (the postinst: root, writes the system config)")
                continue
            for line in text.split("\n"):
                command(where, line)
        elif info == "":
            for line in text.split("\n"):
                if line.startswith("$ "):
                    command(where, line[2:])
    for lineno, span in md_spans("README.md"):
        if is_rc4tune(span):
            command("README.md:%d" % lineno, span)
    for start, text, notes, _ in man_blocks("man/rc4tune.1.in", "EXAMPLES"):
        for line in text.split("\n"):
            command("rc4tune.1.in:%d" % start, line)
finally:
    shutil.rmtree(scratch, ignore_errors=True)

for where, what, why in skipped:
    print("skipped: %s: `%s`: %s" % (where, what, why))
print("%s; %d skipped" % ("; ".join("%s %d" % (k, v) for k, v in counts.items()),
                          len(skipped)))
if not counts["compiled"] or not counts["config files checked"] or \
        not counts["commands run"]:
    fail("no examples found: is RC4TUNE_TEST_DATA the source tree's tests/?")
if failures:
    print("%d failed" % len(failures))
    sys.exit(1)
sys.exit(0)
