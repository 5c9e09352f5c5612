#!/bin/sh
# SPDX-License-Identifier: MIT
# test_fleet.sh - a fleet file of 500 CPU models (rc4tune(1), FLEETS): 500
# hosts' files, one model each as --generate-conf writes it (about 8 KB:
# record, history, speed tables; tests/helpers/fleetgen.py, sealed by seal.py),
# merge into one file the library reads (each section its keys and its
# record, rc4tune.conf(5), What a fleet file carries), and the library's
# first use reads it whole (tests/helpers/firstuse; its time is printed, not
# asserted).
#
# Environment (make check sets it): RC4TUNE, RC4TUNE_TEST_DATA, FIRSTUSE.
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE:?set RC4TUNE to the rc4tune binary}"
: "${RC4TUNE_TEST_DATA:?set RC4TUNE_TEST_DATA to the source tests/}"
: "${FIRSTUSE:?set FIRSTUSE to tests/helpers/firstuse}"
command -v python3 >/dev/null || skip "no python3 for fleetgen.py"
models=500

# fleet_hosts DIR N WORST: N hosts' files DIR/hostI.conf (fleetgen.py, with
# FLEETGEN_WORST=WORST), sealed all at once: one file, DIR.all, its
# sections split again.
fleet_hosts() {
	mkdir "$1" && FLEETGEN_WORST=$3 FLEETGEN_KERNELS=$("$RC4TUNE" --list | awk '{ print $1 }') \
		python3 "$RC4TUNE_TEST_DATA/helpers/fleetgen.py" "$2" "$1" &&
		cat "$1"/host*.conf >"$1.all" && seal "$1.all" && rm "$1"/host*.conf &&
		awk -v d="$1" '/^\[/ { f = d "/host" n++ ".conf" } { print > f }' "$1.all" ||
		exit 99
}
fleet_hosts "$tmp/hosts" $models 0
echo "$models hosts' files, $(wc -c <"$tmp/hosts.all") bytes in all"
"$RC4TUNE" --check-conf "$tmp/hosts/host0.conf" | grep -q "the tuner's" ||
	fail "a host's file: its section not the tuner's"

"$RC4TUNE" --merge "$tmp/hosts"/host*.conf --output "$tmp/fleet.conf" --quiet \
	2>"$tmp/err" || { fail "the merge of $models models: exit $?"; cat "$tmp/err"; finish; }
bytes=$(wc -c <"$tmp/fleet.conf" 2>/dev/null || echo 0)
echo "fleet file: $(grep -c '^\[cpu ' "$tmp/fleet.conf") models, $bytes bytes (the library reads 262144)"
[ "$(grep -c '^\[cpu ' "$tmp/fleet.conf")" -eq $models ] && [ "$bytes" -le 262144 ] &&
	ok "$models models merged into one file the library reads" ||
	fail "$models models: not one file the library reads"
"$RC4TUNE" --check-conf "$tmp/fleet.conf" >"$tmp/out" 2>&1 &&
	[ "$(grep -c "the tuner's (rc4tune" "$tmp/out")" -eq $models ] &&
	ok "--check-conf: every section the tuner's, sealed" ||
	{ fail "--check-conf on the fleet file"; tail -5 "$tmp/out"; }
grep -q '^; written by' "$tmp/fleet.conf" || grep -q '^;@ history' "$tmp/fleet.conf" &&
	fail "tables or history in the fleet file" || ok "no tables, no history"

# The library's first use on the fleet file: the whole file read and
# trusted (no refusal in the trail), this CPU's section used where the
# fleet has one.  Its time beside a one-section file's is printed, not
# asserted: a ratio of microseconds moves with the build (ASan, valgrind)
# and the load, and failed the sanitizer pass at random.
RC4TUNE_DEBUG=1 RC4TUNE_CONF=$tmp/fleet.conf ${TEST_EMULATOR-} "$FIRSTUSE" \
	>"$tmp/first" 2>"$tmp/trail" || fail "first use on the fleet file: exit $?"
grep -q "^librc4tune: config $tmp/fleet.conf: read\$" "$tmp/trail" &&
	! grep -q "ignored" "$tmp/trail" &&
	ok "first use on $models models: the file read whole" ||
	{ fail "first use on the fleet file: not read"; cat "$tmp/trail"; }
here=$("$RC4TUNE" --section 2>/dev/null)
if [ -n "$here" ] && grep -qxF "[$here]" "$tmp/fleet.conf"; then
	want=$(sed -n "/^\[$here\]\$/,/^\[/s/^kernel = //p" "$tmp/fleet.conf" | head -1)
	[ "$(cut -d' ' -f2 "$tmp/first")" = "$want" ] &&
		ok "first use on the fleet file: [$here]'s kernel, $want" ||
		fail "first use on the fleet file: $(cat "$tmp/first"), not [$here]'s $want"
else
	echo "# [$here]: not among the fleet's models, so no kernel of its to check"
fi
# The worst case of rc4tune.conf(5)'s "at least N CPU models fit": the
# longest names, every result uncertain (fleetgen.py, FLEETGEN_WORST); N
# read from the page, so that the page says what this holds.
page=$RC4TUNE_TEST_DATA/../man/rc4tune.conf.5.in
worst=$(tr '\n' ' ' <"$page" | sed -n 's/.*so that at least \([0-9]*\) CPU models fit.*/\1/p')
if [ -z "$worst" ]; then
	fail "rc4tune.conf(5) says no \"at least N CPU models fit\""
else
	fleet_hosts "$tmp/worst" "$worst" 1
	"$RC4TUNE" --merge "$tmp/worst"/host*.conf --output "$tmp/worst-fleet.conf" --quiet 2>"$tmp/err" &&
		"$RC4TUNE" --check-conf "$tmp/worst-fleet.conf" >"$tmp/out" 2>&1 &&
		[ "$(grep -c 'uncertain (phases); set_keys_kernel uncertain' "$tmp/out")" -eq "$worst" ] &&
		ok "the worst case: $worst models, every result uncertain, the longest names, in $(wc -c <"$tmp/worst-fleet.conf") bytes" ||
		{ fail "the worst case: $worst models do not fit"; cat "$tmp/err"; tail -n 3 "$tmp/out"; }
fi

sed -n '/^\[/,$p' "$tmp/hosts/host0.conf" >"$tmp/one.conf"
one=$(RC4TUNE_CONF=$tmp/one.conf ${TEST_EMULATOR-} "$FIRSTUSE" | cut -d' ' -f1)
fleet=$(cut -d' ' -f1 "$tmp/first")
echo "# first use (printed, not held): $one us on a one-section file, $fleet us on the $models-model file"
finish
