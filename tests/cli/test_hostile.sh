#!/bin/sh
# SPDX-License-Identifier: MIT
# test_hostile.sh - hostile config files never crash or hang the library
# (rc4tune --explain reads the config as every program does) or --check-conf
# (rc4tune.conf(5), WHEN THE FILE IS IGNORED): random bytes, NULs, huge
# lines, a BOM with CRLF, a directory, a FIFO, a device, a symlink loop, a
# file too big, 13000 sections (the most that fit; --check-conf tracks
# each).  Each run gets 120 s (timeout) to catch a hang, far above what one
# takes under sanitizers; no speed is asserted.
#
# Environment (make check sets it): RC4TUNE, the rc4tune binary.
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE:?set RC4TUNE to the rc4tune binary}"

# run WHAT WANT CMD...: CMD exits WANT ("0|1": either), not by a signal.
run() {
	what=$1 want=$2
	shift 2
	timeout 120 "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	case "|$want|" in
	*"|$rc|"*) echo "ok: $what (exit $rc)" ;;
	*) fail "$what: exit $rc, want $want"; head -c 2000 "$tmp/err" ;;
	esac
}

# check NAME: --explain (library) and --check-conf on $tmp/NAME.
check() {
	RC4TUNE_CONF=$tmp/$1 run "--explain with $1" 0 "$RC4TUNE" --explain
	grep -q 'chosen: ' "$tmp/out" || fail "--explain with $1 chose nothing"
	run "--check-conf $1" "0|1" "$RC4TUNE" --check-conf "$tmp/$1"
}

head -c 4096 /dev/urandom >"$tmp/random"
head -c 200000 /dev/urandom >"$tmp/random-big"
printf '[default]\nkernel = int-8x\0\n[cpu \0 6 1]\n' >"$tmp/nuls"
awk 'BEGIN { printf "[default]\nkernel = "; for (i = 0; i < 100000; i++) printf "x"; print "" }' >"$tmp/huge-line"
awk 'BEGIN { for (i = 0; i < 13000; i++) printf "[cpu V 6 %d]\nk=v\n", i }' >"$tmp/many-sections"
printf '\357\273\277[default]\r\nkernel = char-1x\r\n' >"$tmp/bom-crlf"
printf '[default\nkernel = [[[]]] ; ;\n=\n[]\n\t[x]\n' >"$tmp/garbage"
dd if=/dev/zero of="$tmp/too-big" bs=1 count=0 seek=300000 2>/dev/null
: >"$tmp/empty"
mkdir "$tmp/directory"
mkfifo "$tmp/fifo"
ln -s /dev/zero "$tmp/device"
ln -s loop "$tmp/loop"
chmod 644 "$tmp"/random* "$tmp"/nuls "$tmp"/huge-line "$tmp"/many-sections \
	"$tmp"/bom-crlf "$tmp"/garbage "$tmp"/too-big "$tmp"/empty
for f in random random-big nuls huge-line many-sections bom-crlf garbage \
	too-big empty directory fifo device loop; do
	check "$f"
done
# A BOM and CRLF line ends are a valid file: its kernel is taken.
RC4TUNE_CONF=$tmp/bom-crlf "$RC4TUNE" --explain >"$tmp/out" 2>&1
[ "$(head -n 1 "$tmp/out")" = char-1x ] ||
	{ fail "the BOM and CRLF file's kernel was not taken"; cat "$tmp/out"; }
[ $fails -eq 0 ]
