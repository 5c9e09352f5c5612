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

# The last line of a test: exit 1 after saying how many checks failed.
finish() {
	[ "$fails" -eq 0 ] || { echo "$fails failed"; exit 1; }
	exit 0
}
