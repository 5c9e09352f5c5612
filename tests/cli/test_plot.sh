#!/bin/sh
# SPDX-License-Identifier: MIT
# test_plot.sh - tests/bench/plot.py (make plots) renders profiles to SVG (README,
# CPU rules and profiles): a profile with make bench tables (OpenSSL's row)
# and the per-call members set_keys and crypt_many that the tuner writes
# now, the same with one batch member of earlier versions, and every
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
plot=$RC4TUNE_TEST_DATA/bench/plot.py
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

# The earlier versions' one batch member, made from the per-call members
# (keys/s from set_keys, the 8 x 1024 B figure from crypt_many); and the
# per-call members with a kernel renamed in each, to see which is read.
"$py" - "$one" "$tmp/earlier.json" "$tmp/percall.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
calls = ("set_keys", "crypt_many")
earlier = json.loads(json.dumps(p))
for r in earlier["runs"]:
    keys = {k["name"]: k for k in r.pop("set_keys")["kernels"]}
    many = r.pop("crypt_many")
    for k in many["kernels"]:
        if k["status"] == "ok":
            k["keys_per_second"] = keys[k["name"]]["keys_per_second"]
    r["batch"] = many
json.dump(earlier, open(sys.argv[2], "w"))
for r in p["runs"]:
    for call in calls:
        for k in r[call]["kernels"]:
            if k["name"] == "char-8lane-asm":
                k["name"] = "only-in-" + call
json.dump(p, open(sys.argv[3], "w"))
PY

if "$py" "$plot" "$tmp/earlier.json" --output "$tmp/one.svg" >/dev/null &&
	svg "$tmp/one.svg" &&
	shows "$tmp/one.svg" "OpenSSL RC4" "long-16x-sse41" "rc4tune_set_keys" \
		"rc4tune_crypt_many" "share of serial"; then
	ok "$(basename "$one"), its batch calls as one batch member: rendered"
else
	fail "$(basename "$one") with one batch member did not render as expected"
fi

"$py" "$plot" "$one" --output "$tmp/again.svg" >/dev/null &&
	"$py" "$plot" "$one" --output "$tmp/again2.svg" >/dev/null &&
	cmp -s "$tmp/again.svg" "$tmp/again2.svg" && ok "the same SVG twice" ||
	fail "two renderings of one profile differ"

if "$py" "$plot" "$tmp/percall.json" -o "$tmp/percall.svg" >/dev/null &&
	svg "$tmp/percall.svg" &&
	shows "$tmp/percall.svg" "OpenSSL RC4" only-in-set_keys \
		only-in-crypt_many "share of serial"; then
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
