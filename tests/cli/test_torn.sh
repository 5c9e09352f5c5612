#!/bin/sh
# SPDX-License-Identifier: MIT
# test_torn.sh - "old file or new file, never a torn one", deterministically
# (rc4tune(1), LOCKING): rc4tune --generate-conf (on the seam: instant) is
# stopped before each call it makes that could change the config on disk
# (tests/helpers/shim.c's RC4TUNE_SHIM_STOP: the temporary file's creation, mode,
# write and sync, the rename that publishes it, the sync of the directory),
# one stop a run.  At each stop the config is the old file or the run's new
# one byte for byte, and the library reads its kernel from it; a writer that
# replaced the file in place would be seen torn (truncated) at a stop.
#
# Environment (make check sets it): RC4TUNE_SEAM, tests/helpers/rc4tune_seam;
# RC4TUNE, the tuner; SHIM, tests/helpers/.libs/libshim.so.
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE_SEAM:?set RC4TUNE_SEAM to tests/helpers/rc4tune_seam}"
: "${RC4TUNE:?set RC4TUNE to the rc4tune binary}"
shim_for "$RC4TUNE_SEAM"

live_section "$RC4TUNE"
conf=$tmp/rc4tune.conf
fleet_fixture 200 >"$conf"
chmod 644 "$conf"
cp "$conf" "$tmp/old"

[ "$(kernel "$conf")" = int-1x ] || { echo "FAIL: the old file is not read"; exit 1; }

# The run (exec'ed, so that a run in the background is $!): int-8x wins
# on the seam, --force replaces the person's section.
run() {
	exec env LD_PRELOAD="$SHIM" RC4TUNE_SHIM_FILE="$conf" "$@" \
		RC4TUNE_SEAM_RATES='int-8x=100,100,100' "$RC4TUNE_SEAM" \
		--generate-conf --force --quiet --output "$conf"
}

# How many stops: the calls that change the disk, counted by a free run.
(run RC4TUNE_SHIM_COUNT="$tmp/count") 2>"$tmp/err" || {
	echo "FAIL: a run without stops failed"; cat "$tmp/err"; exit 1; }
[ -s "$tmp/count" ] || skip "the shim was not loaded"
cp "$conf" "$tmp/new0"
[ "$(kernel "$conf")" = int-8x ] || fail "the run without stops did not write int-8x"

stops=0 olds=0 news=0 n=1
while :; do
	cp "$tmp/old" "$conf"
	rm -f "$tmp/note"
	run RC4TUNE_SHIM_STOP=$n RC4TUNE_SHIM_NOTE="$tmp/note" 2>"$tmp/err" &
	pid=$!
	i=0
	while s=$(state $pid) && [ -n "$s" ] && [ "$s" != T ] && [ "$s" != Z ] &&
		[ $i -lt 6000 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	if [ "$s" = R ] || [ "$s" = S ] || [ "$s" = D ]; then
		fail "stop $n: the run neither stopped nor ended in 60 s"
		kill -KILL $pid
		wait $pid
		break
	fi
	if [ "$s" != T ]; then # no stop: the run ended
		wait $pid || { fail "the run for stop $n failed"; cat "$tmp/err"; }
		[ -s "$tmp/note" ] && fail "the run for stop $n noted a stop but did not stop"
		break
	fi
	where=$(cat "$tmp/note")
	cp "$conf" "$tmp/seen" 2>/dev/null || : >"$tmp/seen"
	seen_kernel=$(kernel "$conf")
	kill -CONT $pid
	wait $pid || { fail "stop $n ($where): the run failed once continued"; cat "$tmp/err"; }
	if cmp -s "$tmp/seen" "$tmp/old"; then
		what=old want=int-1x olds=$((olds + 1))
	elif cmp -s "$tmp/seen" "$conf"; then
		what=new want=int-8x news=$((news + 1))
	else
		what=torn want=
		fail "stop $n ($where): the config was neither the old file nor the new one ($(wc -c <"$tmp/seen") bytes, old $(wc -c <"$tmp/old"), new $(wc -c <"$conf"))"
	fi
	[ -z "$want" ] || [ "$seen_kernel" = "$want" ] ||
		fail "stop $n ($where): the library read '$seen_kernel' from the $what file"
	echo "$where $what" >>"$tmp/seen.log"
	[ "$what" = torn ] && what="a torn file;" || what="the $what file, whole;"
	echo "stop $n, $where: $what the library reads $seen_kernel"
	stops=$((stops + 1))
	n=$((n + 1))
	[ $n -le 100 ] || { fail "more than 100 stops"; break; }
done

# The stops the promise is about: before publishing, and between
# publishing and syncing the directory.
grep -Eq "^stopped-before rename(at2)? $conf old\$" "$tmp/seen.log" ||
	fail "no stop before the rename that publishes the file saw the old file"
grep -q "^stopped-before fsync $tmp new\$" "$tmp/seen.log" ||
	fail "no stop between publishing and syncing the directory saw the new file"
[ "$stops" -ge 2 ] || fail "only $stops stops: the writer made no temporary file"
echo "$stops stops: $olds saw the old file, $news the new one"
finish
