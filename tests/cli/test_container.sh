#!/bin/sh
# SPDX-License-Identifier: MIT
# test_container.sh - the container and image recipes of rc4tune(1),
# CONTAINERS AND IMAGES, each in a container made here: a chroot holding
# the build's rc4tune and a program linking the library (tests/helpers/setuid_env,
# which prints the kernel it got), in a mount namespace of its own
# (unshare -m: its mounts go with it).  The host's file bind-mounted
# read-only; an image's fleet file; measuring at start; no config at all.
# No speed is asserted.
#
# Environment (make check sets it): RC4TUNE, the rc4tune binary;
# RC4TUNE_TEST_DATA, the source tree's tests/; top_builddir, sysconfdir.
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE:?set RC4TUNE to the rc4tune binary}"
: "${RC4TUNE_TEST_DATA:?}" "${top_builddir:?}" "${sysconfdir:?}"
prog=$top_builddir/tests/helpers/setuid_env
[ -z "${TEST_EMULATOR:-}" ] ||
	skip "a chroot cannot hold the emulator that runs the build's programs"
[ "$(id -u)" -eq 0 ] || skip "not root: a chroot and bind mounts need root"
mkdir "$tmp/probe" || exit 99
unshare -m mount --bind /proc "$tmp/probe" 2>"$tmp/err" ||
	skip "no bind mount in a mount namespace here (unshare -m: $(cat "$tmp/err"))"
command -v python3 >/dev/null || skip "no python3 for seal.py"
command -v ldd >/dev/null || skip "no ldd to find the programs' libraries"
live_section "$RC4TUNE"
conf=$sysconfdir/rc4tune.conf

# image DIR: a root file system with /bin/rc4tune, /bin/prog and the
# libraries they load, an empty /proc and the configured sysconfdir.
image() {
	mkdir -p "$1/bin" "$1/proc" "$1$sysconfdir" || exit 99
	cp "$RC4TUNE" "$1/bin/rc4tune" && cp "$prog" "$1/bin/prog" || exit 99
	ldd "$RC4TUNE" "$prog" | sed -n 's|.*[ 	]\(/[^ ]*\) (0x.*|\1|p' |
		sort -u | while read -r lib; do
			mkdir -p "$1${lib%/*}" && cp -L "$lib" "$1$lib" || exit 99
		done || exit 99
}
# ctr DIR HOSTFILE CMD...: CMD in a container of DIR (chroot, mount
# namespace, /proc); HOSTFILE, unless empty, bind-mounted read-only at the
# config's path.  Output in $tmp/out and $tmp/err, status in $rc.
ctr() {
	d=$1 hf=$2
	shift 2
	unshare -m sh -c '
		r=$1 hf=$2 conf=$3
		shift 3
		mount --bind /proc "$r/proc" || exit 99
		if [ -n "$hf" ]; then
			mount --bind "$hf" "$r$conf" &&
				mount -o remount,bind,ro "$r$conf" || exit 99
		fi
		exec chroot "$r" "$@"' sh "$d" "$hf" "$conf" "$@" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
}
# sealed FILE SECTION KERNEL: a confident section the tuner wrote, sealed,
# appended to FILE.
sealed() {
	{ record_fixture "$2" "$3" high -; echo; } >"$tmp/section"
	seal "$tmp/section"
	cat "$tmp/section" >>"$1"
}
others=$(printf '%s\n' 'cpu GenuineIntel 6 85' 'cpu arm64-0x41 8 0xd0c' \
	'cpu AuthenticAMD 25 17' | grep -vxF "$live" | head -n 2)
# says WHAT PATTERN FILE: FILE has a line matching PATTERN.
says() {
	if grep -q -- "$2" "$3"; then ok "$1"; else
		fail "$1: no '$2' in:"; cat "$tmp/out" "$tmp/err"
	fi
}

# --- no config at all: this CPU has no section, the CPU rule applies -----
image "$tmp/bare"
RC4TUNE_DEBUG=1 ctr "$tmp/bare" '' /bin/prog
says "no config: RC4TUNE_DEBUG=1 says this CPU has no section" \
	"^librc4tune: config: this CPU has no section (\[$live\]): no config file$" "$tmp/err"
