#!/bin/sh
# SPDX-License-Identifier: MIT
# test_bindnow.sh - librc4tune.so and the provider module rc4tune.so bind
# every symbol when they are loaded, never at a symbol's first call, where
# the dynamic linker would save the vector registers (keystream in them)
# on the stack below the library's frames, deeper than it wipes
# (librc4tune(3), SECRETS IN MEMORY); their relocations are read-only
# after that (RELRO).  tests/unit/check_wipe.c watches the stack itself, where
# this CPU's registers hold keystream; this holds the link on every CPU.
#
# Environment (make check sets it): top_builddir; RC4TUNE_PROVIDER_DIR
# where the module is built.
set -u
. "$(dirname "$0")/lib.sh"
: "${top_builddir:?}"
command -v readelf >/dev/null || skip "no readelf"
built_lib
set -- "$lib"
if [ -n "${RC4TUNE_PROVIDER_DIR:-}" ]; then
	[ -f "$RC4TUNE_PROVIDER_DIR/rc4tune.so" ] ||
		{ echo "no $RC4TUNE_PROVIDER_DIR/rc4tune.so"; exit 99; }
	set -- "$@" "$RC4TUNE_PROVIDER_DIR/rc4tune.so"
else
	echo "no provider module in this build: $dlname alone"
fi

for so; do
	name=${so##*/}
	readelf -dW "$so" >"$tmp/dynamic" || { echo "readelf -d $so failed"; exit 99; }
	# -z now: DF_BIND_NOW in FLAGS, or DF_1_NOW in FLAGS_1
	if grep -Eq '\(FLAGS\) .*BIND_NOW|\(FLAGS_1\) .*[ :]NOW( |$)' "$tmp/dynamic"; then
		ok "$name: bound at load ($(grep -E '\(FLAGS(_1)?\)' "$tmp/dynamic" |
			sed 's/.*) *//' | tr '\n' ' '))"
	else
		fail "$name: binds lazily (no BIND_NOW in FLAGS, no NOW in FLAGS_1)"
	fi
	readelf -lW "$so" | grep -q '^ *GNU_RELRO ' &&
		ok "$name: RELRO" || fail "$name: no GNU_RELRO segment"
done
finish
