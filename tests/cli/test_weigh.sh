#!/bin/sh
# SPDX-License-Identifier: MIT
# test_weigh.sh - a result must hold over time (rc4tune(1), WHAT A RESULT
# MUST HOLD): a ranking that changes between the phases of a run is
# uncertain; near-tied kernels are a confident result, the tie rule's; a
# prior within the window of the best stays and the run confirms it; a
# prior is replaced by a kernel surely more than the window ahead of it,
# and never kept as a confident result more than the window behind; the
# race keeps every kernel within reach of the best to the end.  The
# tuner runs on the measuring engine's seam (tests/helpers/seam.c): a virtual
# clock and made-up rates per phase, so every verdict is the same on any
# machine (under noise, the one case that may go two ways accepts either
# right answer).
#
# Environment (make check sets it): RC4TUNE_SEAM, tests/helpers/rc4tune_seam;
# RC4TUNE_TEST_DATA, the source tree's tests/; TEST_EMULATOR, if set, runs
# a cross-built program.
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE_SEAM:?set RC4TUNE_SEAM to tests/helpers/rc4tune_seam}"
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
# A is the faster in phase 1, then a state makes it slower than B.  B,
# clearly behind in the race's first pass (in phase 1), leaves the race;
# the round over every kernel where each later phase begins sees it lead
# A there: A, the race's winner, would be a confident wrong answer.
rm -f "$tmp/c.conf"
tune "$A=100,70,70 $B=90,95,95"
[ $rc -eq 0 ] && wrote "$A" uncertain phases &&
	grep -q "^; confidence: uncertain (the ranking changed: $B led in phase 2 of 3 by [0-9.]* %)" "$tmp/c.conf" &&
	grep -q "warning: the result is uncertain (the ranking changed" "$tmp/err" &&
	ok "a ranking that changes between phases: uncertain (phases), said" ||
	{ fail "phases"; show; }
rm -f "$tmp/c.conf"
RC4TUNE_SEAM_NOISE=0.02 tune "$A=100,70,70 $B=90,95,95"
[ $rc -eq 0 ] && wrote "$A" uncertain phases &&
	ok "... and with every rate off by up to 2 %" ||
	{ fail "phases under noise"; show; }
rm -f "$tmp/c.conf"
tune "$A=100,100,100 $B=90,90,90"
[ $rc -eq 0 ] && wrote "$A" high - &&
	ok "the same ranking in every phase: confident" ||
	{ fail "steady run"; show; }
# A state that begins after the first pass, B in the final throughout.
rm -f "$tmp/c.conf"
tune "$A=100,100,90 $B=96,96,96"
[ $rc -eq 0 ] && wrote "$A" uncertain phases &&
	grep -q "^; confidence: uncertain (the ranking changed: $B led in phase 3 of 3 by 6.7 %)" "$tmp/c.conf" &&
	ok "a state that begins in phase 3: uncertain (phases)" ||
	{ fail "phases, a state that begins"; show; }

# --- near-ties: any of them is a right answer -----------------------------
# Three kernels within 1 % of each other over the run, two trading places
# by 5 % in the first two phases, every rate off by up to 2 %: the heuristic's
# kernel is within the window of the best by the rounds, so the run is
# confident and the tie rule writes it (the same kernel run after run).
H=$(seam --heuristic 2>/dev/null | awk 'NR == 1 { print $1 }')
set -- $(for k in int-4x char-4x int-1x; do [ "$k" != "$H" ] && echo "$k"; done)
T1=$1 T2=$2
if seam --list 2>/dev/null | grep -q "^$H\>"; then
	rm -f "$tmp/c.conf"
	RC4TUNE_SEAM_NOISE=0.02 tune "$H=97.5,102.5,100 $T1=102.5,97.5,100 $T2=99.5,99.5,99.5"
	[ $rc -eq 0 ] && wrote "$H" high - &&
		grep -q "^; tie: 3 kernels within .*: chose $H, the heuristic's choice" "$tmp/c.conf" &&
		ok "near-ties trading places within the noise: confident, the heuristic's $H" ||
		{ fail "near-ties"; show; }
