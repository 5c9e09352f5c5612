#!/bin/sh
# SPDX-License-Identifier: MIT
# test_abi.sh - librc4tune.so.0's ABI as packagers and programs see it
# (librc4tune(3), SYNOPSIS; README, Installing and packaging): it exports
# exactly the functions src/rc4tune.h declares, each at its version node of
# src/librc4tune.map (where configure versions symbols),
# debian/librc4tune0.symbols lists exactly those, and abidiff finds no
# change against the committed baseline data/abi/librc4tune.so.0.abi (a
# removed function, a changed parameter or struct fails).  The abidiff part
# is skipped, saying why, without abidiff (Debian: abigail-tools), without
# debug info, without symbol versions, or where the baseline is another
# architecture's.
#
# A deliberate change to the ABI: make abi-baseline, and commit the new
# baseline with the change (and a new node in the map for new functions).
#
# Environment (make check sets it): RC4TUNE_TEST_DATA, top_builddir,
# ABIDW_FLAGS, RC4TUNE_LD_VERSION_SCRIPT (yes or no).
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE_TEST_DATA:?}" "${top_builddir:?}" "${ABIDW_FLAGS:?}"
src=$RC4TUNE_TEST_DATA/..
header=$src/src/rc4tune.h
map=$src/src/librc4tune.map
baseline=$src/data/abi/librc4tune.so.0.abi
symbols=$src/debian/librc4tune0.symbols

built_lib

# The header's functions: every RC4TUNE_API declaration.
sed -n 's/^RC4TUNE_API[^(]*[ *]\(rc4tune_[a-z0-9_]*\)(.*/\1/p' "$header" |
	sort >"$tmp/header"
[ -s "$tmp/header" ] || { echo "no RC4TUNE_API function in $header"; exit 99; }
# What the library defines, NAME@@VERSION (nm -D shows the version), and
# the version nodes themselves (absolute symbols).
nm -D --defined-only "$lib" | awk '$2 != "A" { print $3 }' | sort >"$tmp/exported"
nm -D --defined-only "$lib" | awk '$2 == "A" { print $3 }' | sort >"$tmp/nodes"
sed 's/@.*//' "$tmp/exported" >"$tmp/names"
if cmp -s "$tmp/header" "$tmp/names"; then
	ok "exports exactly the $(wc -l <"$tmp/header") functions of rc4tune.h"
else
	fail "exports differ from rc4tune.h's functions (< header, > library):"
	diff "$tmp/header" "$tmp/names" | grep '^[<>]'
fi

if [ "${RC4TUNE_LD_VERSION_SCRIPT:-no}" = yes ]; then
	sed -n 's/^\(LIBRC4TUNE_[A-Za-z0-9_.]*\) *{.*/\1/p' "$map" | sort >"$tmp/mapnodes"
	if cmp -s "$tmp/nodes" "$tmp/mapnodes"; then
		ok "version nodes: $(tr '\n' ' ' <"$tmp/nodes")"
	else
		fail "version nodes $(tr '\n' ' ' <"$tmp/nodes")are not the map's: $(tr '\n' ' ' <"$tmp/mapnodes")"
	fi
	unversioned=$(grep -v '@@LIBRC4TUNE_' "$tmp/exported")
	[ -z "$unversioned" ] && ok "every function at a LIBRC4TUNE_ version" ||
		fail "without a version node: $unversioned"
	# debian/librc4tune0.symbols: " NAME@VERSION MINVER" lines, the
	# nodes' own symbols included (NODE@NODE), as dpkg-gensymbols writes them.
	if [ -f "$symbols" ]; then
		sed -n 's/^ \([^ #]*\) .*/\1/p' "$symbols" | sort >"$tmp/deb"
		{ sed 's/@@/@/' "$tmp/exported"
		  sed 's/.*/&@&/' "$tmp/nodes"; } | sort >"$tmp/want"
		if cmp -s "$tmp/deb" "$tmp/want"; then
			ok "debian/librc4tune0.symbols lists exactly the versioned symbols"
		else
			fail "debian/librc4tune0.symbols differs (< symbols file, > library):"
			diff "$tmp/deb" "$tmp/want" | grep '^[<>]'
		fi
	fi
else
	echo "note: built without symbol versions (configure: the linker takes no version script)"
fi

# The rest is skipped where it cannot run: a failure above still fails.
skip_rest() { [ "$fails" -eq 0 ] || { echo "SKIP: $*"; finish; }; skip "$*"; }
command -v abidiff >/dev/null && command -v abidw >/dev/null ||
	skip_rest "no abidiff/abidw (Debian: abigail-tools): the ABI is not compared with $baseline"
[ -f "$baseline" ] || { echo "no baseline $baseline"; exit 99; }
[ "${RC4TUNE_LD_VERSION_SCRIPT:-no}" = yes ] ||
	skip_rest "the baseline is of the versioned library: abidiff would call every unversioned function another one"
readelf -S "$lib" 2>/dev/null | grep -q '\.debug_info' ||
	skip_rest "$lib has no debug info (build with -g): no types to compare"
# shellcheck disable=SC2086 # ABIDW_FLAGS is a list of options
abidw $ABIDW_FLAGS --header-file "$header" "$lib" >"$tmp/now.abi" 2>"$tmp/abidw.err" ||
	{ cat "$tmp/abidw.err"; echo "abidw failed on $lib"; exit 99; }
arch() { sed -n "s/^<abi-corpus .*architecture='\([^']*\)'.*/\1/p" "$1"; }
[ "$(arch "$baseline")" = "$(arch "$tmp/now.abi")" ] ||
	skip_rest "the baseline is $(arch "$baseline")'s, this build $(arch "$tmp/now.abi")'s"
abidiff "$baseline" "$tmp/now.abi" >"$tmp/abidiff.out" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then
	ok "abidiff: no change against data/abi/librc4tune.so.0.abi"
else
	cat "$tmp/abidiff.out"
	fail "abidiff exit $rc against data/abi/librc4tune.so.0.abi (4: a change, 8: an incompatible one); if it is meant, run make abi-baseline and commit the baseline"
fi
finish
