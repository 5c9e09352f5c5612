#!/bin/sh
# SPDX-License-Identifier: MIT
# test_explain_json.sh - rc4tune --explain --json (librc4tune(3), SELECTION,
# as rc4tune(1) OUTPUT shows it): one JSON object (read with python3's json
# module) that says what --explain says: each kind's kernel, its source,
# file and line, whose this CPU's section is and the record's confidence,
# with the same trail as the text.
#
# Environment (make check sets it): RC4TUNE, the rc4tune binary;
# RC4TUNE_TEST_DATA, the source tree's tests/.
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE:?set RC4TUNE to the rc4tune binary}"
: "${RC4TUNE_TEST_DATA:?set RC4TUNE_TEST_DATA to the source tests/}"
command -v python3 >/dev/null || skip "no python3 to read the JSON"
live_section "$RC4TUNE"
RC4TUNE_CONF=$tmp/rc4tune.conf
export RC4TUNE_CONF

# explain: --explain --json into $tmp/j (exit 0 and JSON, else a failure
# said) and the text into $tmp/t.
explain() {
	"$RC4TUNE" --explain >"$tmp/t" 2>&1
	if ! "$RC4TUNE" --explain --json >"$tmp/j" 2>"$tmp/err" ||
		! python3 -m json.tool "$tmp/j" >/dev/null 2>&1; then
		fail "$1: --explain --json: exit or JSON"; cat "$tmp/j" "$tmp/err"
	fi
}
# jv PATH: the value at PATH (members joined by '.') of $tmp/j, as JSON.
jv() {
	python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    v = v[k]
print(json.dumps(v))' "$tmp/j" "$1" 2>&1
}
# want WHAT PATH=JSON...: each PATH of $tmp/j holds that JSON value.
want() {
	what=$1 bad=
	shift
	for pv in "$@"; do
		got=$(jv "${pv%%=*}")
		[ "$got" = "${pv#*=}" ] || bad="$bad ${pv%%=*}=$got (not ${pv#*=});"
	done
	if [ -z "$bad" ]; then ok "$what"; else fail "$what:$bad"; cat "$tmp/j"; fi
}
# sealed FILE CONFIDENCE WHY: after a [default], this CPU's section with
# kernel = int-4x, as the tuner wrote it, sealed.
sealed() {
	{ printf '[default]\nkernel = int-8x\n\n'
		record_fixture "$live" int-4x "$2" "$3"; } >"$1"
	seal "$1"
}

# --- no config: the CPU rule, the same trail as the text ---------------
explain "no config"
want "no config: this CPU, no section, the file missing" \
	cpu="\"$live\"" section=null config_status='"missing"' \
	config="\"$RC4TUNE_CONF\"" kernel.file=null kernel.line=null \
	kernel.owner=null kernel.confidence=null
python3 - "$tmp/j" "$tmp/t" <<'EOF' && ok "no config: each kind's name and trail as the text says" || fail "JSON and text differ"
import json, sys
j = json.load(open(sys.argv[1]))
# the flows' lines follow the kinds' (the flows test below)
text = [t for t in open(sys.argv[2]).read().splitlines()
        if not t.startswith("flow ")]
lines = []
for key in ("kernel", "set_keys_kernel", "crypt_many_kernel"):
    k = j[key]
    lines.append(k["name"] if key == "kernel" else key + " " + k["name"])
    lines += ["  " + t for t in k["trail"]]
    how = {"rule": "heuristic", "portable": "portable default"}[k["source"]]
    assert k["trail"][-1].endswith("chosen: %s (%s)" % (k["name"], how)), k
    assert k["rule"], k
assert lines == text, (lines, text)
EOF

# --- this CPU's section, the tuner's: confident, then uncertain ----------
sealed "$RC4TUNE_CONF" high -
explain "confident"
want "the tuner's confident section: source, file, line, owner" \
	kernel.name='"int-4x"' kernel.source='"section"' \
	kernel.file="\"$RC4TUNE_CONF\"" kernel.line=7 kernel.owner='"tuner"' \
	kernel.confidence='"high"' kernel.uncertain_because=null \
	config_status='"read"' section.line=4 section.owner='"tuner"' \
	section.by='"0.1.0"' section.at='"2026-01-01T00:00:00Z"'