else
	fail "no heuristic's kernel among this build's: '$H'"
fi
# Neither the section's nor the heuristic's among the tied: the earliest
# in --list order, not the first named (--speed times them in the order
# given).
first=$(seam --list 2>/dev/null | awk -v a="$T1" -v b="$T2" \
	'$1 == a || $1 == b { print $1; exit }')
last=$T1
[ "$first" = "$T1" ] && last=$T2
RC4TUNE_SEAM_RATES="$T1=100,100,100 $T2=100,100,100" seam --speed --json \
	"$last" "$first" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ -n "$first" ] &&
	grep -q "\"winner\": \"$first\"" "$tmp/out" &&
	grep -q '"tie_rule": "the earliest in registry order"' "$tmp/out" &&
	ok "a tie of kernels named out of order: the earliest in --list order, $first" ||
	{ fail "tie by --list order ($first named after $last)"; cat "$tmp/err" "$tmp/out"; }

# --- the prior: replaced only by a kernel surely more than the window ahead
# A prior within the window of this run's best stays, and the run joins
# its history as confirming it.
tuned "$A" "$A:1.000,$B:0.990"
tune "$A=99,99,99 $B=100,100,100"
[ $rc -eq 0 ] && wrote "$A" high - &&
	grep -q "^; tie: kept $A, the section's kernel, within 2.0 % of the best ($B)" "$tmp/c.conf" &&
	[ "$(grep -c '^;@ history key=kernel ' "$tmp/c.conf")" -eq 2 ] &&
	grep -m1 '^;@ history key=kernel ' "$tmp/c.conf" | grep -q "scores=$B:1.000,$A:0.990," &&
	ok "a prior within the window of the best stays; the run joins the history" ||
	{ fail "prior within the window"; show; }
# What the confidence rests on (the basis line, format 3): A's rounds,
# 1 % behind B's in each, bound it at 0.990 of B, inside the 2 % window.
grep -Eq '^;@ rc4tune v=3 ' "$tmp/c.conf" &&
	grep -Eq "^;@ basis key=kernel lower=0\.990 window=0\.020 finalists=2 rounds=[1-9][0-9]*\$" "$tmp/c.conf" &&
	seam --check-conf "$tmp/c.conf" >"$tmp/out" 2>&1 &&
	grep -q "; kernel confident (at least 0\.990 of the other kernel in the final at 95 %, [1-9][0-9]* rounds, window 2\.0 %)" "$tmp/out" &&
	ok "the basis: kernel at least 0.990 of B, window 2 %, 2 finalists (record and --check-conf)" ||
	{ fail "basis line"; grep '^;@' "$tmp/c.conf"; cat "$tmp/out"; }
# --speed --json: this run's winner, B, at least 1/0.99 of A; none
# beside B in the final when A is far behind (the race drops it)
for case in "99:1.0101" "50:None"; do
	RC4TUNE_SEAM_RATES="$A=${case%:*},${case%:*},${case%:*} $B=100,100,100" \
		seam --speed --json >"$tmp/json" 2>"$tmp/err"
	got=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["lower"])' <"$tmp/json")
	[ "$got" = "${case#*:}" ] &&
		ok "--json: the winner's lower bound with A at ${case%:*} % of B: $got" ||
		{ fail "--json lower: $got, not ${case#*:}"; cat "$tmp/err"; }
done
# the batch calls' serial was timed on the kernel written, not on B
[ "$(grep -c "^; serial: $A key by key" "$tmp/c.conf")" -eq 2 ] &&
	ok "serial timed on the prior kept ($A), the kernel written" ||
	{ fail "serial not on the kernel written"; grep '^; serial' "$tmp/c.conf"; }

# --json tells the kernel written from this run's winner
tuned "$A" "$A:1.000,$B:0.990"
RC4TUNE_SEAM_RATES="$A=99,99,99 $B=100,100,100" seam --generate-conf --json \
	--output "$tmp/c.conf" >"$tmp/json" 2>"$tmp/err"
[ "$(python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["winner"], d["written"])' <"$tmp/json")" = "$B $A" ] &&
	ok "--json: the winner measured ($B), the kernel written ($A)" ||
	{ fail "--json winner and written"; cat "$tmp/err" "$tmp/json"; }

