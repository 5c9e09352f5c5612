#!/bin/sh
# SPDX-License-Identifier: MIT
# test_weigh.sh - a result must hold over time (rc4tune(1), WHAT A RESULT
# MUST HOLD): a ranking that changes between the phases of a run is
# uncertain; a prior that is right survives a run that disagrees; a prior
# is replaced only by a kernel that leads it in every phase; repeated runs
# replace a wrong prior once the history agrees.  The tuner runs on the
# measuring engine's seam (tests/seam.c): a virtual clock and made-up
# rates per phase, so every verdict is the same on any machine.
#
# Environment (make check sets it): RC4TUNE_SEAM, tests/rc4tune_seam;
# RC4TUNE_TEST_DATA, the source tree's tests/; TEST_EMULATOR, if set, runs
# a cross-built program.
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE_SEAM:?set RC4TUNE_SEAM to tests/rc4tune_seam}"
: "${RC4TUNE_TEST_DATA:?set RC4TUNE_TEST_DATA to the source tests/}"
command -v python3 >/dev/null || { echo "SKIP: no python3 for seal.py"; exit 77; }

# The seam's tuner, through the emulator of a cross build (.ci/cross).
seam() { ${TEST_EMULATOR:-} "$RC4TUNE_SEAM" "$@"; }

# Two portable kernels every build has, and no CPU rule's (the heuristic's
# kernel is the prior where there is no section); the seam runs every
# other kernel at rate 1.
A=int-4x
B=char-4x

# tune RATES: one run on the seam into $tmp/c.conf; $rc, $tmp/err.
tune() {
	RC4TUNE_SEAM_RATES=$1 seam --generate-conf --quiet \
		--output "$tmp/c.conf" 2>"$tmp/err"
	rc=$?
}
live_section seam

# tuned KERNEL [SCORES...]: this CPU's section as a confident earlier run
# wrote it, with a history run for each SCORES ("NAME:SCORE,...").
tuned() {
	k=$1
	shift
	record_fixture "$live" "$k" high - "$@" >"$tmp/c.conf"
	seal "$tmp/c.conf"
}
# wrote KERNEL CONFIDENCE WHY: the section's kernel and its result line
wrote() {
	grep -q "^kernel = $1\$" "$tmp/c.conf" &&
		grep -q "^;@ result key=kernel value=$1 confidence=$2 why=$3\$" "$tmp/c.conf"
}
show() { cat "$tmp/err"; grep -E '^(;@|kernel|; (prior|history|confidence|3 phases))' "$tmp/c.conf"; }

# --- the phases: a state that ends during the run ------------------------
# A is the faster in phase 1, then a state makes it slower than B: over
# the whole run B's median wins, which would be a confident wrong answer.
rm -f "$tmp/c.conf"
tune "$A=100,70,70 $B=90,95,95"
[ $rc -eq 0 ] && wrote "$B" uncertain phases &&
	grep -q "^; confidence: uncertain (the ranking changed: $A led in phase 1 of 3 by 11.1 %)" "$tmp/c.conf" &&
	grep -q "warning: the result is uncertain (the ranking changed" "$tmp/err" &&
	ok "a ranking that changes between phases: uncertain (phases), said" ||
	{ fail "phases"; show; }
rm -f "$tmp/c.conf"
tune "$A=100,100,100 $B=90,90,90"
[ $rc -eq 0 ] && wrote "$A" high - &&
	ok "the same ranking in every phase: confident" ||
	{ fail "steady run"; show; }

# --- a prior that is right survives one disagreeing run ------------------
# Two earlier runs put B at 0.73 of A; this run, in a state that lasts all
# of it, puts A at 0.9 of B in every phase.
tuned "$A" "$A:1.000,$B:0.730" "$A:1.000,$B:0.730"
tune "$A=90,90,90 $B=100,100,100"
[ $rc -eq 0 ] && wrote "$A" high - &&
	grep -q "^; history: over 3 runs $A stands above this run's best, $B" "$tmp/c.conf" &&
	[ "$(grep -c '^;@ history key=kernel ' "$tmp/c.conf")" -eq 3 ] &&
	grep -m1 '^;@ history key=kernel ' "$tmp/c.conf" | grep -q "scores=$B:1.000,$A:0.900," &&
	ok "a right prior survives a run that disagrees; the run joins the history" ||
	{ fail "right prior"; show; }

