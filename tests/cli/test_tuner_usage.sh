#!/bin/sh
# SPDX-License-Identifier: MIT
# test_tuner_usage.sh - the tuner's usage errors (rc4tune(1), EXIT STATUS;
# OPTIONS): a bad value, an action the options do not go with, --help
# with anything else, an option that takes a value given twice, an
# unknown kernel for --speed: exit 2, the reason said, nothing on stdout
# and no file written; --help alone is exit 0.
#
# Environment (make check sets it): RC4TUNE, the rc4tune binary.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tuner.sh"

# --- usage errors: exit 2 ---------------------------------------------
for bad in '--workload nosuch' '--budget 0' '--budget x' 'extra' '--speed' '--list'; do
	"$RC4TUNE" --generate-conf $bad --output "$tmp/u.conf" >/dev/null 2>&1
	rc=$?
	if [ $rc -eq 2 ] && [ ! -e "$tmp/u.conf" ]; then
		ok "usage error, exit 2: $bad"
	else
		fail "usage error $bad: rc=$rc"
	fi
done

# --help with anything else, and an option the action would ignore: a
# usage error (exit 2, nothing on stdout), the reason said.
printf '[default]\nkernel = nosuch\n' >"$tmp/unknown.conf"
printf '[default]\nkernel = int-8x\n' >"$tmp/good.conf"
for bad in '--help --json' '--help --bogus' '--help --version' \
	"--explain --output $tmp/u.conf" "--list --output $tmp/u.conf" \
	"--check-conf --output $tmp/u.conf" "--merge $tmp/good.conf --output $tmp/u.conf --budget 1" \
	"--merge $tmp/good.conf --output $tmp/u.conf --workload bulk" \
	'--explain --quiet' '--speed --if-missing' "--speed --output $tmp/u.conf" \
	"--generate-conf --json --quiet --output $tmp/u.conf" '--speed --json --quiet'; do
	"$RC4TUNE" $bad >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ ! -e "$tmp/u.conf" ] &&
	   grep -Eq 'goes with|unrecognized option|one action at a time' "$tmp/err"; then
		ok "usage error, exit 2: $bad: $(head -n 1 "$tmp/err")"
	else
		fail "usage error $bad: rc=$rc"; cat "$tmp/err"
	fi
done
# An option that takes a value, given twice: a usage error, not the last
# one taken (a file with an unknown kernel must not pass unchecked).
for bad in "--check-conf=$tmp/unknown.conf --check-conf=$tmp/good.conf" \
	"--check-conf=$tmp/unknown.conf --check-conf" \
	"--generate-conf --output $tmp/u.conf -o $tmp/u2.conf" \
	"--generate-conf --output $tmp/u.conf --budget 1 --budget 1" \
	"--speed --workload bulk --workload keys" \
	"--heuristic --cpuid-dump $tmp/a --cpuid-dump $tmp/b"; do
	"$RC4TUNE" $bad >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ ! -e "$tmp/u.conf" ] &&
	   [ ! -e "$tmp/u2.conf" ] && grep -q 'given twice' "$tmp/err"; then
		ok "usage error, exit 2: $bad: $(head -n 1 "$tmp/err")"
	else
		fail "repeated option $bad: rc=$rc"; cat "$tmp/err"
	fi
done
"$RC4TUNE" --check-conf="$tmp/unknown.conf" >/dev/null 2>&1
[ $? -eq 1 ] && ok "--check-conf: the file with an unknown kernel, alone, exits 1" ||
	fail "--check-conf $tmp/unknown.conf: not exit 1"
"$RC4TUNE" --help >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -q '^Usage: rc4tune' "$tmp/out" && [ ! -s "$tmp/err" ] &&
	ok "--help alone: the usage on stdout, exit 0" || fail "--help alone"

"$RC4TUNE" --speed $budget int-8x nosuch >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "unknown kernel 'nosuch'" "$tmp/err"; then
	ok "usage error, exit 2: --speed with an unknown kernel name"
else
	fail "--speed nosuch: rc=$rc"; cat "$tmp/err"
fi

finish
