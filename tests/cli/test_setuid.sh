#!/bin/sh
# SPDX-License-Identifier: MIT
# test_setuid.sh - a setuid-root program run by nobody ignores
# (librc4tune(3), ENVIRONMENT) RC4TUNE_KERNEL, RC4TUNE_CONF and
# RC4TUNE_DEBUG (secure_getenv); the same program without the setuid bit
# obeys them.  Needs root (to make the binary setuid-root and to switch to
# nobody with setpriv); skips, saying why, where it cannot show it.
#
# Environment (make check sets it): top_builddir, RC4TUNE.
set -u
. "$(dirname "$0")/lib.sh"
: "${top_builddir:?}" "${RC4TUNE:?}"
prog=$top_builddir/tests/helpers/setuid_env

[ "$(id -u)" = 0 ] || skip "not root: cannot make a setuid-root binary"
command -v setpriv >/dev/null || skip "no setpriv to run as another user"
head -c 4 "$prog" | grep -q ELF || skip "$prog is not a plain executable"
chmod 755 "$tmp"
cp "$prog" "$tmp/setuid" && cp "$prog" "$tmp/plain" || exit 99
chown 0:0 "$tmp/setuid" "$tmp/plain" && chmod 4755 "$tmp/setuid" &&
	chmod 755 "$tmp/plain" || exit 99
# LeakSanitizer cannot trace a setuid process: no leak check here.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS

# as_nobody PROG [VAR=VALUE...]: PROG's output as user nobody, its stderr
# in $tmp/err.
as_nobody() {
	p=$1
	shift
	env "$@" setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$tmp/$p" 2>"$tmp/err"
}

base=$(as_nobody setuid) || { cat "$tmp/err"; skip "nobody cannot run the setuid binary"; }
[ "${base#* }" = 1 ] || skip "no secure mode for the setuid binary (nosuid mount?): '$base'"
k0=${base% *}
# a kernel that runs here and is not the one chosen anyway
other=$("$RC4TUNE" --list | awk -v k="$k0" '$2 == "usable" && $1 != k && $1 != "char-ref" { print $1; exit }')
[ -n "$other" ] || skip "no second usable kernel"
printf '[default]\nkernel = %s\n' "$other" >"$tmp/conf"
chmod 644 "$tmp/conf"
echo "secure-mode choice: $k0; the variables name: $other"

for var in "RC4TUNE_KERNEL=$other" "RC4TUNE_CONF=$tmp/conf"; do
	got=$(as_nobody plain "$var")
	[ "$got" = "$other 0" ] || fail "plain program with $var: '$got', want '$other 0'"
	got=$(as_nobody setuid "$var")
	[ "$got" = "$k0 1" ] || fail "setuid program with $var: '$got', want '$k0 1'"
done
as_nobody plain RC4TUNE_DEBUG=1 >/dev/null
grep -q '^librc4tune: chosen' "$tmp/err" || fail "plain program with RC4TUNE_DEBUG=1 printed no trail"
as_nobody setuid RC4TUNE_DEBUG=1 >/dev/null
[ ! -s "$tmp/err" ] || { fail "setuid program with RC4TUNE_DEBUG=1 printed:"; cat "$tmp/err"; }
[ $fails -eq 0 ] && echo "PASS: the setuid program ignored all three"
[ $fails -eq 0 ]