want "no basis line: basis null" kernel.basis=null
sealed "$RC4TUNE_CONF" uncertain busy
explain "uncertain"
want "an uncertain record: its confidence and why" \
	kernel.confidence='"uncertain"' kernel.uncertain_because='"busy"'
# record format 3: the basis line, in JSON and in the text's owner line
sed -i -e 's/^;@ rc4tune v=1 /;@ rc4tune v=3 /' -e '/^;@ result key=kernel /a\
;@ basis key=kernel lower=0.964 window=0.025 finalists=3 rounds=41' "$RC4TUNE_CONF"
seal "$RC4TUNE_CONF"
explain "basis"
want "a basis line: what the confidence rests on" kernel.owner='"tuner"' \
	kernel.basis.lower=0.964 kernel.basis.window=0.025 \
	kernel.basis.finalists=3 kernel.basis.rounds=41
grep -q "; kernel uncertain (busy: at least 0.964 of each of the 2 others in the final at 95 %, 41 rounds, window 2.5 %)" "$tmp/t" &&
	ok "a basis line: the text says it" || { fail "basis in the text"; cat "$tmp/t"; }

# --- a person's section, an edited one, [default], [pin], the env ------
printf '[%s]\nkernel = long-1x\n' "$live" >"$RC4TUNE_CONF"
explain "a person's"
want "a person's section: no confidence" kernel.name='"long-1x"' \
	kernel.owner='"person"' kernel.confidence=null section.owner='"person"' \
	section.by=null kernel.line=2
sealed "$RC4TUNE_CONF" high -
sed -i 's/^kernel = int-4x$/kernel = long-1x/' "$RC4TUNE_CONF"
explain "edited"
want "an edited section: a person's now" kernel.name='"long-1x"' \
	kernel.owner='"edited"' kernel.confidence=null section.owner='"edited"'
printf '[default]\nkernel = long-1x\n' >"$RC4TUNE_CONF"
explain "[default]"
want "[default]: source default, a person's" kernel.source='"default"' \
	kernel.line=2 kernel.owner='"person"' section=null
printf '[pin]\nkernel = char-4x\n[%s]\nkernel = long-1x\n' "$live" \
	>"$RC4TUNE_CONF"
explain "[pin]"
want "[pin] outranks this CPU's section" kernel.name='"char-4x"' \
	kernel.source='"pin"' kernel.line=2 kernel.owner='"person"' \
	section.line=3
RC4TUNE_KERNEL=int-4x explain "RC4TUNE_KERNEL"
want "RC4TUNE_KERNEL: source env, no file" kernel.name='"int-4x"' \
	kernel.source='"env"' kernel.file=null kernel.line=null

# --- names from the environment and files are escaped -------------------
RC4TUNE_KERNEL="a\"b\\c$(printf '\033')d" explain "quotes and escapes"
jv kernel.trail | grep -q 'a\\"b\\\\c?d' &&
	ok "a quote, a backslash and an escape in RC4TUNE_KERNEL: valid JSON" ||
	{ fail "escaped name"; cat "$tmp/j"; }
chmod 664 "$RC4TUNE_CONF"
explain "refused"
want "a refused file: said, no section" config_status='"refused"' \
	section=null kernel.file=null
# --- the flows: which call's kernel sets up a flow's keys, which runs
# them (librc4tune(3), Many keys at once), the same as the calls' names --
printf '[default]\nkernel = int-8x\nset_keys_kernel = int-4lane\ncrypt_many_kernel = int-2lane\n' \
	>"$RC4TUNE_CONF"
chmod 644 "$RC4TUNE_CONF"
explain "flows"
want "flows: keys by set_keys then crypt_many, continue by set_keys then kernel" \
	flows.keys.set_up='"int-4lane"' flows.keys.run='"int-2lane"' \
	flows.continue.set_up='"int-4lane"' flows.continue.run='"int-8x"' \
	flows.single.set_up='"int-8x"' flows.single.run='"int-8x"'
grep -qx 'flow continue (rc4tune_set_keys, then rc4tune_crypt): set up by int-4lane, run by int-8x' "$tmp/t" &&
	ok "flows: the text says the same" || { fail "flows: the text"; cat "$tmp/t"; }
finish
