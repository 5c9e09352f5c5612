#!/bin/sh
# SPDX-License-Identifier: MIT
# test_tuner.sh - rc4tune --generate-conf and --speed from the command line
# (rc4tune(1), OPTIONS; rc4tune.conf(5), WRITTEN BY THE TUNER): what they
# write, what a merge keeps byte for byte, what they refuse, what they
# print.  Short budgets; no timing is asserted (the machine is shared).
#
# Environment (make check sets it): RC4TUNE, the rc4tune binary; INIPARSE,
# tests/helpers/iniparse.
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE:?set RC4TUNE to the rc4tune binary}"
: "${INIPARSE:?set INIPARSE to tests/helpers/iniparse}"

budget='--budget 0.3'
cr=$(printf '\r')


# tune ARGS...: run --generate-conf; stdout in $tmp/out, stderr in $tmp/err.
tune() {
	"$RC4TUNE" --generate-conf $budget "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# section FILE: the live CPU's section of FILE (header to kernel line).
section() {
	awk -v h="[$live]" '$0 == h { p = 1 } p { print } p && /^kernel = / { exit }' "$1"
}

# --- --output -: the section alone, on stdout --------------------------
tune --output -
if [ $rc -ne 0 ] && grep -q 'cannot identify this CPU' "$tmp/err"; then
	echo "SKIP: no CPU identification here (x86 without CPUID?): $(cat "$tmp/err")"
	exit 77
fi
head -n 1 "$tmp/out" | sed 's/^\[\(.*\)\]$/\1/' >"$tmp/live"
live=$(cat "$tmp/live")
kernel=$(sed -n 's/^kernel = //p' "$tmp/out")
if [ $rc -eq 0 ] && [ -s "$tmp/out" ] && [ ! -s "$tmp/err" ] &&
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

# --- merge: replace the live section, drop its duplicate, keep the rest -
printf '; fleet profiles\n[default]\nkernel = int-8x\r\n\n# an old Intel\n[cpu GenuineIntel 6 15]\nkernel = char-1x\n; about the next section\n\n' >"$tmp/part1"
printf '[%s]\n; old comment\nkernel = long-1x\n' "$live" >"$tmp/stale1"
printf '; after the old section: kept\n\n[cpu AuthenticAMD 15 65]\n  kernel = int-1x\n' >"$tmp/part2"
printf '  [ %s ]\nkernel = char-ref' "$live" >"$tmp/stale2" # no final newline
cat "$tmp/part1" "$tmp/stale1" "$tmp/part2" "$tmp/stale2" >"$tmp/merge.conf"
dup=$(cat "$tmp/part1" "$tmp/stale1" "$tmp/part2" | wc -l)
dup=$((dup + 1))
tune --force --output "$tmp/merge.conf" # the old sections are a person's
section "$tmp/merge.conf" >"$tmp/new"
cat "$tmp/part1" "$tmp/new" "$tmp/part2" >"$tmp/expect"
if [ $rc -eq 0 ] && cmp -s "$tmp/expect" "$tmp/merge.conf" &&
   [ "$(wc -l <"$tmp/new")" -gt 2 ] &&
   grep -q "removed another \[$live\] section at line $dup" "$tmp/err" &&
   "$INIPARSE" "$tmp/merge.conf" >"$tmp/ini" &&
   [ "$(grep -c "^\[$live\] kernel=" "$tmp/ini")" -eq 1 ] &&
   "$RC4TUNE" --check-conf "$tmp/merge.conf" >/dev/null; then
	ok "merge: other lines byte for byte, duplicate at line $dup removed"
else
	fail "merge: rc=$rc"; cat "$tmp/err"; diff "$tmp/expect" "$tmp/merge.conf"
fi

# --- append: no section for this CPU yet ------------------------------
printf '[default]\nkernel = int-8x' >"$tmp/append.conf" # no final newline
tune --output "$tmp/append.conf"
section "$tmp/append.conf" >"$tmp/new"
{ printf '[default]\nkernel = int-8x\n\n'; cat "$tmp/new"; } >"$tmp/expect"
if [ $rc -eq 0 ] && cmp -s "$tmp/expect" "$tmp/append.conf"; then
	ok "append after a file without a final newline"
else
	fail "append: rc=$rc"; diff "$tmp/expect" "$tmp/append.conf"
fi

# --- CRLF: the file's lines keep theirs, the new section has '\n' ones --
# (a CR counts in the library's line limit: a full record line would not
# fit with one)
printf '[default]\r\nkernel = int-8x\r\n' >"$tmp/crlf.conf"
tune --output "$tmp/crlf.conf"
tr -d '\r' <"$tmp/crlf.conf" >"$tmp/lf"
section "$tmp/lf" >"$tmp/new"
{ printf '[default]\nkernel = int-8x\n\n'; cat "$tmp/new"; } >"$tmp/expect"
if [ $rc -eq 0 ] && cmp -s "$tmp/expect" "$tmp/lf" &&
   [ "$(grep -c "$cr\$" "$tmp/crlf.conf")" -eq 2 ] &&
   [ "$(grep -c "$cr" "$tmp/crlf.conf")" -eq 2 ]; then
	ok "CRLF file: its lines still end in CRLF, the new section's in LF"
else
	fail "CRLF: rc=$rc"; od -c "$tmp/crlf.conf" | tail -n 5
fi

# --- BOM: a UTF-8 BOM before the live section's header (inih skips it) --
printf '\357\273\277[%s]\nkernel = long-1x\n[default]\nkernel = int-8x\n' \
	"$live" >"$tmp/bom.conf"
tune --output "$tmp/bom.conf"
tail -c +4 "$tmp/bom.conf" >"$tmp/nobom"
section "$tmp/nobom" >"$tmp/new"
{ cat "$tmp/new"; printf '[default]\nkernel = int-8x\n'; } >"$tmp/expect"
if [ $rc -eq 0 ] && [ "$(head -c 3 "$tmp/bom.conf" | od -An -tx1 | tr -d ' ')" = efbbbf ] &&
   cmp -s "$tmp/expect" "$tmp/nobom"; then
	ok "BOM: the section after it is replaced, not repeated; the BOM stays"
else
	fail "BOM: rc=$rc"; od -c "$tmp/bom.conf" | head -n 5
fi

# --- a kept line the library refuses: nothing written, exit 1 ----------
{ printf '[default]\n; '; printf '%0300d\n' 0; } >"$tmp/long.conf"
cp "$tmp/long.conf" "$tmp/long.before"
tune --output "$tmp/long.conf"
if [ $rc -eq 1 ] && cmp -s "$tmp/long.conf" "$tmp/long.before" &&
   grep -q "cannot write $tmp/long.conf: as merged, line 2 would be one the library refuses (line longer than 198 bytes): left as it was" "$tmp/err"
then
	ok "a kept 300-byte line: the file left as it was, exit 1, the line named"
else
	fail "long line: rc=$rc"; cat "$tmp/err"
fi

# --- the old file's mode stays, less group/other write; the new file is
# the caller's (a foreign owner would make the library distrust it), and
# as root it keeps the old group; a mode others cannot read is warned of.
# Another user's file is not merged into root's at all.
printf '[default]\nkernel = int-8x\n' >"$tmp/mode.conf"
chmod 660 "$tmp/mode.conf"
group=$(id -g)
if [ "$(id -u)" -eq 0 ]; then
	chown 65534:65534 "$tmp/mode.conf"
	cp -p "$tmp/mode.conf" "$tmp/mode.before"
	tune --output "$tmp/mode.conf"
	[ $rc -eq 1 ] && cmp -s "$tmp/mode.conf" "$tmp/mode.before" &&
		grep -q "$tmp/mode.conf: it is owned by uid 65534, another user: its lines are not merged" "$tmp/err" &&
		ok "another user's file: refused, left as it was: $(cat "$tmp/err")" ||
		{ fail "another user's file: rc=$rc"; cat "$tmp/err"; }
	chown 0:65534 "$tmp/mode.conf"
	group=65534
fi
tune --output "$tmp/mode.conf"
if [ $rc -eq 0 ] && [ "$(stat -c %a "$tmp/mode.conf")" = 640 ] &&
   [ "$(stat -c %u:%g "$tmp/mode.conf")" = "$(id -u):$group" ] &&
   grep -q "^\[$live\]" "$tmp/mode.conf" &&
   grep -q "$tmp/mode.conf: mode 0660 becomes 0640" "$tmp/err" &&
   grep -q "$tmp/mode.conf: mode 0640: programs that run neither as its owner nor in its group cannot read it" "$tmp/err"; then
	ok "old file: mode 0660 kept as 0640 (warned, and that others cannot read it), owner $(id -u), group $group"
else
	fail "mode/owner: rc=$rc, $(stat -c '%a %u:%g' "$tmp/mode.conf")"
	cat "$tmp/err"
fi

# --- a dangling symlink chain: the file at its end is created -----------
# etc/rc4tune.conf -> current.conf -> ../fleet/shared.conf (missing), each
# relative to its link's directory; the links stay links.
mkdir "$tmp/etc" "$tmp/fleet"
ln -s current.conf "$tmp/etc/rc4tune.conf"
ln -s ../fleet/shared.conf "$tmp/etc/current.conf"
links_kept() {
	[ -L "$tmp/etc/rc4tune.conf" ] && [ -L "$tmp/etc/current.conf" ] &&
	[ "$(readlink "$tmp/etc/current.conf")" = ../fleet/shared.conf ] &&
	[ "$(ls -A "$tmp/fleet")" = shared.conf ] &&
	[ "$(grep -c "^\[$live\]" "$tmp/fleet/shared.conf")" -eq 1 ]
}
tune --output "$tmp/etc/rc4tune.conf"
if [ $rc -eq 0 ] && links_kept &&
   [ "$(stat -c %a "$tmp/fleet/shared.conf")" = 644 ]; then
	tune --output "$tmp/etc/rc4tune.conf" # now to an existing file
	if [ $rc -eq 0 ] && links_kept; then
		ok "dangling symlink chain: target created, then replaced; links kept"
	else
		fail "symlink to an existing file: rc=$rc"; cat "$tmp/err"
	fi
else
	fail "dangling symlink: rc=$rc"; ls -l "$tmp/etc" "$tmp/fleet"
	cat "$tmp/err"
fi

# --- a FIFO: refused at once without a reader, written with one ---------
mkfifo "$tmp/fifo"
timeout 60 "$RC4TUNE" --generate-conf $budget --quiet --output "$tmp/fifo" \
	>/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "$tmp/fifo: a FIFO with no reader" "$tmp/err" &&
   [ -p "$tmp/fifo" ]; then
	ok "FIFO without a reader: $(cat "$tmp/err")"
else
	fail "FIFO without a reader: rc=$rc (124: it hung)"; cat "$tmp/err"
fi
# Read-write, so that this open neither waits nor sees an end of file.
exec 3<>"$tmp/fifo"
# a measuring run: its timeout catches a hang, far above a run under qemu
timeout 120 "$RC4TUNE" --generate-conf $budget --quiet --output "$tmp/fifo" \
	>/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(timeout 5 head -n 1 <&3)" = "[$live]" ]; then
	ok "FIFO with a reader: the section"
else
	fail "FIFO with a reader: rc=$rc"; cat "$tmp/err"
fi
exec 3<&-

# --- the directory cannot be synced after the rename: warning, success --
# Opening the directory to fsync it needs read permission, which a
# write-and-search-only directory refuses (to anyone but root).
mkdir "$tmp/wx"
as_other=
if [ "$(id -u)" -eq 0 ]; then
	chown 65534:65534 "$tmp/wx"
	chmod 711 "$tmp"
	as_other='setpriv --reuid=65534 --regid=65534 --clear-groups'
fi
chmod 300 "$tmp/wx"
if ! $as_other "$RC4TUNE" --version >/dev/null 2>&1; then
	echo "SKIP: directory sync failure (cannot run rc4tune as uid 65534)"
else
	$as_other "$RC4TUNE" --generate-conf $budget --quiet \
		--output "$tmp/wx/rc4tune.conf" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 0 ] &&
	   grep -q "syncing its directory $tmp/wx failed: Permission denied" "$tmp/err" &&
	   grep -q "^\[$live\]" "$tmp/wx/rc4tune.conf"; then
		ok "directory sync fails after the rename: warning, exit 0"
	else
		fail "directory sync failure: rc=$rc"; cat "$tmp/err"
	fi