# A run that puts B more than the window ahead of the prior round by round
# replaces it, whatever the history says and though B fell 1 % behind in
# one phase: a prior kept so would be a confident result more than the
# window behind.
for rates in "$A=80,80,80 $B=100,100,79" "$A=100,100,100 $B=106,106,99"; do
	tuned "$A" "$A:1.000,$B:0.730" "$A:1.000,$B:0.730"
	tune "$rates"
	[ $rc -eq 0 ] && wrote "$B" high - &&
		[ "$(grep -c '^;@ history key=kernel ' "$tmp/c.conf")" -eq 3 ] &&
		ok "a kernel surely more than the window ahead replaces the prior ($rates)" ||
		{ fail "replaced ($rates)"; show; }
done

# A real 5 % gap under heavy noise, the prior the slower: never written
# as confident.  Either B is surely ahead and replaces it, or the prior
# stays marked uncertain (why=noise): the rounds cannot rule out that it
# is more than the window behind.
for f in 0.2 0.3; do
	record_fixture "$live" "$A" uncertain noise >"$tmp/c.conf"
	seal "$tmp/c.conf"
	RC4TUNE_SEAM_NOISE=$f tune "$A=100,100,100 $B=105,105,105"
	{ [ $rc -eq 0 ] && wrote "$B" high -; } ||
		{ [ $rc -eq 0 ] && wrote "$A" uncertain noise &&
		  grep -q "the result is uncertain ($B may lead by more than" "$tmp/err" &&
		  awk -F'lower=' '/^;@ basis key=kernel / { exit !($2 + 0 < 0.98) }' "$tmp/c.conf"; } &&
		ok "a 5 % gap under noise $f: $(sed -n 's/^;@ result key=kernel value=\([^ ]*\) confidence=\([a-z]*\).*/\1 \2/p' "$tmp/c.conf")" ||
		{ fail "a 5 % gap under noise $f"; show; }
done

# --- the race: no kernel that could be chosen leaves it -----------------
# race NOISE RATES [ARG...]: --speed over every kernel (or as ARGs say);
# "NAME FINALIST ROUNDS" for each usable kernel in $tmp/race, the first
# pass's rounds in $first, the finalists' number in $nfinal, their rounds
# in $final.
race() {
	noise=$1 rates=$2
	shift 2
	RC4TUNE_SEAM_NOISE=$noise RC4TUNE_SEAM_RATES=$rates \
		seam --speed --json "$@" >"$tmp/json" 2>"$tmp/err"
	python3 -c 'import json, sys
d = json.load(sys.stdin)
print(d["first_pass_rounds"], d["finalists"], d["rounds"])
for k in d["kernels"]:
    if k["status"] == "ok":
        print(k["name"], k["finalist"], k["rounds"])' <"$tmp/json" >"$tmp/race"
	read -r first nfinal final <"$tmp/race"
}
finalists() { awk 'NR > 1 && $2 == "True" { print $1 }' "$tmp/race" | sort | tr '\n' ' '; }
# B the best; A, C within 5 % of it (the cut); D 6 % behind, and every
# kernel not named at rate 1: those leave after the first pass, and the
# finalists get more rounds than that pass had.
C=int-1x D=char-1x
race 0 "$B=100,100,100 $A=98,98,98 $C=96,96,96 $D=94,94,94"
want=$(printf '%s\n' "$A" "$B" "$C" | sort | tr '\n' ' ')
[ "$(finalists)" = "$want" ] && [ "$nfinal" -eq 3 ] && [ "$final" -gt "$first" ] &&
	grep -q "^$D False $first\$" "$tmp/race" &&
	ok "the race: $nfinal finalists within 5 % of the best, $final rounds each; the rest $first" ||
	{ fail "race: finalists $(finalists), want $want"; cat "$tmp/race"; }
