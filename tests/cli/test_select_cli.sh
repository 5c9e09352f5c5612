#!/bin/sh
# SPDX-License-Identifier: MIT
# test_select_cli.sh - rc4tune --explain, --heuristic [--cpuid-dump FILE],
# --check-conf [FILE] (librc4tune(3), SELECTION, through rc4tune(1)); and
# the config --generate-conf writes is the one the library then uses.
# Fixtures are written here, into a temporary directory.
#
# Environment (make check sets it): RC4TUNE, the rc4tune binary.
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE:?set RC4TUNE to the rc4tune binary}"

tab=$(printf '\t')
RC4TUNE_CONF=$tmp/rc4tune.conf
export RC4TUNE_CONF


# expect WHAT STATUS CMD...: run CMD (stdout, stderr in $tmp/out, $tmp/err)
# and check its exit status.
expect() {
	what=$1 want=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq "$want" ]; then ok "$what"; else
		fail "$what: exit $rc, not $want"; cat "$tmp/out" "$tmp/err"
	fi
}

# has FILE PATTERN WHAT: FILE has a line matching the grep PATTERN.
has() {
	if grep -q -- "$2" "$1"; then ok "$3"; else
		fail "$3: no '$2' in:"; cat "$1"
	fi
}

# dump FILE VENDOR-WORDS LEAF1-EAX [LEAF1-ECX LEAF7-EBX [MAX-LEAF]]: a raw
# CPUID dump as libcpuid writes it: leaves 0 and 1 (the identity), and
# with the features (SSE4.1: leaf 1 ECX bit 19; AVX-512 F, BW, VL: leaf 7
# EBX bits 16, 30, 31), leaf 7, leaf 0 saying the highest is MAX-LEAF
# (default 00000007, the least that reaches leaf 7).
dump() {
	if [ $# -eq 3 ]; then
		printf 'basic_cpuid[0]=00000001 %s\nbasic_cpuid[1]=%s 00000800 00000000 178bfbff\n' \
			"$2" "$3" >"$1"
	else
		printf 'basic_cpuid[0]=%s %s\nbasic_cpuid[1]=%s 00000800 %s 178bfbff\nbasic_cpuid[7]=00000000 %s 00000000 00000000\n' \
			"${6:-00000007}" "$2" "$3" "$4" "$5" >"$1"
	fi
}
intel='756e6547 6c65746e 49656e69'
amd='68747541 444d4163 69746e65'

# The kernels this build has, one name a line.
"$RC4TUNE" --list | cut -d ' ' -f 1 >"$tmp/kernels"
built() { grep -qx -- "$1" "$tmp/kernels"; }

# --- --heuristic --cpuid-dump: K8 and P III 32/64-bit state, P4 and
# Core 2 8-bit state, modern CPUs not 8-bit; always a kernel this build
# has (a rule's x86-64 assembly kernel elsewhere: the portable default) ---
heuristic() { # NAME VENDOR EAX LAYOUT-REGEX [ECX EBX7]
	dump "$tmp/$1.raw" "$2" "$3" ${5:+"$5" "$6"}
	"$RC4TUNE" --heuristic --cpuid-dump "$tmp/$1.raw" >"$tmp/$1.out" 2>"$tmp/err"
	if [ $? -ne 0 ]; then
		if grep -q 'without libcpuid' "$tmp/err"; then
			echo "SKIP: $1: built without libcpuid"; return
		fi
		fail "$1: --heuristic failed"; cat "$tmp/err"; return
	fi
	k=$(head -n 1 "$tmp/$1.out" | cut -f 1)
	if ! built "$k"; then
		fail "heuristic $1: $k is not in this build:"; cat "$tmp/$1.out"
	elif head -n 1 "$tmp/$1.out" | grep -Eq "^$4[^ $tab]*${tab}cpu "; then
		ok "heuristic $1: $k"
	else
		fail "heuristic $1: want $4, got:"; cat "$tmp/$1.out"
	fi
}
heuristic k8-dual-ht "$amd" 00020f32 '(int|long)-'
heuristic k8-revg "$amd" 00060fb2 '(int|long)-'
heuristic p3 "$intel" 0000068a '(int|long)-'
heuristic p4 "$intel" 00000f29 'char-'
heuristic p4-ht "$intel" 00000f34 'char-'
heuristic core2 "$intel" 000006f6 'char-'
heuristic penryn "$intel" 00010676 'char-'
# (with their features: SSE4.1, AVX-512 on both)
heuristic emerald-rapids "$intel" 000c06f2 '(char|int)-' 7ffefbff f3bfbfff
heuristic zen4 "$amd" 00a10f11 '(char|int)-' 7ef8320b f1bf97a9
# What that CPU would run, by the dump's features (issue 36 item 11): a
# CPU no rule names (family 6 model 143) without AVX-512 is not given the
# any-CPU rule's AVX-512 ring loop, which the library refuses there, but
# the rule's SSE4.1 loop; the same CPU with AVX-512 is.  AMD family 25's
# other models, Zen 3 (model 33) or Zen 4 (model 97), get the family's
# one SSE4.1 loop either way.
dump "$tmp/anyno.raw" "$intel" 000806f8 7ed8320b 219c97a9
dump "$tmp/anyavx.raw" "$intel" 000806f8 7ef8320b f1bf97a9
# leaf 7's bits where leaf 0 says the highest leaf is 6: none of them
dump "$tmp/any6.raw" "$intel" 000806f8 7ef8320b f1bf97a9 00000006
dump "$tmp/zen3.raw" "$amd" 00a20f10 7ed8320b 219c97a9
dump "$tmp/zen4d.raw" "$amd" 00a60f12 7ef8320b f1bf97a9
if "$RC4TUNE" --heuristic --cpuid-dump "$tmp/anyno.raw" >"$tmp/anyno.out" 2>"$tmp/err" &&
	"$RC4TUNE" --heuristic --cpuid-dump "$tmp/anyavx.raw" >"$tmp/anyavx.out" 2>>"$tmp/err" &&
	"$RC4TUNE" --heuristic --cpuid-dump "$tmp/zen3.raw" >"$tmp/zen3.out" 2>>"$tmp/err" &&
	"$RC4TUNE" --heuristic --cpuid-dump "$tmp/zen4d.raw" >"$tmp/zen4d.out" 2>>"$tmp/err" &&
	"$RC4TUNE" --heuristic --cpuid-dump "$tmp/any6.raw" >"$tmp/any6.out" 2>>"$tmp/err"; then
	if built char-ring4-avx512; then
		has "$tmp/anyno.out" "^[a-z0-9-]*sse41${tab}cpu GenuineIntel 6 143: a CPU no rule names: .*; char-ring4-avx512: that CPU cannot run it\$" \
			"heuristic without AVX-512: the SSE4.1 loop, the AVX-512 one said not to run there"
		has "$tmp/anyavx.out" "^char-ring4-avx512${tab}cpu GenuineIntel 6 143: " \
			"heuristic with AVX-512: the AVX-512 ring loop"
		has "$tmp/any6.out" "^[a-z0-9-]*sse41${tab}cpu GenuineIntel 6 143: .*; char-ring4-avx512: that CPU cannot run it\$" \
			"heuristic, leaf 7's AVX-512 bits past the highest leaf (6): the SSE4.1 loop"
	fi
	! head -n 1 "$tmp/anyno.out" | grep -q '^char-ring4-avx512' &&
		ok "heuristic without AVX-512: not the AVX-512 ring loop" ||
		{ fail "heuristic without AVX-512: the AVX-512 ring loop"; cat "$tmp/anyno.out"; }
	if built long-16x-sse41; then
		has "$tmp/zen3.out" "^long-16x-sse41${tab}cpu AuthenticAMD 25 33: AMD family 25, other models " \
			"heuristic zen3 (model 33): the family's SSE4.1 loop"
		has "$tmp/zen4d.out" "^long-16x-sse41${tab}cpu AuthenticAMD 25 97: AMD family 25, other models " \
			"heuristic zen4 (model 97), with AVX-512: the family's SSE4.1 loop"
	fi
elif grep -q 'without libcpuid' "$tmp/err"; then
	echo "SKIP: family 6 model 143, zen3, zen4: built without libcpuid"
else
	fail "--heuristic on the family 6 model 143, zen3 and zen4 dumps"; cat "$tmp/err"
fi
# Zen 4's rule names x86-64 assembly first: other builds say so and take
# the rule's next kernel they have.
if [ -s "$tmp/zen4.out" ] && ! built char-ring5-sse41; then
	has "$tmp/zen4.out" "^int-8x${tab}cpu AuthenticAMD 25 17: AMD family 25 model 17 .*; char-ring5-sse41: not in this build; long-16x-sse41: not in this build\$" \
		"heuristic zen4: the rule's assembly kernels are not in this build, said"
fi

# Each batch call walks its own rules the same way: set_keys_kernel has
# one rule for any CPU, the assembly lanes first; crypt_many_kernel the
# assembly lanes where they were measured ahead (Zen 4) and for a CPU no
# rule names (serial, the single-stream kernel stream by stream, on Zen 1
# and Zen 3).
for cpu in "zen4:AuthenticAMD 25 17" "core2:GenuineIntel 6 15"; do
	f=$tmp/${cpu%%:*}.out
	[ -s "$f" ] || continue
	if built char-8lane-asm && [ "${cpu%%:*}" = core2 ]; then
		# a Core 2 has no SSE4.1, which the assembly lanes use
		# (and the 32-bit lanes are not its kernel's family)
		want="^set_keys_kernel char-8lane${tab}cpu ${cpu#*:}: any CPU: .*; char-8lane-asm: that CPU cannot run it; int-8lane-asm: its cells are not the single-stream kernel's: one layout family per key\$"
	elif built char-8lane-asm; then
		want="^set_keys_kernel char-8lane-asm${tab}cpu ${cpu#*:}: any CPU: [^;]*\$"
	else
		want="^set_keys_kernel char-8lane${tab}cpu ${cpu#*:}: any CPU: .*; char-8lane-asm: not in this build; int-8lane-asm: not in this build\$"
	fi
	has "$f" "$want" "heuristic ${cpu%%:*}: the set_keys rule, walked as the single one"
done
if [ -s "$tmp/zen4.out" ] && built char-8lane-asm; then
	has "$tmp/zen4.out" "^crypt_many_kernel char-8lane-asm${tab}cpu AuthenticAMD 25 17: AMD family 25 model 17 (Zen 4): [^;]*\$" \
		"heuristic zen4: the crypt_many rule of its model"
fi
# a Core 2 gets the rule for any other CPU: its kernel stream by stream
[ -s "$tmp/core2.out" ] &&
	has "$tmp/core2.out" "^crypt_many_kernel serial${tab}cpu GenuineIntel 6 15: any other CPU: [^;]*\$" \
		"heuristic core2: the crypt_many rule for any other CPU, serial"

# Vendors libcpuid does not know: the dump names the CPU as the live one
# would be named, as /proc/cpuinfo shows family and model.
named() { # NAME VENDOR-WORDS LEAF1-EAX SECTION
	dump "$tmp/$1.raw" "$2" "$3"
	if "$RC4TUNE" --heuristic --cpuid-dump "$tmp/$1.raw" >"$tmp/out" 2>"$tmp/err"; then
		if [ "$(head -n 1 "$tmp/out" | cut -f 2 | sed 's/: .*//')" = "$4" ]; then
			ok "dump of $1: [$4]"
		else
			fail "dump of $1: want [$4]"; cat "$tmp/out"
		fi
	elif grep -q 'without libcpuid' "$tmp/err"; then
		echo "SKIP: $1: built without libcpuid"
	else
		fail "dump of $1 refused"; cat "$tmp/err"
	fi
}
# A vendor's newest rule covers its later families (AMD's); a CPU that no
# rule names (a later Intel family too: no profile) gets the best worst
# case over every profile, not the oldest loop.
rule_of() { # NAME VENDOR-WORDS LEAF1-EAX RULE-START
	dump "$tmp/$1.raw" "$2" "$3"
	if "$RC4TUNE" --heuristic --cpuid-dump "$tmp/$1.raw" >"$tmp/out" 2>"$tmp/err"; then
		if head -n 1 "$tmp/out" | cut -f 2 | sed 's/^[^:]*: //' | grep -q "^$4"; then
			ok "rule for $1: $(head -n 1 "$tmp/out" | cut -f 1) ($4)"
		else
			fail "rule for $1: want '$4'"; cat "$tmp/out"
		fi
	elif grep -q 'without libcpuid' "$tmp/err"; then
		echo "SKIP: $1: built without libcpuid"
	else
		fail "rule for $1: refused"; cat "$tmp/err"
	fi
}
rule_of amd-family-27 "$amd" 00c00f00 'AMD family 26, other models'
rule_of intel-family-18 "$intel" 00300f10 'a CPU no rule names'
rule_of hygon '6f677948 656e6975 6e65476e' 00900f02 'a CPU no rule names'

named via '20414956 20414956 20414956' 000306a9 'cpu VIA_VIA_VIA 6 58'
named zhaoxin '68532020 20206961 68676e61' 000307b0 'cpu Shanghai 7 59'
named centaur '746e6543 736c7561 48727561' 000307b0 'cpu CentaurHauls 7 59'

expect "--heuristic: a missing dump is an error" 1 \
	"$RC4TUNE" --heuristic --cpuid-dump "$tmp/none.raw"
has "$tmp/err" "none.raw" "the error names the file"
# Not a dump: one line naming the file and why, not libcpuid's warning per
# line of it.
printf 'root:x:0:0:root:/root:/bin/sh\ndaemon:x:1:1::/:/bin/false\n' \
	>"$tmp/passwd"
expect "--heuristic: a file that is not a dump is an error" 1 \
	"$RC4TUNE" --heuristic --cpuid-dump "$tmp/passwd"
if grep -q 'without libcpuid' "$tmp/err"; then
	echo "SKIP: not a dump: built without libcpuid"
else
	has "$tmp/err" "^rc4tune: $tmp/passwd: not a libcpuid raw CPUID dump (line 1: 'root:" \
		"not a dump: the file and the first line not understood"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] && ok "not a dump: one line" ||
		{ fail "not a dump: libcpuid's warnings shown:"; cat "$tmp/err"; }
	# the line quoted as printable ASCII: an escape sequence and a byte
	# over 127 as '?', '~' kept
	printf 'r~t\033[2J\351:x\n' >"$tmp/junk"
	"$RC4TUNE" --heuristic --cpuid-dump "$tmp/junk" 2>"$tmp/err"
	has "$tmp/err" "(line 1: 'r~t?\[2J?:x' not understood" \
		"not a dump: the line quoted in printable ASCII"
