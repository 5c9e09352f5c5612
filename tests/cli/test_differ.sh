#!/bin/sh
# SPDX-License-Identifier: MIT
# test_differ.sh - one reading of a config everywhere (librc4tune(3),
# SELECTION): for random configs (tests/helpers/confgen.c, the fuzzers' generator)
# the kernel the library picks, what --explain says and whose sections it
# names, what --check-conf attributes, and after --generate-conf (on the
# seam) the section the library then reads, all agree; and the run settles
# (--if-missing after it does nothing).
#
# Environment (make check sets it): RC4TUNE, RC4TUNE_SEAM, GENCONF,
# LIBPICK; DIFFER_CONFIGS, how many configs (default 100, 20 under an
# emulator), DIFFER_SEED, the first seed (default 1); TEST_EMULATOR, if
# set, runs a cross-built program (RC4TUNE is one already).
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE:?set RC4TUNE to the rc4tune binary}"
: "${RC4TUNE_SEAM:?set RC4TUNE_SEAM to tests/helpers/rc4tune_seam}"
: "${GENCONF:?set GENCONF to tests/helpers/genconf}"
: "${LIBPICK:?set LIBPICK to tests/helpers/libpick}"
[ -x "$GENCONF" ] || skip "no $GENCONF (built with Check only)"
emu=${TEST_EMULATOR:-}
configs=${DIFFER_CONFIGS:-$([ -n "$emu" ] && echo 20 || echo 100)}
seed=${DIFFER_SEED:-1}

live_section "$RC4TUNE"
steady="int-4x=100,100,100 char-4x=90,90,90"

# The owner lines (--explain's after "config "; --check-conf's) of this
# CPU's sections, "LINE: OWNER" each.
owners() { sed -n "s|^\\(config \\)\\{0,1\\}$1:\\([0-9]*\\): \\[$live\\]: |\\2: |p" "$2"; }
# The header lines generated for this CPU, one a line.
mine() { awk '$2 == 1 { print $1 }' "$1.headers"; }
# The library's pick for FILE: its two kernels, and the config line it
# took the single-stream one from ("LINE SECTION", or "-").
pick() {
	RC4TUNE_CONF=$1 RC4TUNE_DEBUG=1 $emu "$LIBPICK" >"$tmp/pick" 2>"$tmp/trail"
	from=$(sed -n 's/^librc4tune: chosen: [^ ]* (config line \([0-9]*\) \[\(.*\)\])$/\1 \2/p' "$tmp/trail" | head -n 1)
	from=${from:--}
}
# the section whose header is the last before LINE in FILE.headers is this CPU's
in_mine() { awk -v n="$1" '$1 < n { m = $2 } END { exit !m }' "$2.headers"; }

# check FILE WHAT: the library, --explain and --check-conf agree on FILE.
check() {
	f=$1
	pick "$f"
	RC4TUNE_CONF=$f "$RC4TUNE" --explain >"$tmp/explain" 2>&1
	"$RC4TUNE" --check-conf "$f" >"$tmp/check" 2>&1
	crc=$?
	[ "$(head -n 1 "$tmp/explain")" = "$(sed -n 1p "$tmp/pick")" ] &&
		grep -qx "crypt_many_kernel $(sed -n 2p "$tmp/pick")" "$tmp/explain" ||
		{ fail "$2: --explain and the library pick differently"; return 1; }
	case $from in
	-) ;;
	*" pin"|*" default") ;;
	*" $live") in_mine "${from%% *}" "$f" ||
		{ fail "$2: the library took line ${from%% *}, not in this CPU's section"; return 1; } ;;
	*) fail "$2: the library took another CPU's line: $from"; return 1 ;;
	esac
	# --explain names exactly the generated sections of this CPU
	[ "$(owners "$f" "$tmp/explain" | cut -d: -f1)" = "$(mine "$f")" ] ||
		{ fail "$2: --explain names other sections as this CPU's"; return 1; }
	if grep -q 'whole file ignored' "$tmp/trail"; then
		[ $crc -eq 1 ] && grep -q 'the library ignores the whole file' "$tmp/check" ||
			{ fail "$2: the library ignores the file, --check-conf does not say so"; return 1; }
		return 0
	fi
	[ "$(owners "$f" "$tmp/check")" = "$(owners "$f" "$tmp/explain")" ] ||
		{ fail "$2: --check-conf and --explain attribute differently"; return 1; }
}