fi
chmod 755 "$tmp/wx"
chmod 700 "$tmp"

# --- errors: exit 1, the path and the reason; nothing half-written ------
tune --output "$tmp/no/such/dir/rc4tune.conf"
if [ $rc -eq 1 ] && grep -q "$tmp/no/such/dir/rc4tune.conf" "$tmp/err" &&
   grep -q 'No such file or directory' "$tmp/err"; then
	ok "missing directory: $(cat "$tmp/err")"
else
	fail "missing directory: rc=$rc"; cat "$tmp/err"
fi

tune --output "$tmp/fresh"
if [ $rc -eq 1 ] && grep -q "$tmp/fresh: Is a directory" "$tmp/err" &&
   [ "$(ls -A "$tmp/fresh")" = rc4tune.conf ]; then
	ok "target is a directory: $(cat "$tmp/err")"
else
	fail "target is a directory: rc=$rc"; cat "$tmp/err"
fi

if [ -c /dev/full ]; then
	tune --output /dev/full
	if [ $rc -eq 1 ] && grep -q '/dev/full' "$tmp/err" &&
	   grep -q 'No space left on device' "$tmp/err" && [ -c /dev/full ]; then
		ok "full disk (/dev/full): $(cat "$tmp/err")"
	else
		fail "/dev/full: rc=$rc"; cat "$tmp/err"
	fi
