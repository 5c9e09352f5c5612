#!/bin/sh
# SPDX-License-Identifier: MIT
# test_keysearch.sh - the batch calls on a real job (librc4tune(3),
# EXAMPLES): doc/examples/keysearch searches a 2^16 slice of 40-bit RC4
# keys through rc4tune_set_keys and rc4tune_crypt_many, as PDF's
# revision-2 /U is checked, and finds the key that gives the /U, and only
# it (and OpenSSL's search, where built in, the same); a wrong /U finds
# nothing.  The speed (keys/s, the ratio to OpenSSL) is printed, never
# asserted.
#
# Environment (make check sets it): KEYSEARCH; TEST_EMULATOR if set.
set -u
. "$(dirname "$0")/lib.sh"
: "${KEYSEARCH:?set KEYSEARCH to doc/examples/keysearch}"
ks() { ${TEST_EMULATOR-} "$KEYSEARCH" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
show() { sed 's/^/  /' "$tmp/out" "$tmp/err"; }
# found KEY: this run exited 0 and each search found KEY alone.
found() {
	[ "$rc" -eq 0 ] && grep -q "^rc4tune  found $1;" "$tmp/out" &&
		{ grep -q "^OpenSSL  found $1;" "$tmp/out" ||
			grep -q '^OpenSSL  not built in' "$tmp/out"; }
}

# A fixed answer, computed by an RC4 written apart from the library:
# RC4(123456beef, PDF's padding).
key=123456beef
u=67aa81509b20fb760ae94660d0a77a2c120eed51567ccce743b40631814b4556
ks --prefix 1234560000 --bits 16 --u $u
show
found $key && ok "2^16 keys: $key found, alone" ||
	fail "2^16 keys: $key not found alone (exit $rc)"

# A random key planted in a random slice, its /U by the single-key calls.
ks --selftest 16
show
planted=$(sed -n 's/^planted //p' "$tmp/out")
[ -n "$planted" ] && found "$planted" && grep -q '^selftest: ok' "$tmp/out" &&
	ok "--selftest 16: the planted key $planted found, alone" ||
	fail "--selftest 16: the planted key ${planted:-?} not found (exit $rc)"

# A slice shorter than a block, and one key.
ks --prefix 123456be80 --bits 7 --u $u
found $key && ok "2^7 keys: $key found" || { fail "2^7 keys (exit $rc)"; show; }
ks --prefix $key --bits 0 --u $u
found $key && ok "one key: $key found" || { fail "one key (exit $rc)"; show; }

# A wrong /U (its last byte changed): nothing found, exit 1.
ks --prefix 1234560000 --bits 16 --u ${u%??}57
[ "$rc" -eq 1 ] && grep -q '^rc4tune  found nothing;' "$tmp/out" &&
	ok "a wrong /U: nothing found, exit 1" ||
	{ fail "a wrong /U: exit $rc"; show; }

# Usage: exit 2, saying what is wrong.
for args in "--bits 41 --u $u" "--bits 16" "--u $u" "--bits 16 --u ${u%?}" \
	"--prefix 12345600ff --bits 16 --u $u" "--selftest 8 --u $u" "--what"; do
	# shellcheck disable=SC2086 # the words of one command line
	ks $args
	[ "$rc" -eq 2 ] && grep -q '^keysearch: ' "$tmp/err" &&
		ok "usage: $args: exit 2" ||
		{ fail "usage: $args: exit $rc"; show; }
done
finish