fi
expect "--cpuid-dump without --heuristic is a usage error" 2 \
	"$RC4TUNE" --cpuid-dump "$tmp/p4.raw"

# An x86 CPU without CPUID: nothing more to ask of this CPU (every other
# CPU has an identity, if only its architecture's name).
if ! "$RC4TUNE" --heuristic >"$tmp/live" 2>"$tmp/err"; then
	echo "SKIP: this CPU is not identified: $(cat "$tmp/err")"
	[ $fails -eq 0 ] && exit 77
	exit 1
fi
echo "this CPU: $(cat "$tmp/live")"
heur=$(head -n 1 "$tmp/live" | cut -f 1)
live=$("$RC4TUNE" --section)
[ "$(head -n 1 "$tmp/live" | cut -f 2 | sed 's/:.*//')" = "$live" ] &&
	ok "--section: $live, as --heuristic names it" ||
	fail "--section says $live, --heuristic: $(head -n 1 "$tmp/live")"
built "$heur" && ok "--heuristic: $heur, in this build" ||
	fail "--heuristic: $heur is not in this build"
# Many CPUs have no rule (qemu-i386's K7-like AuthenticAMD 6 6, Hygon,
# every CPU off x86), or a rule whose kernel this build lacks: the portable
# default, as the library takes it.
how=heuristic
head -n 1 "$tmp/live" | grep -q 'the portable default' && how='portable default'