else
	echo "SKIP: no /dev/full for the full-disk case"
fi

if [ "$(id -u)" -eq 0 ]; then
	echo "SKIP: unwritable directory (running as root: permission bits do not stop root)"
else
	mkdir "$tmp/ro"
	printf '[default]\nkernel = int-8x\n' >"$tmp/ro/rc4tune.conf"
	cp "$tmp/ro/rc4tune.conf" "$tmp/old"
	chmod 555 "$tmp/ro"
	tune --output "$tmp/ro/rc4tune.conf"
	if [ $rc -eq 1 ] && grep -q "$tmp/ro/rc4tune.conf" "$tmp/err" &&
	   grep -q 'Permission denied' "$tmp/err" &&
	   grep -q 'run as root' "$tmp/err" &&
	   cmp -s "$tmp/old" "$tmp/ro/rc4tune.conf"; then
		ok "unwritable directory: old file untouched, hint given"
	else
		fail "unwritable directory: rc=$rc"; cat "$tmp/err"
	fi
fi

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
for bad in '--help --json' '--help --bogus' '--help --version' \
	"--explain --output $tmp/u.conf" "--list --output $tmp/u.conf" \
	"--check-conf --output $tmp/u.conf" "--merge $tmp/fresh/rc4tune.conf --output $tmp/u.conf --budget 1" \
	"--merge $tmp/fresh/rc4tune.conf --output $tmp/u.conf --workload bulk" \
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
printf '[default]\nkernel = nosuch\n' >"$tmp/unknown.conf"
printf '[default]\nkernel = int-8x\n' >"$tmp/good.conf"
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

