#!/bin/sh
# SPDX-License-Identifier: MIT
# test_record.sh - whose a section is: the record the tuner writes
# (rc4tune.conf(5), THE RECORD), checked against tests/helpers/seal.py's own
# reading of the format; a section a person wrote or edited is kept unless
# --force; [pin] outranks this CPU's section and no run changes it; the
# history keeps the last runs.  Short budgets; no timing is asserted.
#
# Environment (make check sets it): RC4TUNE, the rc4tune binary;
# RC4TUNE_SEAM, tests/helpers/rc4tune_seam (made-up rates); RC4TUNE_TEST_DATA, the
# source tree's tests/; TEST_EMULATOR, if set, runs a cross-built program.
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE:?set RC4TUNE to the rc4tune binary}"
: "${RC4TUNE_SEAM:?set RC4TUNE_SEAM to tests/helpers/rc4tune_seam}"
: "${RC4TUNE_TEST_DATA:?set RC4TUNE_TEST_DATA to the source tests/}"
command -v python3 >/dev/null || { echo "SKIP: no python3 for seal.py"; exit 77; }

# tune FILE [ARGS...]: a short --generate-conf into FILE; $rc, $tmp/out,
# $tmp/err.
tune() {
	f=$1
	shift
	"$RC4TUNE" --generate-conf --budget 0.2 --output "$f" "$@" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
}

live_section "$RC4TUNE"
tune "$tmp/a.conf" --quiet
[ "$(head -n 1 "$tmp/a.conf")" = "[$live]" ] ||
	{ fail "the section written is not [$live] (rc4tune --section)"; cat "$tmp/err"; }

# --- the record: its lines, its sum as seal.py computes it ---------------
cp "$tmp/a.conf" "$tmp/a.sealed"
seal "$tmp/a.sealed"
k=$(sed -n 's/^kernel = //p' "$tmp/a.conf")
b=$(sed -n 's/^crypt_many_kernel = //p' "$tmp/a.conf")
sk=$(sed -n 's/^set_keys_kernel = //p' "$tmp/a.conf")
if [ $rc -eq 0 ] && cmp -s "$tmp/a.conf" "$tmp/a.sealed" &&
	sed -n 2p "$tmp/a.conf" | grep -Eq '^;@ rc4tune v=3 at=20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z by=[^ ]+ sum=[0-9a-f]{16}$' &&
	grep -Eq "^;@ result key=kernel value=$k confidence=(high|uncertain) why=[-a-z]+$" "$tmp/a.conf" &&
	grep -Eq "^;@ result key=crypt_many_kernel value=$b confidence=(high|uncertain) why=[-a-z]+$" "$tmp/a.conf" &&
	grep -Eq "^;@ result key=set_keys_kernel value=$sk confidence=(high|uncertain) why=[-a-z]+$" "$tmp/a.conf" &&
	[ "$(grep -c '^;@ history key=kernel at=.* scores=[^ ]*:1\.000' "$tmp/a.conf")" -eq 1 ] &&
	(for key in kernel set_keys_kernel crypt_many_kernel; do
		grep -Eq "^;@ basis key=$key lower=(-|[0-9]+\.[0-9]{3}) window=0\.0[23][0-9] finalists=[1-9][0-9]* rounds=[0-9]+\$" "$tmp/a.conf" || exit 1
	done) &&
	[ "$(awk 'length > 198' "$tmp/a.conf" | wc -l)" -eq 0 ]; then
	ok "record: rc4tune, result, basis and history lines; seal.py computes the same sum"
else
	fail "record: rc=$rc"; cat "$tmp/err" "$tmp/a.conf"
fi
"$RC4TUNE" --check-conf "$tmp/a.conf" >"$tmp/out" 2>&1
res='(confident|uncertain) \([^()]*\)'
grep -Eq "a.conf:1: \[$live\]: the tuner's \(rc4tune [^ ]+, [0-9T:-]+Z; kernel $res; set_keys_kernel $res; crypt_many_kernel $res\)\$" "$tmp/out" &&
	ok "--check-conf: the tuner's section" ||
	{ fail "--check-conf tuner's"; cat "$tmp/out"; }

# --- the report's comments are not the record ---------------------------
grep -v '^; ' "$tmp/a.conf" >"$tmp/bare.conf"
"$RC4TUNE" --check-conf "$tmp/bare.conf" >"$tmp/out" 2>&1
grep -q "\[$live\]: the tuner's" "$tmp/out" &&
	ok "without the report's comments the section is still the tuner's" ||
	{ fail "bare record"; cat "$tmp/out"; }

