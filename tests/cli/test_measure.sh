#!/bin/sh
# SPDX-License-Identifier: MIT
# test_measure.sh - what the measuring engine scores (rc4tune(1), OUTPUT:
# serial, placements): each batch call's serial candidate runs the single
# kind's winner, so that call's kernel is serial where every lane kernel
# is slower than it; a kernel is scored at its worst placement of the
# key's state, so a bad placement cannot hide in a median; and the three
# calls share one state layout (librc4tune(3), Many keys at once): the
# batch calls are chosen among the written kernel's family, and a kernel
# of another family surely within 5 % of every other takes its place
# where its family's lanes win.  The tuner runs on the seam (tests/helpers/seam.c): a virtual clock and
# made-up rates, the same verdicts on any machine.
#
# Environment (make check sets it): RC4TUNE_SEAM, tests/helpers/rc4tune_seam;
# TEST_EMULATOR, if set, runs a cross-built program.
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE_SEAM:?set RC4TUNE_SEAM to tests/helpers/rc4tune_seam}"

seam() { ${TEST_EMULATOR:-} "$RC4TUNE_SEAM" "$@"; }

# tune RATES: one run on the seam, the section on $tmp/c.conf; $rc.
tune() {
	RC4TUNE_SEAM_RATES=$1 seam --generate-conf --output - \
		>"$tmp/c.conf" 2>"$tmp/err"
	rc=$?
}
show() { cat "$tmp/err"; grep -v '^;@' "$tmp/c.conf"; }

# Two portable kernels every build has, and no CPU rule's; the lane
# kernels of this build, each at RATE in every phase (lanes RATE).
A=int-4x
B=char-4x
# lanes RATE [CALL]: every lane kernel at RATE (for CALL alone: set_keys
# or crypt_many).
lanes() {
	seam --list | awk -v r="$1" -v c="${2:+/$2}" '$3 == "batch:" && $1 != "serial" {
		printf "%s%s=%s,%s,%s ", $1, c, r, r, r }'
}
[ -n "$(lanes 1)" ] || { fail "no lane kernels in --list"; finish; }

# --- serial: the single kind's winner, stream by stream -------------------
# A wins the single kind at 3; serial runs it, so it beats lanes at 2.
tune "$A=3,3,3 $(lanes 2)"
[ $rc -eq 0 ] && grep -q '^set_keys_kernel = serial$' "$tmp/c.conf" &&
	grep -q '^crypt_many_kernel = serial$' "$tmp/c.conf" &&
	grep -q "^kernel = $A\$" "$tmp/c.conf" &&
	grep -q "^; serial: $A key by key and stream by stream\$" "$tmp/c.conf" &&
	ok "every lane kernel slower than the single winner: serial for both batch calls" ||
	{ fail "serial"; show; }
# Lanes faster than the single winner: one of them, not serial.
tune "$A=3,3,3 $(lanes 4)"
[ $rc -eq 0 ] && grep -q '^set_keys_kernel = ' "$tmp/c.conf" &&
	grep -q '^crypt_many_kernel = ' "$tmp/c.conf" &&
	! grep -Eq '^(set_keys|crypt_many)_kernel = serial$' "$tmp/c.conf" &&
	ok "lane kernels faster than the single winner: a lane kernel for both calls" ||
	{ fail "lanes"; show; }
# One choice per call: lanes ahead at setting up keys and behind at
# streams (Zen 3's case): a lane kernel for rc4tune_set_keys, serial for
# rc4tune_crypt_many, each call never below serial.
tune "$A=3,3,3 $(lanes 4 set_keys) $(lanes 2 crypt_many)"
[ $rc -eq 0 ] && grep -q '^crypt_many_kernel = serial$' "$tmp/c.conf" &&
	grep -q '^set_keys_kernel = ' "$tmp/c.conf" &&
	! grep -q '^set_keys_kernel = serial$' "$tmp/c.conf" &&
	grep -Eq '^;@ result key=crypt_many_kernel value=serial ' "$tmp/c.conf" &&
	ok "lanes ahead for keys, behind for streams: set_keys_kernel a lane kernel, crypt_many_kernel = serial" ||
	{ fail "one choice per call"; show; }

# --- placements: a kernel scores at its worst -----------------------------
# B is 20 % ahead of A at every placement but one (2), where it is 20 %
# behind.
tune "$A=100,100,100 $B=120,120,120 $B@2=80,80,80"
[ $rc -eq 0 ] && grep -q "^kernel = $A\$" "$tmp/c.conf" &&
	ok "a kernel slow at one placement loses to one steady at all" ||
	{ fail "worst placement"; show; }
tune "$A=100,100,100 $B=120,120,120 $B@2=110,110,110"
[ $rc -eq 0 ] && grep -q "^kernel = $B\$" "$tmp/c.conf" &&
	ok "its worst placement still ahead: it wins" ||
	{ fail "worst placement ahead"; show; }