# --- --speed: a report, no file; --json parses --------------------------
mkdir "$tmp/speed"
(cd "$tmp/speed" && "$RC4TUNE" --speed $budget int-8x char-1x) >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ -z "$(ls -A "$tmp/speed")" ] &&
   grep -q "1000s of bytes per second" "$tmp/out" &&
   grep -q '^int-8x ' "$tmp/out" && grep -q '^char-1x ' "$tmp/out" &&
   grep -q ' \*$' "$tmp/out"; then
	ok "--speed int-8x char-1x: a table, no file"
else
	fail "--speed: rc=$rc"; cat "$tmp/out" "$tmp/err"
fi

# checkjson SET_KEYS CRYPT_MANY <FILE: the JSON parses, names the live CPU
# and a winner among its kernels, and each batch call's member
# ("set_keys", "crypt_many") lists the batch kernels of --list (in
# $tmp/batch) with a winner among them, and SET_KEYS and CRYPT_MANY, if
# set, as the kernels it says it wrote (not the winner: an uncertain run
# keeps the prior).
# Such a member is an error when SET_KEYS is "none".
checkjson() {
	perl -MJSON::PP -e '
	local $/; my $j = decode_json(<STDIN>);
	my ($live, $wsk, $wcm, $list) = @ARGV;
	my %ok = map { $_->{name} => 1 } grep { $_->{status} eq "ok" } @{$j->{kernels}};
	exit 1 unless $ok{$j->{winner}} && @{$j->{sizes}} == 5 && $j->{rounds} > 0
	       && $j->{cpu} eq $live;
	exit(defined $j->{set_keys} || defined $j->{crypt_many} ? 1 : 0)
		if $wsk eq "none";
	for my $c (["set_keys", $wsk, "keys_per_second"],
		   ["crypt_many", $wcm, "bytes_per_second"]) {
		my ($b, $want, $rate) = ($j->{$c->[0]}, $c->[1], $c->[2]);
		exit 1 unless defined $b;
		my @names = map { $_->{name} } @{$b->{kernels}};
		my %bok = map { $_->{name} => 1 } grep { $_->{status} eq "ok"
			&& $_->{$rate} > 0 && $_->{ratio} > 0 } @{$b->{kernels}};
		exit 1 unless "@names" eq join(" ", split /\n/, $list)
		       && $bok{$b->{winner}} && $b->{rounds} > 0
		       && JSON::PP::is_bool($b->{tie_broken})
		       && ($want eq "" || $b->{written} eq $want);
	}' "$live" "$1" "$2" "$(cat "$tmp/batch")"
}

