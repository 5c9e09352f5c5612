#!/bin/sh
# SPDX-License-Identifier: MIT
# test_tuner_paths.sh - where --output points (rc4tune(1), OPTIONS; EXIT
# STATUS): a dangling symlink chain is followed and the file at its end
# created; a FIFO is refused at once without a reader and written with
# one; a directory that cannot be synced is a warning; a missing
# directory, a directory, a full disk, an unwritable directory are exit 1
# with the path and the reason, the old file untouched.  Short budgets.
#
# Environment (make check sets it): RC4TUNE, the rc4tune binary.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tuner.sh"

# --- a dangling symlink chain: the file at its end is created -----------
# etc/rc4tune.conf -> current.conf -> ../fleet/shared.conf (missing), each
# relative to its link's directory; the links stay links.
mkdir "$tmp/etc" "$tmp/fleet"
ln -s current.conf "$tmp/etc/rc4tune.conf"
ln -s ../fleet/shared.conf "$tmp/etc/current.conf"
links_kept() {
	[ -L "$tmp/etc/rc4tune.conf" ] && [ -L "$tmp/etc/current.conf" ] &&
	[ "$(readlink "$tmp/etc/current.conf")" = ../fleet/shared.conf ] &&
	[ "$(ls -A "$tmp/fleet")" = shared.conf ] &&
	[ "$(grep -c "^\[$live\]" "$tmp/fleet/shared.conf")" -eq 1 ]
}
tune --output "$tmp/etc/rc4tune.conf"
if [ $rc -eq 0 ] && links_kept &&
   [ "$(stat -c %a "$tmp/fleet/shared.conf")" = 644 ]; then
	tune --output "$tmp/etc/rc4tune.conf" # now to an existing file
	if [ $rc -eq 0 ] && links_kept; then
		ok "dangling symlink chain: target created, then replaced; links kept"
	else
		fail "symlink to an existing file: rc=$rc"; cat "$tmp/err"
	fi
else
	fail "dangling symlink: rc=$rc"; ls -l "$tmp/etc" "$tmp/fleet"
	cat "$tmp/err"
fi

# --- a FIFO: refused at once without a reader, written with one ---------
mkfifo "$tmp/fifo"
timeout 60 "$RC4TUNE" --generate-conf $budget --quiet --output "$tmp/fifo" \
	>/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "$tmp/fifo: a FIFO with no reader" "$tmp/err" &&
   [ -p "$tmp/fifo" ]; then
	ok "FIFO without a reader: $(cat "$tmp/err")"
else
	fail "FIFO without a reader: rc=$rc (124: it hung)"; cat "$tmp/err"
fi
# Read-write, so that this open neither waits nor sees an end of file.
exec 3<>"$tmp/fifo"
# a measuring run: its timeout catches a hang, far above a run under qemu
timeout 120 "$RC4TUNE" --generate-conf $budget --quiet --output "$tmp/fifo" \
	>/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(timeout 5 head -n 1 <&3)" = "[$live]" ]; then
	ok "FIFO with a reader: the section"
else
	fail "FIFO with a reader: rc=$rc"; cat "$tmp/err"
fi
exec 3<&-

# --- the directory cannot be synced after the rename: warning, success --
# Opening the directory to fsync it needs read permission, which a
# write-and-search-only directory refuses (to anyone but root).
mkdir "$tmp/wx"
as_other=
if [ "$(id -u)" -eq 0 ]; then
	chown 65534:65534 "$tmp/wx"
	chmod 711 "$tmp"
	as_other='setpriv --reuid=65534 --regid=65534 --clear-groups'
fi
chmod 300 "$tmp/wx"
if ! $as_other "$RC4TUNE" --version >/dev/null 2>&1; then
	echo "SKIP: directory sync failure (cannot run rc4tune as uid 65534)"
else
	$as_other "$RC4TUNE" --generate-conf $budget --quiet \
		--output "$tmp/wx/rc4tune.conf" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 0 ] &&
	   grep -q "syncing its directory $tmp/wx failed: Permission denied" "$tmp/err" &&
	   grep -q "^\[$live\]" "$tmp/wx/rc4tune.conf"; then
		ok "directory sync fails after the rename: warning, exit 0"
	else
		fail "directory sync failure: rc=$rc"; cat "$tmp/err"
	fi
fi
chmod 755 "$tmp/wx"
chmod 700 "$tmp"

# --- errors: exit 1, the path and the reason; nothing half-written ------
tune --output "$tmp/no/such/dir/rc4tune.conf"
if [ $rc -eq 1 ] && grep -q "$tmp/no/such/dir/rc4tune.conf" "$tmp/err" &&
   grep -q 'No such file or directory' "$tmp/err"; then
	ok "missing directory: $(cat "$tmp/err")"
else
	fail "missing directory: rc=$rc"; cat "$tmp/err"
fi

# a directory holding a file: nothing left beside it
mkdir "$tmp/fresh"
: >"$tmp/fresh/rc4tune.conf"
tune --output "$tmp/fresh"
if [ $rc -eq 1 ] && grep -q "$tmp/fresh: Is a directory" "$tmp/err" &&
   [ "$(ls -A "$tmp/fresh")" = rc4tune.conf ]; then
	ok "target is a directory: $(cat "$tmp/err")"
else
	fail "target is a directory: rc=$rc"; cat "$tmp/err"
fi

if [ -c /dev/full ]; then
	tune --output /dev/full
	if [ $rc -eq 1 ] && grep -q '/dev/full' "$tmp/err" &&
	   grep -q 'No space left on device' "$tmp/err" && [ -c /dev/full ]; then
		ok "full disk (/dev/full): $(cat "$tmp/err")"
	else
		fail "/dev/full: rc=$rc"; cat "$tmp/err"
	fi
else
	echo "SKIP: no /dev/full for the full-disk case"
fi

if [ "$(id -u)" -eq 0 ]; then
	echo "SKIP: unwritable directory (running as root: permission bits do not stop root)"
else
	mkdir "$tmp/ro"
	printf '[default]\nkernel = int-8x\n' >"$tmp/ro/rc4tune.conf"
	cp "$tmp/ro/rc4tune.conf" "$tmp/old"
	chmod 555 "$tmp/ro"
	tune --output "$tmp/ro/rc4tune.conf"
	if [ $rc -eq 1 ] && grep -q "$tmp/ro/rc4tune.conf" "$tmp/err" &&
	   grep -q 'Permission denied' "$tmp/err" &&
	   grep -q 'run as root' "$tmp/err" &&
	   cmp -s "$tmp/old" "$tmp/ro/rc4tune.conf"; then
		ok "unwritable directory: old file untouched, hint given"
	else
		fail "unwritable directory: rc=$rc"; cat "$tmp/err"
	fi
fi

finish