# --- a person's edit lasts; --force replaces it ---------------------------
# kept FILE WHAT LINE: the run left FILE as FILE.before, exit 0, and said so
# on stderr in one line even with --quiet
kept() {
	if left_said "$1" "$1.before" "^rc4tune: kept \[$live\] in $1 (line $3): it is a person's: $2; rc4tune --generate-conf --force replaces it$"; then
		ok "kept, exit 0, said with --quiet: $2"
	else
		fail "not kept ($2): rc=$rc"; cat "$tmp/err"; diff "$1.before" "$1"
	fi
}
sed 's/^kernel = .*/kernel = int-1x/' "$tmp/a.conf" >"$tmp/edit.conf"
cp "$tmp/edit.conf" "$tmp/edit.conf.before"
tune "$tmp/edit.conf" --quiet
kept "$tmp/edit.conf" "edited since rc4tune wrote it (its checksum differs)" 1
RC4TUNE_CONF=$tmp/edit.conf "$RC4TUNE" --explain >"$tmp/out" 2>&1
[ "$(head -n 1 "$tmp/out")" = int-1x ] &&
	grep -q "^config $tmp/edit.conf:1: \[$live\]: a person's: edited" "$tmp/out" &&
	ok "--explain: the edited kernel, and whose the section is" ||
	{ fail "--explain edited"; cat "$tmp/out"; }

# a key a person added to the tuner's section makes it theirs too
{ cat "$tmp/a.conf"; echo 'kernel = int-4x'; } >"$tmp/add.conf"
cp "$tmp/add.conf" "$tmp/add.conf.before"
tune "$tmp/add.conf" --quiet
kept "$tmp/add.conf" "edited since rc4tune wrote it (its checksum differs)" 1

# hand-written, and a person's duplicate after the tuner's section
printf '[default]\nkernel = int-8x\n\n[%s]\nkernel = int-1x\n' "$live" >"$tmp/hand.conf"
cp "$tmp/hand.conf" "$tmp/hand.conf.before"
tune "$tmp/hand.conf" --quiet
kept "$tmp/hand.conf" "no rc4tune record" 4
{ cat "$tmp/a.conf"; printf '\n[ %s ]\nkernel = int-1x\n' "$live"; } >"$tmp/dup.conf"
cp "$tmp/dup.conf" "$tmp/dup.conf.before"
line=$(grep -n "^\[ $live \]" "$tmp/dup.conf" | cut -d: -f1)
tune "$tmp/dup.conf" --quiet
kept "$tmp/dup.conf" "no rc4tune record" "$line"
"$RC4TUNE" --generate-conf --if-missing --budget 0.2 --output "$tmp/hand.conf" \
	>"$tmp/out" 2>&1
[ $? -eq 0 ] && cmp -s "$tmp/hand.conf" "$tmp/hand.conf.before" &&
	grep -q "is a person's: no rc4tune record: nothing to do" "$tmp/out" &&
	ok "--if-missing: a person's section is nothing to do" ||
	{ fail "--if-missing person's"; cat "$tmp/out"; }

# Two of the tuner's sections for this CPU, the first confident, the
# second uncertain: the library reads the second's kernel (the later line),
# so --if-missing judges that one, and measures again.
{ record_fixture "$live" int-1x high -; echo
	fixture_at=2026-02-01T00:00:00Z record_fixture "$live" int-4x uncertain busy; } >"$tmp/dup2.conf"
seal "$tmp/dup2.conf"
"$RC4TUNE" --generate-conf --if-missing --budget 0.2 --output "$tmp/dup2.conf" \
	>"$tmp/out" 2>&1
[ $? -eq 0 ] && grep -q "is marked uncertain (busy): measuring again" "$tmp/out" &&
	[ "$(grep -c "^\[$live\]" "$tmp/dup2.conf")" -eq 1 ] &&
	ok "--if-missing: judges the duplicate the library uses (the uncertain one)" ||
	{ fail "--if-missing judged the first duplicate"; cat "$tmp/out"; }

# again_if_missing NAME SAID WHAT KEYS...: this CPU's section, confident
# and sealed, with the record and key lines KEYS (printf's format), is
# one that --if-missing measures again, saying SAID; WHAT for the report.
again_if_missing() {
	name=$1 said=$2 what=$3
	shift 3
	printf "[%s]\n$*" "$live" >"$tmp/$name.conf"
	seal "$tmp/$name.conf"
	"$RC4TUNE" --check-conf "$tmp/$name.conf" 2>&1 | grep -q "\[$live\]: the tuner's" ||
		fail "the $name fixture is not the tuner's"
	"$RC4TUNE" --generate-conf --if-missing --budget 0.2 --output "$tmp/$name.conf" \
		>"$tmp/out" 2>&1
	[ $? -eq 0 ] && grep -q "$said: measuring again" "$tmp/out" &&
		ok "--if-missing: $what is measured again" ||
		{ fail "--if-missing kept $what"; cat "$tmp/out"; }
}
# An earlier version's pairing of layouts (8-bit lanes for a 32-bit
# kernel's keys): the library passes the batch kernel over (librc4tune(3),
# Many keys at once).
again_if_missing pair \
	"line [0-9]*: set_keys_kernel = char-8lane: its cells are not the single-stream kernel.s: one layout family per key" \
	"a batch kernel of another layout than the kernel's" \
	';@ rc4tune v=1 at=2026-01-01T00:00:00Z by=0.2.0 sum=0000000000000000\n;@ result key=kernel value=int-1x confidence=high why=-\n;@ result key=set_keys_kernel value=char-8lane confidence=high why=-\nset_keys_kernel = char-8lane\nkernel = int-1x\n'