"$RC4TUNE" --list | awk '$3 == "batch:" { print $1 }' >"$tmp/batch"
"$RC4TUNE" --speed --json $budget >"$tmp/json" 2>"$tmp/err"
rc=$?
if ! perl -MJSON::PP -e 1 2>/dev/null; then
	echo "SKIP: --json check needs perl's JSON::PP"
else
	if [ $rc -eq 0 ] && [ -s "$tmp/batch" ] && checkjson '' '' <"$tmp/json"; then
		ok "--speed --json parses: winner among the kernels, cpu [$live], the --list batch kernels and a batch winner"
	else
		fail "--json: rc=$rc"; cat "$tmp/json" "$tmp/err"
	fi

	"$RC4TUNE" --speed --json $budget int-8x char-1x >"$tmp/json" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 0 ] && checkjson none none <"$tmp/json"; then
		ok "--speed --json int-8x char-1x: no batch member (not measured)"
	else
		fail "--json with kernels named: rc=$rc"; cat "$tmp/json" "$tmp/err"
	fi

	# measuring reads no config and no environment: serial runs the CPU
	# rules' single-stream kernel when the single kind is not measured
	h=$("$RC4TUNE" --heuristic | sed -n '1s/\t.*//p')
	printf '[pin]\nkernel = int-1x\n' >"$tmp/pin.conf"
	RC4TUNE_KERNEL=char-1x RC4TUNE_CONF="$tmp/pin.conf" \
		"$RC4TUNE" --speed --json $budget serial >"$tmp/json" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 0 ] && [ -n "$h" ] &&
	   grep -q "\"serial_runs\": \"$h\"" "$tmp/json"; then
		ok "--speed serial: runs the rules' $h, not the environment's or the config's"
	else
		fail "--speed serial: rc=$rc, rules' kernel '$h'"; cat "$tmp/json" "$tmp/err"
	fi

	tune --json --output "$tmp/json.conf"
	sk=$(sed -n 's/^set_keys_kernel = //p' "$tmp/json.conf" 2>/dev/null)
	bk=$(sed -n 's/^crypt_many_kernel = //p' "$tmp/json.conf" 2>/dev/null)
	if [ $rc -eq 0 ] && [ -n "$bk" ] && [ -n "$sk" ] &&
	   checkjson "$sk" "$bk" <"$tmp/out"; then
		ok "--generate-conf --json: each batch call's written kernel is the file's: set_keys_kernel = $sk, crypt_many_kernel = $bk"
	else
		fail "--generate-conf --json: rc=$rc"; cat "$tmp/out" "$tmp/err"
	fi
fi

finish
