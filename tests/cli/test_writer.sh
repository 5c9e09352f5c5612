#!/bin/sh
# SPDX-License-Identifier: MIT
# test_writer.sh - rc4tune --generate-conf as an attacker or an unlucky
# sysadmin would run it as root (rc4tune(1), LOCKING): planted symlinks,
# hard links, runs at the same time, locks other users hold (none delays
# root's run) and a run of its own that holds the lock too long (waited for
# 10 s, not more), outputs that cannot take the file (refused before the
# budget is spent: a --budget 3600 run that measured would meet the 60 s
# timeout instead of exiting 1), a merged file too big for the library, a
# closed stdout, and the messages.  Other tools: --heuristic --cpuid-dump on
# FIFOs and devices, --list's columns.
#
# Environment (make check sets it): RC4TUNE, the rc4tune binary;
# HOLDLOCKS, tests/helpers/holdlocks.
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE:?set RC4TUNE to the rc4tune binary}"
: "${HOLDLOCKS:?set HOLDLOCKS to tests/helpers/holdlocks}"
chmod 755 "$tmp"
budget='--budget 0.3'
root=false
[ "$(id -u)" -eq 0 ] && root=true
# as_nobody PROG ARGS...: PROG run as uid 65534.  A job started as
# "$nobody_run PROG &" is PROG itself (setpriv execs it), so that killing
# $! stops it; a function's job would be a shell that leaves PROG behind.
nobody_run="setpriv --reuid=65534 --regid=65534 --clear-groups"
as_nobody() { $nobody_run "$@"; }
# Whether uid 65534 can run the tuner and holdlocks (exit 1: its usage):
# not where they are scripts in a tree only root may enter (a cross
# build's wrappers under /root), and then its cases are left out.
nobody=false
if $root && command -v setpriv >/dev/null; then
	as_nobody "$HOLDLOCKS" >/dev/null 2>&1
	[ $? -eq 1 ] && as_nobody "$RC4TUNE" --version >/dev/null 2>&1 && nobody=true ||
		echo "NOTE: uid 65534 cannot run $RC4TUNE or $HOLDLOCKS here: its cases are left out"
fi