# Noise within placements is no placement's fault: with every rate off
# by up to 10 % (the seam's fixed sequence) and no placement slower, the
# worst placement costs the median of six kernels under 2 % and each
# under 4 %; taken for placements' costs, the same noise costs the median
# 3.6-5.5 %.  (The sequence is one fixed draw: one kernel's cost alone
# passed 0.985 from 9 starting points of it in 10, so a change in the
# order the engine takes its samples could fail that with no fault.)  A
# placement 20 % slower still shows.
export RC4TUNE_SEAM_NOISE=0.1
six="$A $B int-8x long-8x char-1x int-1x"
RC4TUNE_SEAM_RATES=$(for k in $six; do printf '%s=100,100,100 ' "$k"; done) \
	seam --speed --json $six >"$tmp/json" 2>"$tmp/err"
placed=$(sed -n 's/.*"placed": \([0-9.]*\)}.*/\1/p' "$tmp/json" | sort -n | tr '\n' ' ')
echo "$placed" | awk '{ exit !(NF == 6 && $1 >= 0.96 && ($3 + $4) / 2 >= 0.98) }' &&
	ok "noise within placements costs no kernel (placed $placed)" ||
	{ fail "noise taken for a placement: placed $placed"; cat "$tmp/err"; }
tune "$A=100,100,100 $B=120,120,120 $B@2=80,80,80"
[ $rc -eq 0 ] && grep -q "^kernel = $A\$" "$tmp/c.conf" &&
	ok "with that noise, a placement 20 % slower still loses" ||
	{ fail "worst placement under noise"; show; }
unset RC4TUNE_SEAM_NOISE

# --json says what the worst placement cost each kernel.
RC4TUNE_SEAM_RATES="$A=100,100,100 $B=120,120,120 $B@2=80,80,80" \
	seam --speed --json "$A" "$B" >"$tmp/json" 2>"$tmp/err"
grep -q "\"name\": \"$A\", .*\"score\": 100, .*\"placed\": 1.0000}" "$tmp/json" &&
	grep -q "\"name\": \"$B\", .*\"score\": 80, .*\"placed\": 0.6667}" "$tmp/json" &&
	ok "--json: each kernel's placed (its worst placement's cost)" ||
	{ fail "placed in --json"; cat "$tmp/err" "$tmp/json"; }

# --- one layout family per key ----------------------------------------
# val KEY: KEY's value in the section written.
val() { sed -n "s/^$1 = //p" "$tmp/c.conf"; }
# int-4x leads the single kind by 2.5 % (past the tie window, within the
# 5 % a family may cost); only char-8lane (8-bit, char-4x's
# family) beats one key at a time for set_keys: the 8-bit family wins,
# both calls of it.
tune "$A=100,100,100 $B=97.5,97.5,97.5 char-8lane/set_keys=300,300,300"
[ $rc -eq 0 ] && [ "$(val kernel)" = "$B" ] &&
	[ "$(val set_keys_kernel)" = char-8lane ] &&
	grep -q "family: $B (0.975 of $A)" "$tmp/c.conf" &&
	case $(val crypt_many_kernel) in serial | char-*) : ;; *) false ;; esac &&
	ok "family: $B at 0.975 of $A, for char-8lane's keys: $B and char-8lane written" ||
	{ fail "family: the 8-bit family's lanes did not move the kernel"; show; }
# serials SET_KEYS CRYPT_MANY: the kernels serial was timed on, in that order
serials() {
	[ "$(sed -n 's/^; serial: \([^ ]*\) key by key.*/\1/p' "$tmp/c.conf" |
		tr '\n' ' ')" = "$1 $2 " ]
}
# timed again where serial on $B might lead: for crypt_many (every lane at
# 1), not for set_keys (serial's 97.5, and 10 % more, behind 300)
serials "$A" "$B" &&
	grep -q "serial was timed on $A, not on $B" "$tmp/c.conf" &&
	ok "family: set_keys not timed again (serial far behind), crypt_many timed again on $B" ||
	{ fail "family: which batch calls were timed again"; show; }
# serial's estimate on $B is by its 1024-byte cell for crypt_many: $B at
# 88 with 140 there (a score of 0.965 of $A) puts serial at 154 with the
# 10 %: above a lane at 150 (timed again), below one at 170 (not)
for case in "150:$B" "170:$A"; do
	tune "$A=100,100,100 $B=88,88,88 $B:1024=140,140,140 char-8lane/set_keys=300,300,300 char-4lane/crypt_many=${case%:*},${case%:*},${case%:*}"
	[ $rc -eq 0 ] && [ "$(val kernel)" = "$B" ] && serials "$A" "${case#*:}" &&
		ok "family: char-4lane at ${case%:*}: crypt_many's serial timed on ${case#*:}" ||
		{ fail "family: crypt_many's serial with a lane at ${case%:*}"; show; }