# --- --explain: the precedence, and its trail -------------------------
expect "--explain without a config" 0 "$RC4TUNE" --explain
has "$tmp/out" "^  config $RC4TUNE_CONF: no such file" "trail: config missing"
has "$tmp/out" "^  crypt_many: config $RC4TUNE_CONF: no such file" \
	"crypt_many trail: config missing"
has "$tmp/out" "^  chosen: $heur ($how)" "$heur chosen ($how)"
[ "$(head -n 1 "$tmp/out")" = "$heur" ] && ok "first line: the kernel" ||
	fail "first line is not $heur"

printf '[default]\nkernel = int-4x\n[%s]\nkernel = long-1x\n' "$live" \
	>"$RC4TUNE_CONF"
expect "--explain with this CPU's section" 0 "$RC4TUNE" --explain
has "$tmp/out" "^long-1x$" "this CPU's section wins over [default]"
has "$tmp/out" "chosen: long-1x (config line 4 \[$live\])" "trail: section"

expect "--explain with RC4TUNE_KERNEL" 0 env RC4TUNE_KERNEL=char-4x "$RC4TUNE" --explain
has "$tmp/out" "^char-4x$" "RC4TUNE_KERNEL wins"
expect "--explain with an unknown RC4TUNE_KERNEL" 0 \
	env RC4TUNE_KERNEL=no-such "$RC4TUNE" --explain
