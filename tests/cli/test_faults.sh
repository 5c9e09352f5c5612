#!/bin/sh
# SPDX-License-Identifier: MIT
# test_faults.sh - the writer fails cleanly (rc4tune(1), LOCKING): every
# call the config writer makes on the config's files (open, mkostemp, write,
# read, fsync, fchown, fchmod, rename, renameat2, flock) and every
# allocation from its lock on, failed in turn with each errno it could meet
# (tests/helpers/shim.c's RC4TUNE_SHIM_FAIL), on rc4tune --generate-conf (on the
# seam: instant) over an existing file. A failure before the new file is
# published: exit status 1, a message naming the file, the old file byte for
# byte, no temporary or lock file left, the library still reading the old
# file.  What the design lets through: a file system without locks (ENOLCK,
# EOPNOTSUPP) and a directory that cannot be synced are written with a
# warning; a read-back failing after the rename says "written, but" (exit 1)
# over the new file.  Then the same for a config that does not exist yet
# (renameat2 RENAME_NOREPLACE: EEXIST retries, EINVAL falls back to rename).
# And every allocation from the start, the measuring's too: never a crash.
# Prints how many sites and failures were covered.
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
fleet_fixture 5 >"$tmp/old"

# run VAR=VALUE...: the writer under the shim; $rc, stderr in $tmp/err.
run() {
	rm -f "$tmp/note"
	env LD_PRELOAD="$SHIM" RC4TUNE_SHIM_FILE="$conf" \
		RC4TUNE_SHIM_NOTE="$tmp/note" "$@" \
		RC4TUNE_SEAM_RATES='int-8x=100,100,100' "$RC4TUNE_SEAM" \
		--generate-conf --force --quiet --output "$conf" 2>"$tmp/err"
	rc=$?
}

# The errnos each call is failed with.
errnos() {
	case $1 in
	open) echo EACCES EMFILE EIO ;;
	mkostemp) echo ENOSPC EACCES EROFS ;;
	write) echo ENOSPC EIO EDQUOT ;;
	read) echo EIO ;;
	fsync) echo EIO ENOSPC ;;
	fchown | fchmod) echo EPERM ;;
	rename) echo EIO ENOSPC EBUSY ;;
	renameat2) echo EEXIST EINVAL EIO ;;
	flock) echo ENOLCK EOPNOTSUPP EIO ;;
	malloc) echo ENOMEM ;;
	esac
}

leftovers() { find "$tmp" -maxdepth 1 -name '.rc4tune.conf.*' | wc -l; }

# new WHAT: the run wrote the new file, whole: the library reads int-8x
# from it, --check-conf passes it, every other line kept.
new_ok() {
	[ -f "$conf" ] && [ "$(kernel "$conf")" = int-8x ] &&
		"$RC4TUNE" --check-conf "$conf" >/dev/null 2>&1 &&
		{ [ ! -f "$tmp/start" ] || grep -q '^\[cpu FleetVendor 6 5\]$' "$conf"; } ||
		{ fail "$1: the new file is not whole"; return 1; }
}

# old_ok WHAT: the config is as it was (the old file, or none), and the
# library reads the old file.
old_ok() {
	if [ -f "$tmp/start" ]; then
		cmp -s "$conf" "$tmp/start" ||
			{ fail "$1: the old file was changed"; return 1; }
		[ "$(kernel "$conf")" = int-1x ] ||
			{ fail "$1: the library does not read the old file"; return 1; }
	elif [ -e "$conf" ]; then
		fail "$1: a config was written"; return 1
	fi
}

# One scenario: START (a file, or "none"), every site failed in turn.
scenario() {
	start=$1
	rm -f "$conf" "$tmp/start"
	[ "$start" = none ] || cp "$start" "$tmp/start"
	reset() { rm -f "$conf"; [ ! -f "$tmp/start" ] || cp "$tmp/start" "$conf"; }
	reset
	run RC4TUNE_SHIM_COUNT="$tmp/count"
	[ -s "$tmp/count" ] || skip "the shim was not loaded"
	[ "$rc" -eq 0 ] || { fail "$start: the run without faults failed"; cat "$tmp/err"; return; }
	new_ok "$start: the run without faults"
	while read -r call count; do
		errs=$(errnos "$call")
		[ -n "$errs" ] || continue
		[ "$call:$nomalloc" != malloc:1 ] || continue
		n=1
		while [ "$n" -le "$count" ]; do
			sites=$((sites + 1))
			for e in $errs; do
				reset
				run RC4TUNE_SHIM_FAIL="$call:$n:$e"
				failures=$((failures + 1))
				check "$call:$n:$e"
			done
			n=$((n + 1))
		done
	done <"$tmp/count"
}

