#!/bin/sh
# test_trust.sh - whether the tuner's answer can be trusted: the budget
# holds under load (a bound on the overrun, not a speed: the old tuner took
# 23.5 s for --budget 0.5 so loaded), an uncertain result never replaces a
# confident section and is marked when written, --quiet still says so,
# --if-missing does nothing where this CPU is tuned, --explain tells a
# file tuned on another CPU.
#
# Environment (make check sets it): RC4TUNE, the rc4tune binary.
set -u
: "${RC4TUNE:?set RC4TUNE to the rc4tune binary}"
unset RC4TUNE_KERNEL RC4TUNE_CONF RC4TUNE_DEBUG
tmp=$(mktemp -d) || exit 99
busy=
trap 'stop_busy; rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# Two busy loops on CPU 0, where the tuner runs too (nice 19): it gets a
# sliver of one CPU.
pin=
command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null && pin='taskset -c 0'
start_busy() {
	for i in 1 2; do
		$pin sh -c 'while :; do :; done' &
		busy="$busy $!"
	done
}
loaded() { $pin nice -n 19 "$RC4TUNE" "$@"; }
stop_busy() {
	[ -n "$busy" ] && kill $busy 2>/dev/null
	busy=
}

if ! "$RC4TUNE" --heuristic >"$tmp/h" 2>&1; then
	echo "SKIP: this CPU is not identified: $(cat "$tmp/h")"
	exit 77
fi
live=$(cut -f 2 "$tmp/h" | sed 's/: .*//')

# A section an earlier, confident run wrote (the tuner's own comments).
confident() {
	printf '[default]\nkernel = int-8x\n\n[%s]\n; written by rc4tune\n; confidence: high\nkernel = %s\n' \
		"$live" "$1" >"$2"
}

# --- the budget is wall-clock time, whatever the load ------------------
# (not under an emulator, where the self-tests alone take seconds)
start_busy
if [ -n "${TEST_EMULATOR:-}" ]; then
	echo "SKIP: the budget's bound under an emulator"
else
	for b in 0.5 1; do
		t0=$(date +%s%N)
		loaded --speed --budget $b >"$tmp/out" 2>"$tmp/err"
		rc=$?
		ms=$((($(date +%s%N) - t0) / 1000000))
		# the budget plus 3 s: about 1 s on a plain build here (0.65 s
		# and 1.44 s), more under sanitizers or beside other tests
		limit=$(echo "$b" | awk '{ print int(($1 + 3) * 1000) }')
		if [ $rc -eq 0 ] && [ $ms -le "$limit" ]; then
			ok "--budget $b, nice 19 against two busy loops on its CPU: $ms ms"
		else
			fail "--budget $b under load: exit $rc after $ms ms (at most $limit)"
		fi
	done
fi

# --- an uncertain run keeps a confident section -------------------------
confident int-1x "$tmp/kept.conf"
cp "$tmp/kept.conf" "$tmp/kept.before"
loaded --generate-conf --quiet --budget 0.3 --output "$tmp/kept.conf" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && cmp -s "$tmp/kept.conf" "$tmp/kept.before" &&
	[ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q "warning: this run was uncertain (.*): kept the confident section \[$live\]" "$tmp/err"; then
	ok "uncertain run: the confident section kept, exit 0, one line in --quiet"
else
	fail "keep on uncertain: rc=$rc"; cat "$tmp/err"; diff "$tmp/kept.before" "$tmp/kept.conf"
fi

# --- with no confident section, an uncertain result is written, marked --
printf '[%s]\nkernel = int-1x\n' "$live" >"$tmp/new.conf" # hand-written
loaded --generate-conf --quiet --budget 0.3 --output "$tmp/new.conf" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
stop_busy
if [ $rc -eq 0 ] && grep -q '^; confidence: uncertain (' "$tmp/new.conf" &&
	! grep -q '^kernel = int-1x' "$tmp/new.conf" &&
	[ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q "warning: the result is uncertain (.*): written to \[$live\]" "$tmp/err"; then
	ok "uncertain run over a hand-written section: written, marked, said in --quiet"
else
	fail "uncertain written: rc=$rc"; cat "$tmp/err" "$tmp/new.conf"
fi
"$RC4TUNE" --generate-conf --json --budget 0.3 --output "$tmp/j.conf" >"$tmp/json" 2>/dev/null
if perl -MJSON::PP -e 1 2>/dev/null; then
	perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
		exit !($j->{confidence} =~ /^(high|uncertain)$/ &&
		       ($j->{confidence} eq "high") == !defined $j->{uncertain_because});' \
		<"$tmp/json" && ok "--json: confidence high|uncertain, and why" ||
		{ fail "--json confidence"; cat "$tmp/json"; }
fi

# --- --if-missing: nothing to do where this CPU is tuned ----------------
confident int-4x "$tmp/tuned.conf"
cp "$tmp/tuned.conf" "$tmp/tuned.before"
"$RC4TUNE" --generate-conf --if-missing --budget 3600 --output "$tmp/tuned.conf" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && cmp -s "$tmp/tuned.conf" "$tmp/tuned.before" &&
	grep -q "\[$live\] already has kernel = int-4x in $tmp/tuned.conf (line 7): nothing to do" "$tmp/out" &&
	ok "--if-missing on a tuned CPU: nothing done, said" ||
	{ fail "--if-missing tuned: rc=$rc"; cat "$tmp/out" "$tmp/err"; }
for case in "no section:[default]\nkernel = int-8x\n" \
	    "an unknown kernel:[$live]\nkernel = no-such\n"; do
	what=${case%%:*}
	printf "${case#*:}" >"$tmp/missing.conf"
	"$RC4TUNE" --generate-conf --if-missing --quiet --budget 0.3 \
		--output "$tmp/missing.conf" >/dev/null 2>&1
	rc=$?
	[ $rc -eq 0 ] && grep -q "^\[$live\]" "$tmp/missing.conf" &&
		! grep -q 'no-such' "$tmp/missing.conf" &&
		ok "--if-missing with $what: tuned" ||
		{ fail "--if-missing with $what: rc=$rc"; cat "$tmp/missing.conf"; }
done

# --- --explain: a file tuned on other CPUs only -------------------------
printf '[cpu NoSuchVendor 1 2]\nkernel = int-1x\n[cpu NoSuchVendor 3 4]\nkernel = int-4x\n' \
	>"$tmp/other.conf"
RC4TUNE_CONF=$tmp/other.conf "$RC4TUNE" --explain >"$tmp/out"
grep -q "config: no kernel in \[$live\], but 2 other CPU sections set one: tuned on another CPU" "$tmp/out" &&
	ok "--explain: tuned on another CPU" ||
	{ fail "--explain other CPU"; cat "$tmp/out"; }

# ... counted in sections, not keys: one section setting kernel thrice
printf '[cpu NoSuchVendor 1 2]\nkernel = int-1x\nkernel = int-4x\nkernel = int-8x\n' \
	>"$tmp/other.conf"
RC4TUNE_CONF=$tmp/other.conf "$RC4TUNE" --explain >"$tmp/out"
grep -q "config: no kernel in \[$live\], but 1 other CPU section set one: tuned on another CPU" "$tmp/out" &&
	ok "--explain: one other section setting kernel 3 times counts once" ||
	{ fail "--explain counts keys"; grep 'other CPU' "$tmp/out"; }

[ $fails -eq 0 ] || { echo "$fails failed"; exit 1; }