# Under noise of up to 10 % a slice, a kernel within the window of the
# best is never dropped, whichever looks ahead in the first pass.
race 0.1 "$B=100,100,100 $A=98,98,98"
want=$(printf '%s\n' "$A" "$B" | sort | tr '\n' ' ')
[ "$(finalists)" = "$want" ] && [ "$first" -gt 0 ] &&
	ok "the race under noise: the best and one within the window both in the final" ||
	{ fail "race under noise: finalists $(finalists)"; cat "$tmp/race"; }
# A budget the first pass nearly spends (a busy host's): no final with
# too few rounds to decide on (one, before), but the first pass goes on,
# both kernels in it, and the result is sure.
race 0 "$B=100,100,100 $A=90,90,90" --budget 0.005 "$A" "$B"
[ "$first" -eq 0 ] && [ "$nfinal" -eq 2 ] && [ "$final" -ge 5 ] &&
	grep -q '"confidence": "high",' "$tmp/json" &&
	ok "no time for a final of 5 rounds: none, $final rounds of both kernels, confident" ||
	{ fail "a final without the time for it: $(cat "$tmp/race")"; cat "$tmp/err"; }
# and a budget for one round says so, in the singular
RC4TUNE_SEAM_NOISE=0 RC4TUNE_SEAM_RATES="$B=100,100,100 $A=90,90,90" \
	seam --speed --budget 0.001 "$A" "$B" >"$tmp/out" 2>"$tmp/err"
grep -q "^1 round of [0-9.]* ms slices in " "$tmp/out" &&
	grep -q "^confidence: uncertain (only 1 round fit in the budget)" "$tmp/out" &&
	ok "one round: '1 round of', and uncertain" ||
	{ fail "one round's report"; cat "$tmp/out" "$tmp/err"; }

# A round is one placement on one CPU, every kernel side by side, so what
# hits every kernel alike in a round cancels in its ratios: here rounds at
# placements 1, 3 and 5 run at 60 %, as on a CPU whose core a busy
# neighbour shares.  D, 10 % behind B in every round, leaves although its
# best round beats B's worst (a cut of best round against worst keeps
# it); C, 3 % behind, stays.
slow() { for p in 1 3 5; do printf ' %s@%d=%s,%s,%s' "$1" $p "$2" "$2" "$2"; done; }
race 0 "$B=100,100,100$(slow "$B" 60) $C=97,97,97$(slow "$C" 58.2) $D=90,90,90$(slow "$D" 54)"
want=$(printf '%s\n' "$B" "$C" | sort | tr '\n' ' ')
[ "$(finalists)" = "$want" ] && grep -q "^$D False $first\$" "$tmp/race" &&
	ok "the race compares kernels round by round: 10 % behind in every round, $D leaves; $C stays" ||
	{ fail "race round by round: finalists $(finalists), want $want"; cat "$tmp/race"; }

# A round is scored over the columns as the workload weighs them: D, 20 %
# ahead of B at 16 bytes and 15 % behind in every other column, is behind
# in its best round too (a column-by-column cut keeps it), and leaves.
race 0 "$B=100,100,100 $D=85,85,85 $D:16=120,120,120"
[ "$(finalists)" = "$B " ] && grep -q "^$D False $first\$" "$tmp/race" &&
	ok "the race scores a round over the columns: ahead at 16 bytes alone, $D leaves" ||
	{ fail "race over the columns: finalists $(finalists)"; cat "$tmp/race"; }

# A batch kernel leaves only behind one that can run every layout it can:
# char-8lane, 25 % behind int-8lane (another layout) and ahead of serial
# (every layout), stays, and wins for the 8-bit single kernel; serial
# stays too, the rest leave behind it.
RC4TUNE_SEAM_RATES="$B=100,100,100 int-8lane/set_keys=200,200,200 char-8lane/set_keys=150,150,150" \
	seam --speed --json >"$tmp/json" 2>"$tmp/err"
got=$(python3 -c 'import json, sys
d = json.load(sys.stdin)["set_keys"]
print(d["winner"], " ".join(sorted(k["name"] for k in d["kernels"] if k.get("finalist"))))' <"$tmp/json")
[ "$got" = "char-8lane char-8lane int-8lane serial" ] &&
	ok "the batch race: each layout keeps its best in the final ($got)" ||
	{ fail "batch race: $got"; cat "$tmp/err"; }

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