has "$tmp/out" '"no-such": unknown kernel; skipped' "trail: env skipped"
has "$tmp/out" "^long-1x$" "then this CPU's section"

chmod 664 "$RC4TUNE_CONF"
expect "--explain with a group-writable config" 0 "$RC4TUNE" --explain
has "$tmp/out" "^  config $RC4TUNE_CONF: whole file ignored: writable by group" \
	"trail: refused"
has "$tmp/out" "^  crypt_many: config $RC4TUNE_CONF: whole file ignored: writable by group" \
	"crypt_many trail: refused, and why"
chmod 644 "$RC4TUNE_CONF"

# Names from the environment and config files reach the terminal without
# their escape sequences, and a huge one cannot push the choice out.
esc=$(printf '\033')
expect "--explain with an escape sequence in RC4TUNE_KERNEL" 0 \
	env RC4TUNE_KERNEL="x${esc}[2Jy" "$RC4TUNE" --explain
! grep -q "$esc" "$tmp/out" && has "$tmp/out" '"x?\[2Jy": unknown kernel' "the escape shown as '?'" ||
	fail "an escape reached the terminal"
expect "--explain with a 100 kB RC4TUNE_KERNEL" 0 \
	env RC4TUNE_KERNEL="$(printf '%0100000d' 0)" "$RC4TUNE" --explain