# generate FILE WHAT: after --generate-conf on the seam, the library reads
# the section it wrote, or the run kept a person's section --explain names,
# or the file is one the library refuses; then --if-missing does nothing.
generate() {
	f=$1
	cp "$f" "$tmp/before"
	RC4TUNE_SEAM_RATES=$steady $emu "$RC4TUNE_SEAM" --generate-conf --quiet \
		--output "$f" 2>"$tmp/err"
	grc=$?
	if [ $grc -ne 0 ]; then
		grep -q 'would be one the library refuses' "$tmp/err" &&
			grep -q 'whole file ignored' "$tmp/trail" ||
			{ fail "$2: --generate-conf failed"; cat "$tmp/err"; return 1; }
		return 0
	fi
	kept=$(sed -n "s/^rc4tune: kept \\[$live\\] in .* (line \\([0-9]*\\)): it is a person's.*/\\1/p" "$tmp/err")
	if [ -n "$kept" ]; then
		cmp -s "$f" "$tmp/before" &&
			owners "$f" "$tmp/explain" | grep -q "^$kept: a person's" ||
			{ fail "$2: kept line $kept, which --explain does not call a person's"; cat "$tmp/err"; return 1; }
		return 0
	fi
	RC4TUNE_CONF=$f "$RC4TUNE" --explain >"$tmp/explain" 2>&1
	pick "$f"
	written=$(awk -v h="[$live]" '{ sub(/\r$/, "") }
		$0 == h { p = 1; next } /^\[/ { p = 0 }
		p && /^kernel = / { k = $3 } END { print k }' "$f")
	[ "$(owners "$f" "$tmp/explain" | grep -c ": the tuner's")" -eq 1 ] &&
		[ "$(owners "$f" "$tmp/explain" | wc -l)" -eq 1 ] ||
		{ fail "$2: after the run, not one section of the tuner's for this CPU"; cat "$tmp/explain"; return 1; }
	case $from in
	*" $live") [ "$(sed -n 1p "$tmp/pick")" = "$written" ] ||
		{ fail "$2: the library does not read the kernel written ($written)"; return 1; } ;;
	*" pin") ;;
	*) fail "$2: after the run the library took its kernel from: $from"; return 1 ;;
	esac
	RC4TUNE_SEAM_RATES=$steady $emu "$RC4TUNE_SEAM" --generate-conf --if-missing \
		--output "$f" >"$tmp/out" 2>&1
	grep -q 'nothing to do' "$tmp/out" ||
		{ fail "$2: --if-missing after a confident run measured again"; cat "$tmp/out"; return 1; }
}

bad=0
i=0
while [ $i -lt "$configs" ]; do
	s=$((seed + i))
	f=$tmp/c$s.conf
	$emu "$GENCONF" "$s" "$live" "$f" || { fail "genconf $s"; break; }
	chmod 644 "$f"
	if check "$f" "seed $s" && generate "$f" "seed $s"; then
		rm -f "$f" "$f.headers"
	else
		bad=$((bad + 1))
		echo "seed $s (replay: DIFFER_SEED=$s DIFFER_CONFIGS=1):"
		sed 's/^/  | /' "$tmp/before"
	fi
	i=$((i + 1))
done
[ $bad -eq 0 ] && ok "$configs configs (seeds $seed to $((seed + configs - 1))): the library, --explain, --check-conf and --generate-conf agree"
finish