# gen ARGS...: --generate-conf under a hang guard; $rc, $tmp/out, $tmp/err.
gen() {
	timeout 60 "$RC4TUNE" --generate-conf --quiet "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# refused WHAT PATTERN ARGS...: exit 1 at once, PATTERN on stderr.
refused() {
	what=$1 pattern=$2
	shift 2
	gen --budget 3600 "$@"
	if [ $rc -eq 1 ] && grep -q -- "$pattern" "$tmp/err"; then
		ok "$what: $(head -n 1 "$tmp/err")"
	else
		fail "$what: exit $rc (124: it measured)"; cat "$tmp/err"
	fi
}

live_section "$RC4TUNE"

# --- symlinks another user planted are not followed -------------------
if $root; then
	mkdir "$tmp/sticky" && chmod 1777 "$tmp/sticky"
	ln -s "$tmp/victim" "$tmp/sticky/x.conf"
	chown -h 65534:65534 "$tmp/sticky/x.conf"
	refused "another user's symlink, target absent" "owned by uid 65534" \
		--output "$tmp/sticky/x.conf"
	[ ! -e "$tmp/victim" ] || fail "the symlink's target was created"
	echo precious >"$tmp/victim"
	refused "another user's symlink, target present" "owned by uid 65534" \
		--output "$tmp/sticky/x.conf"
	[ "$(cat "$tmp/victim")" = precious ] || fail "the symlink's target was rewritten"
	# root's own links (the fleet case) are followed
	mkdir "$tmp/etc" "$tmp/fleet"
	ln -s ../fleet/shared.conf "$tmp/etc/rc4tune.conf"
	gen $budget --output "$tmp/etc/rc4tune.conf"
	[ $rc -eq 0 ] && [ -h "$tmp/etc/rc4tune.conf" ] &&
		grep -q "^\[$live\]" "$tmp/fleet/shared.conf" &&
		ok "root's symlink to a fleet file: followed, kept a link" ||
		{ fail "root's symlink: rc=$rc"; cat "$tmp/err"; }
else
	echo "SKIP: planted symlinks (not root: cannot make another user's link)"
fi

# --- a file with two names is not split -------------------------------
printf '[default]\nkernel = int-8x\n' >"$tmp/two.conf"
ln "$tmp/two.conf" "$tmp/two-alias.conf"
refused "a file with 2 hard links" "2 hard links" --output "$tmp/two.conf"
[ "$(stat -c %h "$tmp/two.conf")" -eq 2 ] && cmp -s "$tmp/two.conf" "$tmp/two-alias.conf" ||
	fail "the hard-linked file was changed"

# --- outputs that cannot take a config: refused before measuring ------
truncate -s 200M "$tmp/sparse.conf"
blocks=$(stat -c %b "$tmp/sparse.conf")
refused "a 200 MB sparse target" "larger than 262144 bytes" --output "$tmp/sparse.conf"
[ "$(stat -c %b "$tmp/sparse.conf")" -eq "$blocks" ] || fail "the sparse file grew on disk"
long=$(printf '%0250d' 0)
refused "a name too long for its temporary file" "too long for a temporary file" \
	--output "$tmp/$long"
refused "a missing directory" "No such file or directory" \
	--output "$tmp/no/such/dir/rc4tune.conf"
(exec >&-; timeout 60 "$RC4TUNE" --generate-conf --quiet --budget 3600 \
	--output /dev/stdout 2>"$tmp/err"; echo $? >"$tmp/rc")
[ "$(cat "$tmp/rc")" -eq 1 ] && ok "/dev/stdout closed: $(head -n 1 "$tmp/err")" ||
	{ fail "/dev/stdout closed: exit $(cat "$tmp/rc")"; cat "$tmp/err"; }
# standard input closed (a daemon's child): written as with it open (the
# tuner holds descriptors 0-2 on /dev/null when they come closed)
(exec <&-; timeout 60 "$RC4TUNE" --generate-conf --quiet $budget \
	--output "$tmp/noin.conf" 2>"$tmp/err"; echo $? >"$tmp/rc")
[ "$(cat "$tmp/rc")" -eq 0 ] && grep -q "^\[$live\]" "$tmp/noin.conf" &&
	ok "standard input closed: written" ||
	{ fail "standard input closed: exit $(cat "$tmp/rc")"; cat "$tmp/err"; }
if $nobody; then
	mkdir "$tmp/ro" && chmod 555 "$tmp/ro"
	timeout 60 $nobody_run "$RC4TUNE" --generate-conf --quiet --budget 3600 \
		--output "$tmp/ro/rc4tune.conf" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q 'Permission denied' "$tmp/err" &&
		grep -q 'run as root' "$tmp/err" && [ -z "$(ls -A "$tmp/ro")" ] &&
		ok "unwritable directory (uid 65534): refused at once, hint given, nothing left" ||
		{ fail "unwritable directory: exit $rc"; cat "$tmp/err"; }
	# fs.protected_symlinks' rule, whatever the sysctl says: in a sticky,
	# world-writable directory of uid 1, root's link is not uid 65534's to
	# follow (a link of the directory's owner or of the runner's would be)
	mkdir "$tmp/sticky1" && chmod 1777 "$tmp/sticky1" && chown 1:1 "$tmp/sticky1"
	ln -s "$tmp/victim1" "$tmp/sticky1/x.conf"
	timeout 60 $nobody_run "$RC4TUNE" --generate-conf --quiet --budget 3600 \
		--output "$tmp/sticky1/x.conf" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q "owned by neither you nor that directory's owner" "$tmp/err" &&
		[ ! -e "$tmp/victim1" ] &&
		ok "root's symlink in uid 1's sticky directory (uid 65534): not followed" ||
		{ fail "root's link in another's sticky directory: exit $rc"; cat "$tmp/err"; }
fi
# as root, no "run as root" hint; no symlink wording without a symlink
if $root; then
	refused "root, a read-only target (/proc)" "cannot write /proc/version" \
		--output /proc/version
	! grep -q 'run as root' "$tmp/err" || fail "root was told to run as root"
fi
# a read-only file system: no hint, root or not (a private mount namespace)
mkdir "$tmp/rofs"
if $root && unshare -m sh -c "mount --bind '$tmp/rofs' '$tmp/rofs' &&
	mount -o remount,bind,ro '$tmp/rofs'" 2>/dev/null; then
	unshare -m sh -c "mount --bind '$tmp/rofs' '$tmp/rofs' &&
		mount -o remount,bind,ro '$tmp/rofs' &&
		exec timeout 60 '$RC4TUNE' --generate-conf --quiet --budget 3600 \
			--output '$tmp/rofs/rc4tune.conf'" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q 'Read-only file system' "$tmp/err" &&
		! grep -q 'run as root' "$tmp/err" &&
		ok "read-only file system: refused at once, no hint" ||
		{ fail "read-only file system: exit $rc"; cat "$tmp/err"; }
else
	echo "SKIP: read-only file system (no private mount namespace here)"
fi
refused "a name past PATH_MAX" "File name too long" --output "$tmp/$(printf '%05000d' 0)"
! grep -q symlink "$tmp/err" || fail "symlink wording without a symlink: $(cat "$tmp/err")"

# --- runs at the same time: all succeed, one section -------------------
printf '[default]\nkernel = int-8x\n' >"$tmp/shared.conf"
for round in 1 2 3; do
	for i in 1 2 3; do
		( timeout 60 "$RC4TUNE" --generate-conf --quiet $budget \
			--output "$tmp/shared.conf" 2>"$tmp/err.$i"
		  echo $? >"$tmp/rc.$i" ) &
	done
	wait
	for i in 1 2 3; do
		[ "$(cat "$tmp/rc.$i")" -eq 0 ] ||
			{ fail "concurrent run $round.$i: exit $(cat "$tmp/rc.$i")"; cat "$tmp/err.$i"; }
	done
done
[ "$(grep -c "^\[$live\]" "$tmp/shared.conf")" -eq 1 ] &&
	grep -q '^\[default\]' "$tmp/shared.conf" &&
	"$RC4TUNE" --check-conf "$tmp/shared.conf" >/dev/null &&
	ok "3 x 3 runs at once: every one exit 0, one [$live], [default] kept" ||
	{ fail "concurrent runs"; cat "$tmp/shared.conf"; }

# --- only the writer can delay the writer ------------------------------
# rc4tune(1): a run waits at most this long for another run's lock.
bound=10
# now_ms: a monotonic-enough clock for comparing runs with each other.
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# hold USER ARGS...: holdlocks ARGS as USER (root or nobody) in the
# background, $holder; back once it holds all it can (its "ready", not
# the last one's: the background shell truncates the file when it runs).
# 1, holding nothing, for nobody where uid 65534 cannot run it.
hold() {
	rm -f "$tmp/held"
	holder=
	if [ "$1" = root ]; then
		shift
		"$HOLDLOCKS" "$@" >"$tmp/held" &
	else
		$nobody || return 1
		shift
		$nobody_run "$HOLDLOCKS" "$@" >"$tmp/held" &
	fi
	holder=$!
	while ! grep -qs '^ready$' "$tmp/held"; do
		kill -0 $holder 2>/dev/null || { fail "holdlocks died"; return; }
		sleep 0.05
	done
}
unhold() { [ -z "$holder" ] || { kill $holder; wait $holder 2>/dev/null; }; }

if $root && command -v setpriv >/dev/null; then
	# A directory like /etc: root's, others may read the file and the
	# directory (and so lock them), not create the lock file.
	mkdir "$tmp/etc-like" && chmod 755 "$tmp/etc-like"
	conf=$tmp/etc-like/rc4tune.conf lockf=$tmp/etc-like/.rc4tune.conf.lock
	printf '[default]\nkernel = int-8x\n' >"$conf" && chmod 644 "$conf"
	start=$(now_ms)
	gen $budget --output "$conf"
	base=$(($(now_ms) - start))
	[ $rc -eq 0 ] || { fail "baseline run: exit $rc"; cat "$tmp/err"; }
	# the run with the locks held: exit 0, as a wait the bound long would
	# end in exit 1 ("gave up"); killed only as a hang (the old blocking
	# flock waited for ever), far past the baseline and the bound
	limit=$(((10 * base) / 1000 + bound + 60))
	for mode in -s ""; do
		hold nobody $mode "$conf" "$tmp/etc-like" "$lockf" || continue
		start=$(now_ms)
		timeout $limit "$RC4TUNE" --generate-conf --quiet $budget \
			--output "$conf" >"$tmp/out" 2>"$tmp/err"
		rc=$? took=$(($(now_ms) - start))
		[ $rc -eq 0 ] && grep -q "^\[$live\]" "$conf" &&
			[ "$(ls -A "$tmp/etc-like")" = rc4tune.conf ] &&
			ok "uid 65534 holding ($(grep -v "^ready$" "$tmp/held" | sed "s|^$tmp/||" | tr "\n" " ")) root's run: exit 0 in $took ms (baseline $base ms, bound $bound s)" ||
			{ fail "uid 65534's locks ($mode): exit $rc (124: waited past $limit s)"; cat "$tmp/held" "$tmp/err"; }
		unhold
	done
	# A sticky, world-writable directory (--output /tmp/...): nobody can
	# plant the file with a [pin] (which root would merge into its own
	# file), or create the lock file first and hold it; root refuses the
	# directory at once.
	mkdir "$tmp/sticky-lock" && chmod 1777 "$tmp/sticky-lock"
	conf=$tmp/sticky-lock/x.conf lockf=$tmp/sticky-lock/.x.conf.lock
	printf '[pin]\nkernel = char-ref\n' >"$conf" && chmod 644 "$conf"
	chown 65534:65534 "$conf"
	cp "$conf" "$tmp/x.conf.before"
	hold nobody -c "$lockf" "$conf" "$tmp/sticky-lock"
	refused "uid 65534's [pin] and lock file, in a sticky directory" \
		"its directory $tmp/sticky-lock has mode 1777: other users could plant the file" \
		--output "$conf"
	cmp -s "$conf" "$tmp/x.conf.before" && [ "$(stat -c %u "$conf")" = 65534 ] ||
		fail "the planted file changed"
	unhold
	# Another user's symlinked directory on the way, not at the end
	mkdir "$tmp/theirs" && ln -s "$tmp/theirs" "$tmp/via" && chown -h 65534:65534 "$tmp/via"
	refused "another user's symlinked directory on the way" \
		"$tmp/via is a symlink owned by uid 65534" --output "$tmp/via/x.conf"
	[ -z "$(ls -A "$tmp/theirs")" ] || fail "written through the link: $(ls -A "$tmp/theirs")"
	# A run of the same user: waited for, but not past the bound.
	conf=$tmp/etc-like/rc4tune.conf lockf=$tmp/etc-like/.rc4tune.conf.lock
	cp "$conf" "$tmp/before"
	hold root -c "$lockf"
	gen $budget --output "$conf"
	[ $rc -eq 1 ] && grep -q "held its lock file $lockf for $bound s: gave up, nothing written" "$tmp/err" &&
		cmp -s "$conf" "$tmp/before" &&
		[ "$(ls -A "$tmp/etc-like" | sort | tr '\n' ' ')" = ".rc4tune.conf.lock rc4tune.conf " ] &&
		ok "root's own lock held past the bound: $(cat "$tmp/err")" ||
		{ fail "a lock held past the bound: exit $rc"; cat "$tmp/err"; ls -A "$tmp/etc-like"; }
	unhold
	# the holder is gone, its file stays: the next run takes it, removes it
	gen $budget --output "$conf"
	[ $rc -eq 0 ] && [ "$(ls -A "$tmp/etc-like")" = rc4tune.conf ] &&
		ok "a lock file left by a killed run: taken, then removed" ||
		{ fail "a stale lock file: exit $rc"; cat "$tmp/err"; ls -A "$tmp/etc-like"; }
else
	echo "SKIP: other users' locks (needs root and setpriv)"
fi

# --- nothing is written that the library would refuse -------------------
# A fleet file the library takes, a few bytes under its 256 KiB: this
# CPU's new section would push it over.
awk 'BEGIN { n = 0
	while (n < 262144 - 60) {
		s = sprintf("[cpu Fleet 6 %d]\nkernel = int-8x\n", i++)
		printf "%s", s; n += length(s) } }' >"$tmp/full.conf"