# --json tells the kernel written from this run's winner
tuned "$A" "$A:1.000,$B:0.730" "$A:1.000,$B:0.730"
RC4TUNE_SEAM_RATES="$A=90,90,90 $B=100,100,100" seam --generate-conf --json \
	--output "$tmp/c.conf" >"$tmp/json" 2>"$tmp/err"
[ "$(python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["winner"], d["written"])' <"$tmp/json")" = "$B $A" ] &&
	ok "--json: the winner measured ($B), the kernel written ($A)" ||
	{ fail "--json winner and written"; cat "$tmp/err" "$tmp/json"; }

# --- the prior stays unless the new kernel led it in every phase ----------
# B leads by 25 % over the run but falls 1 % behind in phase 3 (within the
# tie window, so the run is not uncertain).
tuned "$A"
tune "$A=80,80,80 $B=100,100,79"
[ $rc -eq 0 ] && wrote "$A" high - &&
	grep -q "^; prior: kept $A (the section's): $B did not lead it in every phase" "$tmp/c.conf" &&
	ok "the prior stays unless the new kernel led it in every phase, said" ||
	{ fail "every phase"; show; }
tuned "$A"
tune "$A=80,80,80 $B=100,100,100"
[ $rc -eq 0 ] && wrote "$B" high - &&
	ok "a kernel that led the prior in every phase replaces it" ||
	{ fail "replaced"; show; }

# --- a wrong prior is replaced once the history agrees --------------------
# Two earlier runs put B at 0.8 of A; from now on B is 1/0.9 of A in every
# phase.  The standing (mean over this run and the history, four runs at
# most) turns in the third run.
tuned "$A" "$A:1.000,$B:0.800" "$A:1.000,$B:0.800"
got=
for run in 1 2 3; do
	sleep 1 # each run's at= differs
	tune "$A=90,90,90 $B=100,100,100"
	got="$got $(sed -n 's/^kernel = //p' "$tmp/c.conf")"
done
[ "$got" = " $A $A $B" ] && wrote "$B" high - &&
	ok "repeated runs replace a wrong prior once the history agrees:$got" ||
	{ fail "convergence:$got"; show; }

# --- an uncertain run keeps only a section the library uses whole --------
# A confident, sealed section that names a batch kernel of another layout
# than its kernel's, or a short kernel this build does not have: the
# library passes that key over, so it is no result to keep, and an
# uncertain run writes its own (marked uncertain).
for keys in "set_keys_kernel = char-8lane" \
	"short_below = 64\nshort_kernel = int-9x-gone"; do
	case $keys in
	set_keys*) rec=';@ result key=set_keys_kernel value=char-8lane confidence=high why=-' v=1 ;;
	*) rec=';@ split short=int-9x-gone below=64 gain=1.100 ratios=16:1.200' v=2 ;;
	esac
	printf "[%s]\n;@ rc4tune v=$v at=2026-01-01T00:00:00Z by=0.3.0 sum=0000000000000000\n;@ result key=kernel value=$A confidence=high why=-\n$rec\n$keys\nkernel = $A\n" \
		"$live" >"$tmp/c.conf"
	seal "$tmp/c.conf"
	tune "$A=100,70,70 $B=90,95,95"
	[ $rc -eq 0 ] && ! grep -q 'kept the confident section' "$tmp/err" &&
		! grep -q -e '^set_keys_kernel = char-8lane' -e '^short_kernel = int-9x-gone' "$tmp/c.conf" &&
		grep -q '^;@ result key=kernel value=[^ ]* confidence=uncertain' "$tmp/c.conf" &&
		ok "an uncertain run replaces a confident section with $(printf "$keys" | tail -n 1)" ||
		{ fail "kept a section with $keys"; show; }
done

finish