# A split whose short kernel this build does not have: every key the
# tuner wrote must be one the library uses.
again_if_missing gone \
	"line 6: short_kernel = int-9x-gone: unknown kernel" \
	"a split with a short kernel the library cannot use" \
	';@ rc4tune v=2 at=2026-01-01T00:00:00Z by=0.3.0 sum=0000000000000000\n;@ result key=kernel value=int-4x confidence=high why=-\n;@ split short=int-9x-gone below=64 gain=1.100 ratios=16:1.200\nshort_below = 64\nshort_kernel = int-9x-gone\nkernel = int-4x\n'
grep -q '^short_kernel = int-9x-gone' "$tmp/gone.conf" &&
	fail "--if-missing measured again, but left the split the library drops"

tune "$tmp/edit.conf" --quiet --force
cp "$tmp/edit.conf" "$tmp/edit.sealed"
seal "$tmp/edit.sealed"
# Replaced, whichever kernel won (int-1x may win again): the edited
# section's sum did not match, a sealed one does.
[ $rc -eq 0 ] && cmp -s "$tmp/edit.conf" "$tmp/edit.sealed" &&
	"$RC4TUNE" --check-conf "$tmp/edit.conf" 2>&1 | grep -q "\[$live\]: the tuner's" &&
	ok "--force: the edited section replaced, the tuner's again" ||
	{ fail "--force: rc=$rc"; cat "$tmp/err" "$tmp/edit.conf"; }

# --- [pin]: outranks this CPU's section; no run changes it ---------------
{ printf '; the sysadmin\n[pin]\nkernel = int-1x\nbatch_kernel = int-2lane\n\n'; cat "$tmp/a.conf"; } >"$tmp/pin.conf"
head -n 5 "$tmp/pin.conf" >"$tmp/pin.head"
RC4TUNE_CONF=$tmp/pin.conf "$RC4TUNE" --explain >"$tmp/out" 2>&1
[ "$(head -n 1 "$tmp/out")" = int-1x ] &&
	grep -q '^set_keys_kernel int-2lane$' "$tmp/out" &&
	grep -q '^crypt_many_kernel int-2lane$' "$tmp/out" &&
	grep -q "chosen: int-1x (config line 3 \[pin\])" "$tmp/out" &&
	grep -q "pin.conf:2: \[pin\]: pinned" "$tmp/out" &&
	ok "[pin] outranks [$live] for every call (batch_kernel: both batch calls)" ||
	{ fail "[pin] selection"; cat "$tmp/out"; }
[ "$(RC4TUNE_KERNEL=int-4x RC4TUNE_CONF=$tmp/pin.conf "$RC4TUNE" --explain | head -n 1)" = int-4x ] &&
	ok "RC4TUNE_KERNEL outranks [pin]" || fail "RC4TUNE_KERNEL under [pin]"
# one family per key (librc4tune(3), "Many keys at once"): a kernel of 8-bit
# state forced, the pin's 32-bit lanes would leave keys to a kernel
# nobody chose: both batch calls pass them over, with the reason
RC4TUNE_KERNEL=char-1x RC4TUNE_CONF=$tmp/pin.conf "$RC4TUNE" --explain >"$tmp/out" 2>&1
sk=$(sed -n 's/^set_keys_kernel //p' "$tmp/out") cm=$(sed -n 's/^crypt_many_kernel //p' "$tmp/out")
[ "$(head -n 1 "$tmp/out")" = char-1x ] &&
	grep -q "set_keys: config line 4 \[pin\] batch_kernel: \"int-2lane\": its cells are not the single-stream kernel's" "$tmp/out" &&
	case "$sk $cm" in int-* | *" int-"*) false ;; *) : ;; esac &&
	ok "RC4TUNE_KERNEL=char-1x: the pin's int-2lane passed over by both batch calls ($sk, $cm)" ||
	{ fail "a batch kernel of another family than the kernel's"; cat "$tmp/out"; }
