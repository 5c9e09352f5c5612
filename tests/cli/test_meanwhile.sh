#!/bin/sh
# SPDX-License-Identifier: MIT
# test_meanwhile.sh - another run writes this CPU's section while a run
# measures (rc4tune(1), LOCKING; --generate-conf, serial): the run times
# serial on the kernel the file's section led it to expect, then under
# the lock finds a section whose kernel its figures keep (within the
# window of its best) but that it did not expect.  It still writes: that
# kernel, each batch call chosen among the kernels that may run its keys
# (of its layout, not the expected kernel's), and the section's
# comments say that serial was timed on another kernel.  The run stops
# before it opens its lock file, after measuring (tests/helpers/shim.c's
# RC4TUNE_SHIM_STOP=2: the second call that could change the disk, after
# the path's check), and the other run's section is put in place
# meanwhile.  On the seam: made-up rates.
#
# Environment (make check sets it): RC4TUNE_SEAM, RC4TUNE, SHIM,
# RC4TUNE_TEST_DATA (the source tree's tests/).
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE_SEAM:?set RC4TUNE_SEAM to tests/helpers/rc4tune_seam}"
: "${RC4TUNE:?set RC4TUNE to the rc4tune binary}"
: "${RC4TUNE_TEST_DATA:?set RC4TUNE_TEST_DATA to the source tests/}"
command -v python3 >/dev/null || skip "no python3 for seal.py"
shim_for "$RC4TUNE_SEAM"
live_section "$RC4TUNE"
conf=$tmp/rc4tune.conf

# A wins the run (a tie goes to the earlier in registry order); B, within
# the window of it, later and of another layout, is the other run's
# kernel.
A=int-4x
B=long-8x
rates="$A=100,100,100 $B=99,99,99"

rm -f "$conf"
env LD_PRELOAD="$SHIM" RC4TUNE_SHIM_FILE="$conf" RC4TUNE_SHIM_STOP=2 \
	RC4TUNE_SHIM_NOTE="$tmp/note" \
	RC4TUNE_SEAM_RATES="$rates" "$RC4TUNE_SEAM" --generate-conf --quiet \
	--output "$conf" 2>"$tmp/err" &
pid=$!
i=0
while s=$(state $pid) && [ "$s" != T ] && [ "$s" != Z ] && [ $i -lt 6000 ]; do
	sleep 0.01
	i=$((i + 1))
done
[ "$s" = T ] && grep -q "^stopped-before open .*/\.rc4tune\.conf\.lock\$" "$tmp/note" || {
	kill -KILL $pid 2>/dev/null; wait $pid
	fail "the run did not stop at its lock (state '$s'; $(cat "$tmp/note" 2>/dev/null))"
	cat "$tmp/err"; finish; }
# the other run's section, as a confident run wrote it
record_fixture "$live" "$B" high - >"$conf"
seal "$conf"
kill -CONT $pid
wait $pid
rc=$?
show() { cat "$tmp/err"; grep -v '^;@' "$conf"; }

[ $rc -eq 0 ] && [ "$(kernel "$conf")" = "$B" ] &&
	ok "a section written meanwhile, its kernel $B kept: written, exit 0" ||
	{ fail "the section written meanwhile: exit $rc"; show; }
[ "$(grep -c "serial was timed on $A, not on $B" "$conf")" -eq 2 ] &&
	ok "both batch calls' comments: serial was timed on $A, not on $B" ||
	{ fail "no note that serial was timed on another kernel"; show; }
"$RC4TUNE" --check-conf "$conf" >"$tmp/check" 2>&1 &&
	ok "--check-conf passes what was written" ||
	{ fail "--check-conf"; cat "$tmp/check"; }
finish
