#!/bin/sh
# SPDX-License-Identifier: MIT
# test_settle.sh - the boot unit settles (rc4tune(1), --if-missing): its
# command, run three times, measures at most once whatever the file holds,
# and not at all after a confident run; an uncertain run keeps a confident
# section only where the library uses it.  On the measuring engine's seam
# (tests/helpers/seam.c): a virtual clock and made-up rates, the same verdicts on
# any machine.
#
# Environment (make check sets it): RC4TUNE_SEAM, tests/helpers/rc4tune_seam;
# RC4TUNE_TEST_DATA, the source tree's tests/; TEST_EMULATOR, if set, runs
# a cross-built program.
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE_SEAM:?set RC4TUNE_SEAM to tests/helpers/rc4tune_seam}"
: "${RC4TUNE_TEST_DATA:?set RC4TUNE_TEST_DATA to the source tests/}"
command -v python3 >/dev/null || skip "no python3 for seal.py"

seam() { ${TEST_EMULATOR:-} "$RC4TUNE_SEAM" "$@"; }
live_section seam
# Two portable kernels every build has and no CPU rule names (test_weigh.sh).
A=int-4x
B=char-4x
steady="$A=100,100,100 $B=90,90,90"
conf=$tmp/c.conf

# boot RATES WHAT: the unit's command (but for --quiet, so that it says
# what it did) three times on $conf; fails unless each run exits 0 and at
# most MAX (default 1) of them measure.
boot() {
	measured=0
	for run in 1 2 3; do
		RC4TUNE_SEAM_RATES=$1 seam --generate-conf --if-missing \
			--output "$conf" >"$tmp/out" 2>"$tmp/err" ||
			{ fail "$2: run $run exited $?"; cat "$tmp/err"; return; }
		grep -q 'nothing to do' "$tmp/out" || measured=$((measured + 1))
	done
	[ "$measured" -le "${3:-1}" ] &&
		ok "$2: three boots measured $measured time(s)" ||
		{ fail "$2: three boots measured $measured times"; cat "$tmp/out" "$tmp/err"; }
}
# wrote KERNEL CONFIDENCE WHY: this CPU's section and its result line
wrote() {
	grep -q "^kernel = $1\$" "$conf" &&
		grep -q "^;@ result key=kernel value=$1 confidence=$2 why=$3\$" "$conf"
}
# fixture KERNEL CONFIDENCE WHY [MORE]: $conf with this CPU's section as
# the tuner wrote it, then MORE (lines), sealed.
fixture() {
	{ record_fixture "$live" "$1" "$2" "$3"; printf '%b' "${4:-}"; } >"$conf"
	seal "$conf"
}

# --- whatever the file holds, three boots measure at most once ----------
rm -f "$conf"
boot "$steady" "no file"
boot "$steady" "after a confident run" 0
fixture "$A" uncertain busy
boot "$steady" "an uncertain section"
printf '[%s]\nkernel = %s\n' "$live" "$A" >"$conf"
boot "$steady" "a person's section" 0
fixture "$A" high -
chmod 664 "$conf"
boot "$steady" "a file the library refuses (mode 0664)"
# The tuner's uncertain section first, a person's duplicate after it: the
# library reads the duplicate's keys last, and a run keeps the file.
fixture "$A" uncertain busy "\n[$live]\nkernel = $B\n"
boot "$steady" "an uncertain section with a person's duplicate" 0

# --- a ranking that changed is judged for the kernel written ------------
# B leads A by 5 % in phase 3 and trails it by 1 % (within the tie window)
# in the others: a tie, which goes to the section's kernel A; no kernel
# led A by more than the window, so the result is confident.
fixture "$A" uncertain busy
RC4TUNE_SEAM_RATES="$B=100,100,100 $A=99,99,105" seam --generate-conf \
	--quiet --output "$conf" 2>"$tmp/err"
wrote "$A" high - &&
	ok "a tie kept for the section's kernel is confident when no kernel led it" ||
	{ fail "phases judged for the provisional winner"; cat "$tmp/err"; grep '^;@\|^kernel' "$conf"; }
fixture "$A" uncertain busy
boot "$B=100,100,100 $A=99,99,105" "a tie the section's kernel keeps"

# --- an uncertain run keeps a section only where the library uses it ----
# A ranking that flips between phases makes the run uncertain.
flips="$A=100,70,70 $B=90,95,95"
uncertain_run() {
	RC4TUNE_SEAM_RATES=$flips seam --generate-conf --quiet \
		--output "$conf" 2>"$tmp/err"
	rc=$?
}
fixture "$A" high -
chmod 664 "$conf"
uncertain_run
[ $rc -eq 0 ] && seam --check-conf "$conf" >/dev/null 2>&1 &&
	wrote "$A" uncertain phases && ! grep -q 'kept' "$tmp/err" &&
	ok "an uncertain run rewrites a confident section in a file the library refuses (0664)" ||
	{ fail "uncertain run, mode 0664"; cat "$tmp/err"; ls -l "$conf"; }
# The record says A, the key line (sealed) a kernel this build lacks: a
# result the tuner never writes (its value is its key line's), so the
# section is a person's (rc4tune.conf(5)): kept, said.
fixture "$A" high -
sed -i 's/^kernel = .*/kernel = no-such-kernel/' "$conf"
seal "$conf"
cp "$conf" "$tmp/differ.before"
uncertain_run
[ $rc -eq 0 ] && cmp -s "$conf" "$tmp/differ.before" &&
	grep -q "kept .* it is a person's: its record holds values rc4tune never writes" "$tmp/err" &&
	ok "a sealed record whose result is not its key line is a person's: kept" ||
	{ fail "uncertain run, a record and a key line that differ"; cat "$tmp/err"; grep '^;@\|^kernel' "$conf"; }
# Where the library does use the confident section, it stays.
fixture "$A" high -
cp "$conf" "$tmp/before"
uncertain_run
left_said "$conf" "$tmp/before" "kept the confident section" &&
	ok "an uncertain run keeps a confident section the library uses, said" ||
	{ fail "uncertain run, a confident section"; cat "$tmp/err"; }

finish