cp "$tmp/full.conf" "$tmp/full.before"
if "$RC4TUNE" --check-conf "$tmp/full.conf" >/dev/null 2>&1; then
	gen $budget --output "$tmp/full.conf"
	[ $rc -eq 1 ] && cmp -s "$tmp/full.conf" "$tmp/full.before" &&
		grep -q "cannot write $tmp/full.conf: as merged it would be [0-9]* bytes, which the library refuses (larger than 262144 bytes): left as it was" "$tmp/err" &&
		ok "a fleet file the section would push past 256 KiB: $(cat "$tmp/err")" ||
		{ fail "past 256 KiB: exit $rc, $(wc -c <"$tmp/full.conf") bytes"; cat "$tmp/err"; }
else
	fail "the fleet file under 256 KiB is not valid"
fi

# --- an empty --output: a usage error, before measuring -----------------
gen --budget 3600 --output ""
[ $rc -eq 2 ] && grep -q -- '--output wants a file name' "$tmp/err" &&
	ok "--output \"\": $(cat "$tmp/err")" ||
	{ fail "--output \"\": exit $rc (124: it measured)"; cat "$tmp/err"; }

# --- a closed or full stdout: the file is written, exit 1, said --------
{ timeout 60 "$RC4TUNE" --generate-conf --json $budget \
	--output "$tmp/piped.conf" 2>"$tmp/err"; echo $? >"$tmp/rc"; } | true