says "no config: ... and which rule applied" "^librc4tune: heuristic: " "$tmp/err"
ctr "$tmp/bare" '' /bin/rc4tune --explain
says "no config: --explain says the same" \
	"^  config: this CPU has no section (\[$live\]): no config file$" "$tmp/out"

# --- no /proc (a chroot as a package build makes one): the load unknown --
# Not in a sanitized build: ASan's runtime reads its options and the
# threads it checks for leaks from /proc.
noproc() {
	chroot "$tmp/bare" /bin/rc4tune --speed --budget 0.2 "$@" int-8x
}
if ldd "$RC4TUNE" | grep -q libasan; then
	echo "# no /proc: not run in a sanitized build"
else
	noproc >"$tmp/out" 2>"$tmp/err"
	rc=$?
	noproc --json >"$tmp/json" 2>>"$tmp/err"
	rc=$rc$?
	[ "$rc" = 00 ] && grep -q '"others_load": null,' "$tmp/json" &&
		says "no /proc: the other processes' load unknown, not 0 %" \
			"the other processes' load is unknown" "$tmp/out" ||
		{ fail "no /proc: exit $rc"; cat "$tmp/out" "$tmp/err" "$tmp/json"; }
fi

# --- the host's file, read-only: the host's section, nothing to do -------
image "$tmp/bind"
: >"$tmp/bind$conf"
sealed "$tmp/host.conf" "$live" int-4x
cp "$tmp/host.conf" "$tmp/host.before"
RC4TUNE_DEBUG=1 ctr "$tmp/bind" "$tmp/host.conf" /bin/prog
[ $rc -eq 0 ] && [ "$(cut -d ' ' -f 1 "$tmp/out")" = int-4x ] &&
	says "the host's file bind-mounted: the host's section" \
		"chosen: int-4x (config line 4 \[$live\])" "$tmp/err" ||
	{ fail "bind mount: exit $rc"; cat "$tmp/out" "$tmp/err"; }
ctr "$tmp/bind" "$tmp/host.conf" /bin/rc4tune --generate-conf --if-missing \
	--budget 0.5
[ $rc -eq 0 ] && cmp -s "$tmp/host.conf" "$tmp/host.before" &&
	says "the start command on it: nothing to do, the file as it was" \
		"nothing to do" "$tmp/out" ||
	{ fail "start on the host's file: exit $rc"; cat "$tmp/out" "$tmp/err"; }

# --- an image with a fleet file: a measured kernel without measuring -----
# the fleet file, merged from three hosts' files, one of this CPU
image "$tmp/fleet"
echo "$others" | while read -r cpu; do
	sealed "$tmp/host-$(echo "$cpu" | tr ' ' _).conf" "$cpu" int-8x
done
sealed "$tmp/host-live.conf" "$live" long-1x
"$RC4TUNE" --merge "$tmp"/host-*.conf --output "$tmp/fleet$conf" --quiet ||
	fail "--merge for the image"
ctr "$tmp/fleet" '' /bin/prog
[ "$(cut -d ' ' -f 1 "$tmp/out")" = long-1x ] &&
	ok "an image's fleet file: this CPU's section among the fleet's" ||
	{ fail "fleet image"; cat "$tmp/out" "$tmp/err"; }
cp "$tmp/fleet$conf" "$tmp/fleet.before"
ctr "$tmp/fleet" '' /bin/rc4tune --generate-conf --if-missing --budget 0.5
[ $rc -eq 0 ] && cmp -s "$tmp/fleet$conf" "$tmp/fleet.before" &&
	says "the start command on it: nothing to do" "nothing to do" "$tmp/out" ||
	{ fail "the start command measured on a fleet image"; cat "$tmp/out" "$tmp/err"; }

# --- measure at start: an image whose file lacks this CPU ----------------
image "$tmp/start"
echo "$others" | while read -r cpu; do
	sealed "$tmp/start$conf" "$cpu" int-8x
done
ctr "$tmp/start" '' /bin/rc4tune --generate-conf --if-missing --budget 0.5 \
	--quiet
[ $rc -eq 0 ] && grep -qxF "[$live]" "$tmp/start$conf" ||
	{ fail "measure at start: exit $rc, or no section"; cat "$tmp/err"; }
RC4TUNE_DEBUG=1 ctr "$tmp/start" '' /bin/prog
says "measured at start: the program gets this CPU's new section" \
	"chosen: .* (config line [0-9]* \[$live\])" "$tmp/err"
finish
