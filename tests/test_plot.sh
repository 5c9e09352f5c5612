#!/bin/sh
# SPDX-License-Identifier: MIT
# test_plot.sh - tests/plot.py (make plots) renders profiles to SVG (README,
# CPU rules and profiles): a profile with make bench tables (OpenSSL's row)
# and one batch member of earlier versions, the same with the per-call
# members set_keys and crypt_many that the tuner writes now, and every
# data/profiles/*.json, each to a well-formed SVG naming what it shows;
# twice the same bytes. Skipped, saying so, without a python3 that has
# matplotlib.
#
# Environment (make check sets it): RC4TUNE_TEST_DATA, PLOT_PYTHON
# (configure's python3 with matplotlib, empty without one).
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE_TEST_DATA:?}"
py=${PLOT_PYTHON:-}
[ -n "$py" ] && "$py" -c 'import matplotlib' 2>/dev/null ||
	skip "no python3 with matplotlib (Debian: python3-matplotlib): no plot rendered"
plot=$RC4TUNE_TEST_DATA/plot.py
profiles=$RC4TUNE_TEST_DATA/../data/profiles
one=$profiles/AuthenticAMD-25-1.json

# svg FILE: parses as XML with an <svg> root.
svg() {
	"$py" -c 'import sys, xml.etree.ElementTree as E
sys.exit(E.parse(sys.argv[1]).getroot().tag != "{http://www.w3.org/2000/svg}svg")' "$1"
}
# shows FILE TEXT...: each TEXT is in FILE (svg.fonttype none: text stays text).
shows() {
	f=$1; shift
	for t in "$@"; do grep -qF -- "$t" "$f" || { echo "no '$t' in $f"; return 1; }; done
}

if "$py" "$plot" "$one" --output "$tmp/one.svg" >/dev/null && svg "$tmp/one.svg" &&
	shows "$tmp/one.svg" "OpenSSL RC4" "long-16x-sse41" "rc4tune_set_keys" \
		"rc4tune_crypt_many" "share of serial"; then
	ok "$(basename "$one"): bench tables and a batch member rendered"
else
	fail "$(basename "$one") did not render as expected"
fi

"$py" "$plot" "$one" --output "$tmp/again.svg" >/dev/null &&
	cmp -s "$tmp/one.svg" "$tmp/again.svg" && ok "the same SVG twice" ||
	fail "two renderings of one profile differ"

# The tuner's per-call members: the batch member's figures moved into
# set_keys and crypt_many, a kernel renamed in each to see which is read.
"$py" - "$one" "$tmp/percall.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
for r in p["runs"]:
    b = r.pop("batch")
    for call in ("set_keys", "crypt_many"):
        ks = json.loads(json.dumps(b["kernels"]))
        for k in ks:
            if k["name"] == "char-8lane-asm":
                k["name"] = "only-in-" + call
        r[call] = dict(b, kernels=ks)
json.dump(p, open(sys.argv[2], "w"))
PY
if "$py" "$plot" "$tmp/percall.json" -o "$tmp/percall.svg" >/dev/null &&
	svg "$tmp/percall.svg" &&
	shows "$tmp/percall.svg" only-in-set_keys only-in-crypt_many; then
	ok "per-call members set_keys and crypt_many rendered"
else
	fail "per-call members not rendered"
fi

mkdir "$tmp/all"
n=0
for p in "$profiles"/*.json; do
	name=$(basename "$p" .json)
	if "$py" "$plot" --outdir "$tmp/all" "$p" >/dev/null && svg "$tmp/all/$name.svg"; then
		n=$((n + 1))
	else
		fail "$name.json did not render"
	fi
done
ok "$n profiles rendered"

"$py" "$plot" "$one" >/dev/null 2>&1
[ $? -eq 2 ] && ok "no --output or --outdir: usage error" || fail "no usage error without an output"
finish