# check SITE: what the run that failed SITE did is what it should.
check() {
	at=$(sed -n 's/^failed [^ ]* //p' "$tmp/note" 2>/dev/null)
	what="$1 ($at)"
	[ -n "$at" ] || { fail "$what: the shim did not fail the call"; return; }
	left=$(leftovers)
	# a lock that could not be taken is not removed: it may be another
	# run's (the next run takes it over, as lock_ok allows)
	case $1 in
	flock:*) [ ! -f "$tmp/.rc4tune.conf.lock" ] || { left=$((left - 1))
		rm "$tmp/.rc4tune.conf.lock"; locks_left=$((locks_left + 1)); } ;;
	esac
	[ "$left" -eq 0 ] || fail "$what: $left temporary or lock files left"
	case $1:$at in
	flock:*:ENOLCK:* | flock:*:EOPNOTSUPP:*) expect=warn why='cannot lock' ;;
	fsync:*:"$tmp" | open:*:"$tmp") expect=warn why='syncing its directory' ;;
	renameat2:*:EEXIST:* | renameat2:*:EINVAL:*) expect=ok why= ;;
	*) expect=refused why= ;;
	esac
	if [ "$expect" = refused ] && [ "$rc" -eq 1 ] &&
		grep -q 'written, but the library' "$tmp/err"; then
		case $1 in
		open:* | read:* | malloc:*) expect=written ;; # the read-back
		esac
	fi
	case $expect in
	refused)
		[ "$rc" -eq 1 ] || fail "$what: exit status $rc, not 1"
		grep -qF "$conf" "$tmp/err" ||
			{ fail "$what: no message names the file"; cat "$tmp/err"; }
		old_ok "$what" && refused=$((refused + 1)) ;;
	written)
		new_ok "$what" && grep -qF "$conf" "$tmp/err" &&
			written=$((written + 1)) ;;
	warn)
		[ "$rc" -eq 0 ] || fail "$what: exit status $rc, not 0"
		grep -F "$conf" "$tmp/err" | grep -q "warning:.*$why" ||
			{ fail "$what: no warning '$why' naming the file"; cat "$tmp/err"; }
		new_ok "$what" && warned=$((warned + 1)) ;;
	ok)
		[ "$rc" -eq 0 ] || { fail "$what: exit status $rc, not 0"; cat "$tmp/err"; }
		new_ok "$what" && passed=$((passed + 1)) ;;
	esac
}

# Every allocation from the start, the measuring's too, failed in turn
# over the existing file: never a crash; as check says, or a whole new
# file where the failure cost nothing (the load left unknown).
from_start() {
	cp "$tmp/old" "$tmp/start"
	cp "$tmp/start" "$conf"
	run RC4TUNE_SHIM_ALL=1 RC4TUNE_SHIM_COUNT="$tmp/count"
	total=$(sed -n 's/^malloc //p' "$tmp/count")
	[ "${total:-0}" -gt 0 ] || { fail "no allocation counted from the start"; return; }
	n=1 ok0=0
	while [ "$n" -le "$total" ]; do
		cp "$tmp/start" "$conf"
		run RC4TUNE_SHIM_ALL=1 RC4TUNE_SHIM_FAIL="malloc:$n:ENOMEM"
		failures=$((failures + 1))
		if [ "$rc" -eq 0 ]; then
			new_ok "malloc:$n:ENOMEM from the start" && ok0=$((ok0 + 1))
		else
			check "malloc:$n:ENOMEM"
		fi
		n=$((n + 1))
	done
	echo "from the start: $total allocations failed in turn, $ok0 written all the same"
}

# The run counted stands for the runs failed in turn only if the writer's
# work is the same each run: the seam's file, but for its times, is.
same_file() {
	for f in a b; do
		cp "$tmp/old" "$tmp/same.$f"
		RC4TUNE_SEAM_RATES='int-8x=100,100,100' "$RC4TUNE_SEAM" \
			--generate-conf --force --quiet --output "$tmp/same.$f" ||
			{ fail "a run on the seam failed"; return; }
		sed 's/ at=[^ ]*//; s/ sum=[^ ]*//' "$tmp/same.$f" >"$tmp/$f.t"
	done
	cmp -s "$tmp/a.t" "$tmp/b.t" || fail "two runs on the seam wrote" \
		"different files: $(diff "$tmp/a.t" "$tmp/b.t" | sed -n 2p)"
}
same_file

sites=0 failures=0 refused=0 written=0 warned=0 passed=0 locks_left=0
scenario "$tmp/old"
s1=$sites f1=$failures
scenario none
echo "existing file: $s1 sites, $f1 failures; no file yet: $((sites - s1)) sites, $((failures - f1)) failures"
echo "$sites sites, $failures failures injected: $refused refused (old file kept), $written written then refused by the read-back, $warned written with a warning, $passed written (retry or fallback); $locks_left lock files left by a failed flock"
from_start
finish
