#!/bin/sh
# SPDX-License-Identifier: MIT
# test_lib_contents.sh - librc4tune.so carries what programs need at run
# time, and not the tuner's side of the config (README, Source layout;
# doc/hacking.md, Data flow): none of the functions of tuner/libsections.la
# (sections found, judged, built, sealed and put back; records read and
# written) is in it, and the names it shares with the tuner
# (src/sectionname.c) are.  Prints the library's size.
#
# Environment (make check sets it): top_builddir.
set -u
. "$(dirname "$0")/lib.sh"
: "${top_builddir:?}"
command -v nm >/dev/null || skip "no nm"
built_lib
sections=$top_builddir/tuner/.libs/libsections.a
[ -f "$sections" ] || { echo "no $sections"; exit 99; }

# Functions by name: the tuner's side's global ones, and every one the
# library defines (hidden ones are local there).
nm --defined-only "$sections" | awk '$2 == "T" { print $3 }' | sort -u >"$tmp/tuner"
nm --defined-only "$lib" | awk '$2 ~ /^[Tt]$/ { sub(/@.*/, "", $3); print $3 }' |
	sort -u >"$tmp/lib"
[ -s "$tmp/tuner" ] && [ -s "$tmp/lib" ] || { echo "nm listed no functions"; exit 99; }
both=$(comm -12 "$tmp/tuner" "$tmp/lib")
[ -z "$both" ] &&
	ok "none of the $(wc -l <"$tmp/tuner") functions of tuner/libsections.la in $dlname" ||
	fail "the tuner's functions in $dlname: $(echo $both)"
for f in rc4_section_name rc4_section_key rc4_section_kind; do
	grep -qx "$f" "$tmp/lib" && ok "$f: in $dlname" || fail "$f: not in $dlname"
done
command -v size >/dev/null && size "$lib" | sed 's/^/size: /'
echo "functions in $dlname: $(wc -l <"$tmp/lib")"
finish