[ "$(cat "$tmp/rc")" -eq 1 ] && grep -q "^\[$live\]" "$tmp/piped.conf" &&
	grep -q 'cannot write to standard output' "$tmp/err" &&
	ok "--json into a closed pipe: config written, exit 1, said" ||
	{ fail "closed pipe: exit $(cat "$tmp/rc")"; cat "$tmp/err"; }
if [ -c /dev/full ]; then
	for action in --version --help --list; do
		"$RC4TUNE" $action >/dev/full 2>"$tmp/err"
		rc=$?
		[ $rc -eq 1 ] && grep -q 'No space left on device' "$tmp/err" &&
			ok "$action into /dev/full: exit 1, said" ||
			fail "$action into /dev/full: exit $rc"
	done
fi

# --- CPUID dumps: neither a FIFO nor a device hangs it -----------------
mkfifo "$tmp/fifo.raw"
for dump in "$tmp/fifo.raw" /dev/zero; do
	timeout 60 "$RC4TUNE" --heuristic --cpuid-dump "$dump" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q 'not a regular file' "$tmp/err" &&
		ok "--cpuid-dump $dump: refused" ||
		{ fail "--cpuid-dump $dump: exit $rc (124: hung)"; cat "$tmp/err"; }
done

# --- --list: the columns line up, however long the names ----------------
"$RC4TUNE" --list | awk '{ print index($0, $2) }' | sort -u >"$tmp/cols"
[ "$(wc -l <"$tmp/cols")" -eq 1 ] && ok "--list: one column for usable/unusable" ||
	{ fail "--list columns"; "$RC4TUNE" --list | head; }

finish
