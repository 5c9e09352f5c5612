#!/bin/sh
# SPDX-License-Identifier: MIT
# test_kill.sh - SIGKILL rc4tune --generate-conf at random moments
# (rc4tune(1), LOCKING): the config is always the old file byte for byte, or
# a complete new one (every other line kept, --check-conf clean, the library
# reads its kernel); a killed run's temporary file is never read as the
# config and does not stop the next run.
#
# Environment (make check sets it): RC4TUNE, the rc4tune binary.
# KILL_TRIALS: how many kills (40); KILL_DELAYS: the delays in seconds,
# blank-separated, to replay a run (it prints the ones it drew).
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE:?set RC4TUNE to the rc4tune binary}"
TRIALS=${KILL_TRIALS:-40}


live_section "$RC4TUNE"
section=$live

# The old file: this CPU's section between others, and enough other CPUs'
# profiles that writing it takes a while.
conf=$tmp/rc4tune.conf
{
	echo '; fleet profiles: every line but this CPU section stays'
	echo '[default]'
	echo 'kernel = char-1x'
	echo
	echo "[$section]"
	echo '; old profile'
	echo 'kernel = int-1x'
	echo
	i=0
	while [ $i -lt 2000 ]; do
		echo "[cpu FleetVendor 6 $i]"
		echo 'kernel = int-8x'
		i=$((i + 1))
	done
	echo '; end of the fleet'
} >"$conf"
chmod 644 "$conf"
cp "$conf" "$tmp/old"

# FILE without this CPU's section (header to the next header).
others() {
	awk -v h="[$section]" '$0 == h { skip = 1; next }
		/^\[/ { skip = 0 } !skip' "$1"
}
others "$tmp/old" >"$tmp/old.others"

# A complete run, to know how long one takes (milliseconds).
start=$(date +%s%N)
"$RC4TUNE" --generate-conf --budget 0.2 --quiet --output "$tmp/full" || {
	echo "FAIL: an uninterrupted run failed"; exit 1; }
span=$((($(date +%s%N) - start) / 1000000))

# check WHAT: the config is the old file or a complete new one.
check() {
	if cmp -s "$conf" "$tmp/old"; then
		old=$((old + 1))
		return
	fi
	new=$((new + 1))
	others "$conf" | cmp -s - "$tmp/old.others" ||
		fail "$1: neither the old file nor a complete new one"
	"$RC4TUNE" --check-conf "$conf" >/dev/null 2>"$tmp/err" ||
		{ fail "$1: the new file does not pass --check-conf"; cat "$tmp/err"; }
	kernel=$(awk -v h="[$section]" '$0 == h { in_s = 1; next }
		/^\[/ { in_s = 0 } in_s && /^kernel = / { print $3 }' "$conf")
	RC4TUNE_CONF=$conf "$RC4TUNE" --explain >"$tmp/explain" 2>&1
	[ -n "$kernel" ] && [ "$(head -n 1 "$tmp/explain")" = "$kernel" ] ||
		{ fail "$1: the library does not take kernel '$kernel'"; cat "$tmp/explain"; }
	cp "$tmp/old" "$conf" # the next trial starts from the old file again
}

# Kill at random moments over the whole run, more of them late, where the
# file is written: a delay in [0, 1.2 x span] ms, squared toward the end.
if [ -z "${KILL_DELAYS:-}" ]; then
	KILL_DELAYS=$(od -An -N"$((TRIALS * 2))" -tu2 /dev/urandom |
		awk -v s="$span" '{ for (i = 1; i <= NF; i++) { f = $i / 65535
			printf "%s%.3f", n++ ? " " : "", (1 - (1 - f) * (1 - f)) * s * 1.2 / 1000 } }')
fi
TRIALS=$(echo $KILL_DELAYS | wc -w)
echo "kill delays (replay: KILL_DELAYS='$KILL_DELAYS')"
old=0 new=0 leftovers=0 trial=1
for delay in $KILL_DELAYS; do
	"$RC4TUNE" --generate-conf --force --budget 0.2 --quiet --output "$conf" &
	pid=$!
	sleep "$delay"
	kill -KILL $pid 2>/dev/null
	wait $pid 2>/dev/null
	check "trial $trial (killed after ${delay}s)"
	n=$(find "$tmp" -maxdepth 1 -name '.rc4tune.conf.*' | wc -l)
	leftovers=$((leftovers + n))
	trial=$((trial + 1))
	[ $trial -le "$TRIALS" ] || break
done
echo "$TRIALS kills over ${span} ms runs: $old left the old file, $new the new one; $leftovers temporary files left"

# A killed run's temporary file, complete or cut, is not the config: the
# library reads the config's kernel, and the next run replaces the config.
head -c 3000 "$tmp/full" >"$tmp/.rc4tune.conf.AbC123"
cp "$tmp/full" "$tmp/.rc4tune.conf.dEf456"
cp "$tmp/old" "$conf"
RC4TUNE_CONF=$conf "$RC4TUNE" --explain >"$tmp/explain" 2>&1
grep -q "config .*rc4tune.conf: read" "$tmp/explain" &&
	[ "$(head -n 1 "$tmp/explain")" = int-1x ] ||
	{ fail "with leftover temporary files the library did not read the config"; cat "$tmp/explain"; }
old=0 new=0
"$RC4TUNE" --generate-conf --force --budget 0.2 --quiet --output "$conf" ||
	fail "a run after killed runs failed"
check "the run after the killed ones"
[ "$new" -gt 0 ] || fail "the run after the killed ones left the old file"
cmp -s "$tmp/.rc4tune.conf.dEf456" "$tmp/full" ||
	fail "the next run touched another run's temporary file"

[ $fails -eq 0 ] && echo "PASS: $TRIALS kills" || echo "$fails failure(s)"
[ $fails -eq 0 ]
