#!/bin/sh
# SPDX-License-Identifier: MIT
# test_tuner_merge.sh - the tuner writes only this CPU's section and keeps
# every other line of the file byte for byte (rc4tune.conf(5), WRITTEN BY
# THE TUNER): a merge over stale sections, an append, CRLF lines, a BOM; a
# kept line the library refuses leaves the file as it was; the old file's
# mode stays, less group and other write, and the new file is the
# caller's.  Short budgets; no timing is asserted.
#
# Environment (make check sets it): RC4TUNE, the rc4tune binary; INIPARSE,
# tests/helpers/iniparse.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tuner.sh"
: "${INIPARSE:?set INIPARSE to tests/helpers/iniparse}"
cr=$(printf '\r')

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

finish
