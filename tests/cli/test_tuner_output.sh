#!/bin/sh
# SPDX-License-Identifier: MIT
# test_tuner_output.sh - rc4tune --generate-conf's section where --output
# says (rc4tune(1), OPTIONS): on standard output by any of its names, the
# section alone; a fresh file the library and inih read as written, and
# what the tuner prints about it; --quiet prints nothing and still writes.
# Short budgets; no timing is asserted (the machine is shared).
#
# Environment (make check sets it): RC4TUNE, the rc4tune binary; INIPARSE,
# tests/helpers/iniparse.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tuner.sh"
: "${INIPARSE:?set INIPARSE to tests/helpers/iniparse}"

# --- --output -: the section alone, on stdout --------------------------
tune --output -
kernel=$(sed -n 's/^kernel = //p' "$tmp/out")
if [ $rc -eq 0 ] && [ -s "$tmp/out" ] && [ ! -s "$tmp/err" ] &&
   [ "$(head -n 1 "$tmp/out")" = "[$live]" ] &&
   printf '%s\n' "$live" | grep -Eq '^cpu [^ ]+ [0-9]+ (0x[0-9a-f]+|[0-9]+)$' &&
   [ "$(tail -n 1 "$tmp/out")" = "kernel = $kernel" ] &&
   [ "$(sed '1d;$d' "$tmp/out" | grep -v '^;' | grep -Ecv '^(set_keys|crypt_many)_kernel = ')" -eq 0 ] &&
   "$RC4TUNE" --list | grep -q "^$(sed -n 's/^set_keys_kernel = //p' "$tmp/out")  *usable  *batch: " &&
   "$RC4TUNE" --list | grep -q "^$(sed -n 's/^crypt_many_kernel = //p' "$tmp/out")  *usable  *batch: " &&
   grep -q '^; workload mixed' "$tmp/out" &&
   "$RC4TUNE" --list | grep -q "^$kernel  *usable "; then
	ok "--output -: [$live], comments, set_keys_kernel, crypt_many_kernel, kernel = $kernel last"
else
	fail "--output -: rc=$rc"; cat "$tmp/out" "$tmp/err"
fi

# --- stdout by any name: what descriptor 1 is, not how it is spelled ---
# /dev/stdout to a file and /dev/fd/1 to a pipe: the section alone, no
# report and no "wrote" lines, a file the library takes whole.
tune --output /dev/stdout
if [ $rc -eq 0 ] && [ "$(head -n 1 "$tmp/out")" = "[$live]" ] &&
   ! grep -q '^rc4tune:' "$tmp/out" && [ "$(grep -cv '^;' "$tmp/out")" -le 4 ] &&
   "$RC4TUNE" --check-conf "$tmp/out" >"$tmp/check" 2>&1 &&
   grep -q 'OK (0 errors, 0 warnings)' "$tmp/check"; then
	ok "--output /dev/stdout > FILE: the section alone, as with -"
else
	fail "--output /dev/stdout > FILE: rc=$rc"; cat "$tmp/out" "$tmp/err" "$tmp/check"
fi
"$RC4TUNE" --generate-conf $budget --output /dev/fd/1 2>"$tmp/err" | cat >"$tmp/out"
[ "$(head -n 1 "$tmp/out")" = "[$live]" ] && ! grep -q '^rc4tune:' "$tmp/out" &&
	ok "--output /dev/fd/1 into a pipe: the section alone" ||
	{ fail "--output /dev/fd/1 into a pipe"; cat "$tmp/out" "$tmp/err"; }
tune --json --output /dev/stdout
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q 'would share stdout' "$tmp/err" &&
	ok "--json --output /dev/stdout: refused as --output - is (exit 2)" ||
	{ fail "--json --output /dev/stdout: rc=$rc"; cat "$tmp/out" "$tmp/err"; }

# --- a fresh file ------------------------------------------------------
mkdir "$tmp/fresh"
tune --output "$tmp/fresh/rc4tune.conf"
f=$tmp/fresh/rc4tune.conf
k=$(sed -n 's/^kernel = //p' "$f" 2>/dev/null)
sk=$(sed -n 's/^set_keys_kernel = //p' "$f" 2>/dev/null)
bk=$(sed -n 's/^crypt_many_kernel = //p' "$f" 2>/dev/null)
if [ $rc -eq 0 ] && [ "$(head -n 1 "$f")" = "[$live]" ] &&
   [ "$(tail -n 1 "$f")" = "kernel = $k" ] &&
   [ "$(stat -c %a "$f")" = 644 ] &&
   [ "$(ls -A "$tmp/fresh")" = rc4tune.conf ] &&
   grep -q "wrote kernel = $k for \[$live\] to $f" "$tmp/out" &&
   grep -q "^$k " "$tmp/out" &&
   "$INIPARSE" "$f" >"$tmp/ini" &&
   [ "$(cat "$tmp/ini")" = "[$live] crypt_many_kernel=$bk
[$live] set_keys_kernel=$sk
[$live] kernel=$k" ] &&
   "$RC4TUNE" --check-conf "$f" >/dev/null &&
   [ "$(RC4TUNE_CONF=$f "$RC4TUNE" --explain | head -n 1)" = "$k" ] &&
   RC4TUNE_CONF=$f "$RC4TUNE" --explain | grep -qx "set_keys_kernel $sk" &&
   RC4TUNE_CONF=$f "$RC4TUNE" --explain | grep -qx "crypt_many_kernel $bk"
then
	ok "fresh file: mode 644, no temporary left, inih reads [$live] kernel=$k, set_keys_kernel=$sk and crypt_many_kernel=$bk, the library chooses them"
else
	fail "fresh file: rc=$rc"; cat "$tmp/out" "$tmp/err" "$f"
fi

# --- --quiet: silence (but one line for an uncertain result, which a busy
# machine gives: make check runs tests side by side), and still the file -
tune --output "$tmp/quiet.conf" --quiet --workload keys
if [ $rc -eq 0 ] && [ ! -s "$tmp/out" ] &&
   { [ ! -s "$tmp/err" ] || { [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q 'warning: the result is uncertain' "$tmp/err"; }; } &&
   grep -q '^; workload keys' "$tmp/quiet.conf" &&
   grep -q '^kernel = ' "$tmp/quiet.conf"; then
	ok "--quiet prints nothing, writes the file (workload keys recorded)"
else
	fail "--quiet: rc=$rc"; cat "$tmp/out" "$tmp/err"
fi

finish
