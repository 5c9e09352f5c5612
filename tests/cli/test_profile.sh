#!/bin/sh
# SPDX-License-Identifier: MIT
# test_profile.sh - tests/bench/profile.py (make profile; doc/cpus/README.md,
# "Profiles") on the seam, with stand-ins for the benchmarks that log each
# call: a committed profile is not replaced without --force, and nothing
# is measured before it says so; the benchmarks run after each run but
# the last, limits once, and "taken" says when each ran, in order; a
# limits table without the store rates writes nothing.
#
# Environment (make check sets it): RC4TUNE_TEST_DATA, RC4TUNE_SEAM;
# TEST_EMULATOR, if set, runs a cross-built program.
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE_TEST_DATA:?}"
: "${RC4TUNE_SEAM:?set RC4TUNE_SEAM to tests/helpers/rc4tune_seam}"
profile=$RC4TUNE_TEST_DATA/bench/profile.py
command -v python3 >/dev/null || skip "no python3"

export RC4TUNE_SEAM_RATES="int-8x=100e6,100e6,100e6" RC4TUNE_SEAM_NOISE=0
printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${TEST_EMULATOR:-}" "$RC4TUNE_SEAM" \
	>"$tmp/rc4tune"
# Stand-ins: each logs its name, then prints what profile.py reads.
stand_in() {
	printf '#!/bin/sh\necho %s >>"%s"\n%s\n' "$1" "$tmp/calls" "$2" >"$tmp/$1"
}
stand_in bench 'echo "MB/s 16"; echo "int-8x 100"'
stand_in bench_batch 'echo "keys/s"; echo "batch serial 5"'
stand_in flows 'echo "flows through the public calls: kernel int-8x (rule)"; echo "flow keys 1.5 2.5"'
stand_in limits 'echo "{\"stores_8\": 1, \"stores_32\": 2, \"stores_64\": 3}"'
stand_in nostores 'echo "{\"stores_8\": 1}"'
chmod 755 "$tmp/rc4tune" "$tmp/bench" "$tmp/bench_batch" "$tmp/flows" \
	"$tmp/limits" "$tmp/nostores"
live_section "$tmp/rc4tune"
out=$tmp/profiles
mkdir "$out"
name=$out/$(echo "$live" | cut -d' ' -f2- | tr ' /' '-_').json

# prof LIMITS ARG...: profile.py on the stand-ins, 0.2 s runs, no gap.
prof() {
	lim=$1; shift
	python3 "$profile" --rc4tune "$tmp/rc4tune" --bench "$tmp/bench" \
		--bench-batch "$tmp/bench_batch" --flows "$tmp/flows" \
		--limits "$tmp/$lim" --budget 0.2 --gap 0 --outdir "$out" "$@"
}

if prof limits --runs 2 >"$tmp/out" 2>"$tmp/err" &&
	[ "$(cat "$tmp/out")" = "$name" ] &&
	[ "$(tr '\n' ' ' <"$tmp/calls")" = "bench bench_batch flows limits " ]; then
	ok "two runs: the benchmarks after the first only, limits once"
else
	fail "two runs: $(cat "$tmp/out" "$tmp/err" "$tmp/calls" 2>&1)"
fi
if python3 - "$name" <<'PY'
import json, re, sys
p = json.load(open(sys.argv[1]))
taken = [(t["step"], t["run"]) for t in p["taken"]]
assert taken == [("bench", 1), ("bench_batch", 1), ("flows", 1),
                 ("limits", None)], taken
for t in p["taken"] + p["runs"]:
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", t["at"]), t
    assert t["load"] >= 0, t
assert all(t["seconds"] >= 0 for t in p["taken"])
assert len(p["runs"]) == 2 and p["runs"][0]["kernels"], p["runs"]
assert p["bench"] == [["MB/s 16", "int-8x 100"]], p["bench"]
assert p["flows"][0]["keys"] == [1.5, 2.5], p["flows"]
assert p["flows"][0]["kernels"] == "int-8x", p["flows"]
assert p["limits"]["stores_64"] == 3 and not p["partial"], p["limits"]
PY
then
	ok "runs, the benchmarks' entries and \"taken\" in order"
else
	fail "the profile's members: see above"
fi

cp "$name" "$tmp/before"
: >"$tmp/calls"
if ! prof limits --runs 1 >/dev/null 2>"$tmp/err" && cmp -s "$name" "$tmp/before" &&
	grep -q "exists" "$tmp/err" && grep -qF -- "--force" "$tmp/err" &&
	[ ! -s "$tmp/calls" ]; then
	ok "an existing profile: refused before measuring, left as it was"
else
	fail "an existing profile: $(cat "$tmp/err" "$tmp/calls")"
fi

if ! prof nostores --runs 1 --force >/dev/null 2>"$tmp/err" &&
	grep -q "lacks stores_32, stores_64" "$tmp/err" &&
	cmp -s "$name" "$tmp/before" && [ "$(ls "$out")" = "${name##*/}" ]; then
	ok "limits without the store rates: said, nothing written"
else
	fail "limits without the store rates: $(cat "$tmp/err")"
fi

: >"$tmp/calls"
if prof limits --runs 1 --force >/dev/null 2>"$tmp/err" &&
	[ "$(tr '\n' ' ' <"$tmp/calls")" = "bench bench_batch flows limits " ] &&
	! cmp -s "$name" "$tmp/before"; then
	ok "--force, one run: replaced, the benchmarks after the only run"
else
	fail "--force, one run: $(cat "$tmp/err" "$tmp/calls")"
fi
finish