done
# never scaled down: $B at 107 with 60 at 1024 bytes (0.953 of $A) would
# put serial at 66 against char-4lane's 90, but serial as timed on $A is
# at 100, ahead: timed again on $B (at 60), char-4lane written
tune "$A=100,100,100 $B=107,107,107 $B:1024=60,60,60 char-8lane/set_keys=300,300,300 char-4lane/crypt_many=90,90,90"
[ $rc -eq 0 ] && [ "$(val kernel)" = "$B" ] && serials "$A" "$B" &&
	[ "$(val crypt_many_kernel)" = char-4lane ] &&
	ok "family: serial ahead as timed on $A: crypt_many timed again on $B, char-4lane written" ||
	{ fail "family: serial's figure on another kernel chosen from"; show; }
# sure by its layout: $B ties $A at 99, 99 and 96 and is written (the
# earliest in registry order), its bound 0.960, under 0.98: uncertain,
# unless its layout's lanes win the batch calls (char-8lane at 300), for
# then the family step would have written it had $A led; at 99, 99 and 93
# (a bound of 0.930, past the 5 %) uncertain again
for case in ":96:uncertain" "char-8lane/set_keys=300,300,300:96:high" \
	"char-8lane/set_keys=300,300,300:93:uncertain"; do
	lanes=${case%%:*} rest=${case#*:}
	tune "$A=100,100,100 $B=99,99,${rest%:*} $lanes"
	[ $rc -eq 0 ] && [ "$(val kernel)" = "$B" ] &&
		grep -q "^;@ result key=kernel value=$B confidence=${rest#*:} " "$tmp/c.conf" &&
		{ [ "${rest#*:}" = uncertain ] || grep -q "^; family: sure, though $A may lead" "$tmp/c.conf"; } &&
		ok "family: $B at 99, 99 and ${rest%:*} of $A${lanes:+, $lanes}: ${rest#*:}" ||
		{ fail "family: confidence of $B at ${rest%:*}${lanes:+ with $lanes}"; show; }
done
# A prior kept, then sure by its layout: each step's comment on a line of
# its own, whole (on one line, the config's line limit cut the second).
# Run twice into one file: $B written by the tie, then kept though $A
# leads by 3 % in two phases of three.
again() {
	RC4TUNE_SEAM_RATES=$1 seam --generate-conf --quiet \
		--output "$tmp/p.conf" 2>"$tmp/err"
}
again "$A=100,100,100 $B=99,99,96 char-8lane/set_keys=300,300,300" &&
	again "$A=100,100,100 $B=97,97,99.5 char-8lane/set_keys=300,300,300" &&
	grep -q "^; prior: kept $B (the section's): $A was not surely more than 2.0 % ahead of it (at least 1.005 of it at 95 %)\$" "$tmp/p.conf" &&
	grep -q "^; family: sure, though $A may lead by more than 2.0 %: at least 0.970 of it at 95 %, of another layout\$" "$tmp/p.conf" &&
	ok "prior kept, then sure by its layout: a whole comment line for each" ||
	{ fail "the prior's and the family's comments"; cat "$tmp/err"; grep -v '^;@' "$tmp/p.conf"; }
# the same at 0.90: past the 5 %, too dear for the single stream; set_keys is then
# chosen within int-4x's family (its lanes at 1: serial)
tune "$A=100,100,100 $B=90,90,90 char-8lane/set_keys=300,300,300"
[ $rc -eq 0 ] && [ "$(val kernel)" = "$A" ] &&
	[ "$(val set_keys_kernel)" = serial ] &&
	ok "family: $B at 0.90 of $A stays out; set_keys of $A's family (serial), not char-8lane" ||
	{ fail "family: a kernel 10 % slower taken, or a batch kernel of another family written"; show; }
# within 5 % by its score but not surely: the bound is a sign test on the
# rounds' ratios, so with $A at 100, 90 and 110 in the three phases and
# $B at 96, 85 and 104, $B scores 0.96 (its median against $A's) while
# the ratio is below 0.946 in two phases of three: $B stays out.  At 96,
# 86 and 105 (0.960 again, the ratio at least 0.954 in every phase) it
# goes in.  No noise: the same in every build.
tune "$A=100,90,110 $B=96,85,104 char-8lane/set_keys=300,300,300"
[ $rc -eq 0 ] && [ "$(val kernel)" = "$A" ] &&
	[ "$(val set_keys_kernel)" = serial ] &&
	grep -q "^;@ history key=kernel .* scores=$A:1.000,$B:0.960," "$tmp/c.conf" &&
	ok "family: $B at 0.960 of $A but a bound under 0.95 stays out" ||
	{ fail "family: a kernel taken on its score alone, its bound below 0.95"; show; }
tune "$A=100,90,110 $B=96,86,105 char-8lane/set_keys=300,300,300"
[ $rc -eq 0 ] && [ "$(val kernel)" = "$B" ] &&
	grep -q "^; family: $B (0.960 of $A)" "$tmp/c.conf" &&
	grep -q "^;@ basis key=kernel lower=0.95[4-6] " "$tmp/c.conf" &&
	ok "family: $B at 0.960 of $A with a bound over 0.95 goes in" ||
	{ fail "family: a kernel surely within 5 % left out"; show; }
finish
