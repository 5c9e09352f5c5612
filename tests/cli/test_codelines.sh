#!/bin/sh
# SPDX-License-Identifier: MIT
# test_codelines.sh - the tuner times the kernels' code as programs run it
# (rc4tune(1), --generate-conf): each function of libcore.la (the kernels
# and the library's core, which rc4tune and librc4tune.so both link)
# starts at the same offset within a 64-byte cache line in both, however
# much other code either holds.  A kernel's speed moves with where its
# loops fall on the lines (doc/hacking.md, Measuring).
#
# Environment (make check sets it): top_builddir.  The programs built
# there, not $RC4TUNE (under an emulator, a script that runs one).
set -u
. "$(dirname "$0")/lib.sh"
: "${top_builddir:?}"
command -v nm >/dev/null || skip "no nm"
built_lib
core=$top_builddir/.libs/libcore.a
[ -f "$core" ] || { echo "no $core"; exit 99; }

# lines FILE: "NAME OFFSET" for each function FILE defines once, OFFSET
# its address mod 64 (from the last two hex digits: 256 is a multiple);
# not the rare paths the compiler moves out to .text.unlikely (NAME.cold),
# which the linker packs together from every object.
lines() {
	nm --defined-only "$1" | awk '
		function hex(c) { return index("0123456789abcdef", tolower(c)) - 1 }
		$2 ~ /^[Tt]$/ && $3 !~ /\.cold/ {
			sub(/@.*/, "", $3); n[$3]++; l = length($1)
			a[$3] = (hex(substr($1, l - 1, 1)) * 16 + hex(substr($1, l, 1))) % 64
		}
		END { for (s in n) if (n[s] == 1) print s, a[s] }' | sort
}
nm --defined-only "$core" | awk '$2 ~ /^[Tt]$/ { print $3 }' | sort |
	uniq -u >"$tmp/core"
lines "$top_builddir/rc4tune" | join - "$tmp/core" >"$tmp/tuner"
lines "$lib" | join - "$tmp/core" >"$tmp/lib"
join "$tmp/tuner" "$tmp/lib" >"$tmp/both"
n=$(wc -l <"$tmp/both")
[ "$n" -ge 20 ] || { echo "only $n functions of libcore in both"; exit 99; }
awk '$2 != $3' "$tmp/both" >"$tmp/moved"
[ -s "$tmp/moved" ] &&
	fail "functions at other offsets in a line (name, rc4tune, $dlname): $(head -5 "$tmp/moved" | tr '\n' ';')" ||
	ok "$n functions of libcore.la at the same offset in a 64-byte line in rc4tune and $dlname"
finish
