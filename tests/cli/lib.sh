# SPDX-License-Identifier: MIT
# lib.sh - what every shell test does first, sourced right after `set -u`:
# automake's exit codes, a scratch directory removed on exit, the counters
# and messages, and an environment without the RC4TUNE_* variables that
# the library and the tuner read (a test sets the ones it means).
#
# Exit codes as automake reads them: 0 passed, 1 failed, 77 skipped, 99 a
# hard error (the test itself could not run).

unset RC4TUNE_KERNEL RC4TUNE_BATCH_KERNEL RC4TUNE_CONF RC4TUNE_DEBUG

# $tmp: removed on exit, read-only files and directories included; a test
# that must undo more (a background process) redefines at_exit.
tmp=$(mktemp -d) || exit 99
at_exit() { :; }
trap 'at_exit; chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
skip() { echo "SKIP: $*"; exit 77; }
# left_said FILE BEFORE PATTERN: the run just made ($rc, its stderr in
# $tmp/err) exited 0, left FILE as BEFORE byte for byte, and said so in one
# line on stderr that matches PATTERN (a --quiet run's warning).
left_said() {
	[ "$rc" -eq 0 ] && cmp -s "$1" "$2" &&
		[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- "$3" "$tmp/err"
}

# live_section PROGRAM...: $live, this CPU's section name, as PROGRAM
# --section prints it (rc4tune(1)); the test is skipped where the CPU is
# not identified.
live_section() {
	live=$("$@" --section 2>"$tmp/live.err") ||
		skip "this CPU is not identified: $(cat "$tmp/live.err")"
}

# shim_can PROGRAM: whether tests/helpers/libshim.so (SHIM) can watch PROGRAM;
# when not, $shim_why says why (an emulator, ASan's runtime first).
shim_can() {
	: "${SHIM:?set SHIM to tests/helpers/.libs/libshim.so}"
	shim_why=
	if [ -n "${TEST_EMULATOR:-}" ]; then
		shim_why="LD_PRELOAD is not passed through $TEST_EMULATOR"
	elif ldd "$1" 2>/dev/null | grep -q libasan; then
		shim_why="a sanitized build: the shim cannot come before ASan's runtime"
	fi
	[ -z "$shim_why" ]
}
# shim_for PROGRAM: skip where the shim cannot watch PROGRAM (shim_can);
# set nomalloc=1 in a coverage build, whose gcov allocates at exit
# (failing those would not be the program's failures); make $tmp a real
# path, which the shim matches.
shim_for() {
	shim_can "$1" || skip "$shim_why"
	nomalloc=
	if grep -q __gcov_ "$1" 2>/dev/null; then
		nomalloc=1
		echo "NOTE: a coverage build: no allocation failed"
	fi
	tmp=$(cd "$tmp" && pwd -P)
}

# fleet_fixture N: on stdout, a fleet's config: [default] char-1x, this
# CPU's section ($live) int-1x, then N other CPUs' sections int-8x
# ([cpu FleetVendor 6 1] to [cpu FleetVendor 6 N]).
fleet_fixture() {
	printf '; fleet profiles: every line but this CPU section stays\n'
	printf '[default]\nkernel = char-1x\n\n[%s]\nkernel = int-1x\n' "$live"
	i=1
	while [ $i -le "$1" ]; do
		printf '[cpu FleetVendor 6 %d]\nkernel = int-8x\n' $i
		i=$((i + 1))
	done
}

# kernel FILE: the kernel the library takes from the config FILE.
kernel() { RC4TUNE_CONF=$1 "$RC4TUNE" --explain 2>/dev/null | head -n 1; }
# state PID: the state of PID (T: stopped, Z: ended), empty once reaped.
state() { awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null; }

# record_fixture SECTION KERNEL CONFIDENCE WHY [SCORES...]: on stdout,
# SECTION as an earlier tuner run wrote it (rc4tune.conf(5), THE RECORD),
# at $fixture_at if set, else 2026-01-01T00:00:00Z: its result line, a
# history line for each SCORES ("NAME:SCORE,..."), its key line; sealed
# once in its file (seal FILE).
record_fixture() {
	printf '[%s]\n;@ rc4tune v=1 at=%s by=0.1.0 sum=0000000000000000\n' "$1" \
		"${fixture_at:-2026-01-01T00:00:00Z}"
	printf ';@ result key=kernel value=%s confidence=%s why=%s\n' "$2" "$3" "$4"
	fixture_kernel=$2
	shift 4
	for s in "$@"; do
		printf ';@ history key=kernel at=2026-01-01T00:00:00Z confidence=high scores=%s\n' "$s"
	done
	printf 'kernel = %s\n' "$fixture_kernel"
}
# seal FILE: the right checksum into every record of FILE (tests/helpers/seal.py).
seal() { python3 "$RC4TUNE_TEST_DATA/helpers/seal.py" "$1"; }

# The last line of a test: exit 1 after saying how many checks failed.
finish() {
	[ "$fails" -eq 0 ] || { echo "$fails failed"; exit 1; }
	exit 0
}

# built_lib: $lib, the shared library this build made (librc4tune.la's
# dlname, under top_builddir's .libs); a hard error (99) when there is none.
built_lib() {
	: "${top_builddir:?}"
	dlname=$(sed -n "s/^dlname='\(.*\)'$/\1/p" "$top_builddir/librc4tune.la")
	lib=$top_builddir/.libs/$dlname
	[ -n "$dlname" ] && [ -f "$lib" ] || { echo "no shared library ($lib)"; exit 99; }
}