has "$tmp/out" "^  chosen: " "the choice still in the trail"
printf '[default]\nkernel = a%s]0;owned%sb\n' "$esc" "$(printf '\007')" >"$tmp/esc.conf"
expect "--check-conf: escapes in a value" 1 "$RC4TUNE" --check-conf "$tmp/esc.conf"
! grep -q "$esc" "$tmp/err" && has "$tmp/err" 'unknown kernel "a?\]0;owned?b"' "value shown with '?'" ||
	fail "--check-conf printed an escape"

# --- --check-conf -------------------------------------------------------
expect "--check-conf: a good file" 0 "$RC4TUNE" --check-conf
has "$tmp/out" "OK (0 errors, 0 warnings)" "summary"

printf '[default]\nkernel = no-such\ncolour = red\n[cpu x]\nkernel = int-8x\n' \
	>"$tmp/bad.conf"
expect "--check-conf FILE: errors" 1 "$RC4TUNE" --check-conf "$tmp/bad.conf"
has "$tmp/err" "bad.conf:2: error: unknown kernel \"no-such\"" "unknown kernel"
has "$tmp/err" "bad.conf:3: warning: unknown key \"colour\"" "unknown key"
has "$tmp/err" "bad.conf:4: error: malformed section \[cpu x\]" \
	"bad section, at its header"