tune "$tmp/pin.conf" --quiet
head -n 5 "$tmp/pin.conf" | cmp -s - "$tmp/pin.head" &&
	[ $rc -eq 0 ] && grep -q "^\[$live\]" "$tmp/pin.conf" &&
	ok "a run under [pin] rewrites [$live] only" ||
	{ fail "run under [pin]: rc=$rc"; cat "$tmp/err"; head "$tmp/pin.conf"; }

# --- one reading of a section name: blanks inside count -----------------
# "[cpu  VENDOR ...]", two blanks or a tab, is another CPU's section for
# the library, the tuner and --explain alike: the run adds this CPU's, and
# the library reads it.
for sep in '  ' "$(printf '\t')"; do
	odd=$(printf '%s' "$live" | sed "s/ /$sep/")
	printf '[%s]\nkernel = int-1x\n' "$odd" >"$tmp/odd.conf"
	cp "$tmp/odd.conf" "$tmp/odd.before"
	tune "$tmp/odd.conf" --quiet
	k=$(awk -v h="[$live]" '$0 == h { p = 1 } p && /^kernel = / { print $3; exit }' "$tmp/odd.conf")
	RC4TUNE_CONF=$tmp/odd.conf "$RC4TUNE" --explain >"$tmp/out" 2>&1
	[ $rc -eq 0 ] && [ -n "$k" ] && [ "$(head -n 1 "$tmp/out")" = "$k" ] &&
		head -n 2 "$tmp/odd.conf" | cmp -s - "$tmp/odd.before" &&
		grep -q "^config $tmp/odd.conf:4: \[$live\]: the tuner's" "$tmp/out" &&
		! grep -q "odd.conf:1:" "$tmp/out" &&
		ok "[$odd] is not [$live]: the run adds [$live], which the library reads" ||
		{ fail "[$odd] read two ways: rc=$rc"; cat "$tmp/err" "$tmp/out" "$tmp/odd.conf"; }
done

# --- record values the tuner never writes: a person's section -----------
# A sealed score of 1e300 (%.3f would copy it back as 300 digits, a line
# the library refuses) or inf (it would outweigh every later run).
record_fixture "$live" int-4x high - "int-4x:1e300,char-4x:0.500" >"$tmp/big.conf"
seal "$tmp/big.conf"
cp "$tmp/big.conf" "$tmp/big.conf.before"
tune "$tmp/big.conf" --quiet
kept "$tmp/big.conf" "its record holds values rc4tune never writes" 1
tune "$tmp/big.conf" --quiet --force
[ $rc -eq 0 ] && "$RC4TUNE" --check-conf "$tmp/big.conf" >/dev/null 2>&1 &&
	! grep -q 1e300 "$tmp/big.conf" &&
	ok "--force replaces a record scored 1e300; the file stays one the library reads" ||
	{ fail "a score of 1e300: rc=$rc"; cat "$tmp/err"; }
record_fixture "$live" int-4x high - "int-4x:inf,char-4x:0.500" >"$tmp/inf.conf"
seal "$tmp/inf.conf"
RC4TUNE_SEAM_RATES="int-4x=50,50,50 char-4x=100,100,100" ${TEST_EMULATOR:-} \
	"$RC4TUNE_SEAM" --generate-conf --force --quiet --output "$tmp/inf.conf" \
	2>"$tmp/err"
grep -q '^kernel = char-4x$' "$tmp/inf.conf" &&
	ok "a score of inf does not keep its kernel against a run it lost in every phase" ||
	{ fail "a score of inf"; cat "$tmp/err"; grep '^;@\|^kernel' "$tmp/inf.conf"; }

# --- the history: this run first, then the earlier ones, at most four ---
cp "$tmp/a.conf" "$tmp/h.conf"
first=$(grep '^;@ history key=kernel ' "$tmp/a.conf")
for i in 1 2 3 4; do
	sleep 1 # each run's at= differs
	tune "$tmp/h.conf" --quiet --force
done
n=$(grep -c '^;@ history key=kernel ' "$tmp/h.conf")
nb=$(grep -c '^;@ history key=crypt_many_kernel ' "$tmp/h.conf")
newest=$(grep -m1 '^;@ rc4tune ' "$tmp/h.conf" | sed 's/.* at=\([^ ]*\) .*/\1/')
[ "$n" -eq 4 ] && [ "$nb" -eq 4 ] &&
	! grep -qF "$first" "$tmp/h.conf" &&
	grep -m1 '^;@ history key=kernel ' "$tmp/h.conf" | grep -q " at=$newest " &&
	[ "$(grep '^;@ history key=kernel ' "$tmp/h.conf" | sed 's/.* at=\([^ ]*\) .*/\1/' | sort -r | uniq | wc -l)" -eq 4 ] &&
	ok "history: four runs a key, newest first, the oldest dropped" ||
	{ fail "history: $n/$nb"; grep '^;@' "$tmp/h.conf"; }

finish