{ printf '[default]\nkernel = int-8x ; '; printf '%0250d\n' 0; } >"$tmp/long.conf"
expect "--check-conf=FILE: a long line" 1 \
	"$RC4TUNE" --check-conf="$tmp/long.conf"
has "$tmp/err" "long.conf:2: error: line longer than 198 bytes; the library ignores the whole file" \
	"long line: file:line, whole file"

mkfifo "$tmp/fifo"
expect "--check-conf: a FIFO, without blocking" 1 \
	timeout 60 "$RC4TUNE" --check-conf "$tmp/fifo"
has "$tmp/err" "a FIFO, not a regular file" "FIFO named"
expect "--check-conf: a missing file" 1 "$RC4TUNE" --check-conf "$tmp/none"
has "$tmp/err" "none: no such file" "missing FILE named"

# What inih would drop without a word is an error: a key after a header's
# ']', here behind an old Mac's CR line end.
printf '[default]\rkernel = long-8x\r' >"$tmp/cr.conf"
expect "--check-conf: CR line ends" 1 "$RC4TUNE" --check-conf "$tmp/cr.conf"
has "$tmp/err" "cr.conf:1: error: text after the section header's ']'" "CR: line 1"
printf '[default] kernel = long-8x\n' >"$tmp/after.conf"
expect "--check-conf: a key after ']'" 1 "$RC4TUNE" --check-conf "$tmp/after.conf"

# Sections are checked at their headers, with keys or without.
printf '[cpu AuthenticAMD 025 17]\n[foo]\n[default]\n[default]\n' \
	>"$tmp/headers.conf"
expect "--check-conf: sections without keys" 1 \
	"$RC4TUNE" --check-conf "$tmp/headers.conf"
has "$tmp/err" "headers.conf:1: error: malformed section \[cpu AuthenticAMD 025 17\]" \
	"malformed [cpu ...] without keys, at its line"
has "$tmp/err" "headers.conf:2: warning: unknown section \[foo\]" \
	"unknown section without keys"
has "$tmp/err" "headers.conf:4: warning: section \[default\] repeated" \
	"repeated section without keys"
has "$tmp/out" "not OK (1 error, 2 warnings)" "sections without keys: summary"

# --- the tuner's file, then used by the library -------------------------
rm -f "$RC4TUNE_CONF"
# Not tuned yet: no config is not an error, the built-in rules apply.
expect "--check-conf: no config (the library's file)" 0 "$RC4TUNE" --check-conf
has "$tmp/out" "^$RC4TUNE_CONF: no such file; without a config the library uses its built-in CPU rules" \
	"no config: said, on stdout"
expect "--generate-conf" 0 "$RC4TUNE" --generate-conf --output "$RC4TUNE_CONF" \
	--budget 0.5 --quiet
tuned=$(awk -v h="[$live]" '$0 == h { p = 1 } p && /^kernel = / { print $3; exit }' \
	"$RC4TUNE_CONF")
expect "--check-conf on the tuner's file" 0 "$RC4TUNE" --check-conf
expect "--explain on the tuner's file" 0 "$RC4TUNE" --explain
if [ -n "$tuned" ] && [ "$(head -n 1 "$tmp/out")" = "$tuned" ]; then
	ok "the library uses the tuner's $tuned"
else
	fail "tuner wrote '$tuned', library chose:"; cat "$tmp/out"
fi
has "$tmp/out" "chosen: $tuned (config line [0-9]* \[$live\])" \
	"trail: from this CPU's section"

finish
