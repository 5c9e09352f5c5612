#!/bin/sh
# SPDX-License-Identifier: MIT
# pick-vs-best.sh RC4TUNE BENCH [RUNS]: is the tuner fooled by its own
# harness?  Run it as a postinst does (rc4tune --generate-conf --output TMP
# --quiet), then re-measure every kernel independently through the public
# API (tests/bench/bench, its own timing loop) and print pick/best: the score of
# the kernel the tuner wrote over the best score (where that best is
# another kernel, the two again, head to head).  RUNS times (default 3),
# into the same file, so the spread, the repeatability and the section's
# history show.  AFTER seconds (default 0) of other heavy work
# (tests/bench/bench, over and over) before each run: the tuner then starts as a
# postinst does after an upgrade's other work, in whatever state that left
# the host.  Where the best is of another state layout than the pick, the
# pick against its layout's best too, and the tuner's note of its family
# step, which may give up to 5 % of single-stream speed for the batch
# calls' lanes (rc4tune(1)).  A timing, so not part of make check: `make pick-vs-best
# [PICK_RUNS=N] [PICK_AFTER=SECONDS]`.
set -u
usage='usage: pick-vs-best.sh RC4TUNE BENCH [RUNS [AFTER]]'
rc4tune=${1:?$usage}
bench=${2:?$usage}
runs=${3:-3}
after=${4:-0}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# The best of some 40 rows, several within the noise of each other, is
# biased up by that noise (the winner's curse): so where it is not the
# pick, the two are timed again, alone and side by side, on new samples.
head_to_head() {
	[ -n "$2" ] && [ "$2" != "$1" ] || return 0
	"$bench" --rounds 30 --pick "$1" "$1" "$2" >"$tmp/again" || exit 1
	echo "  head to head: $(sed -n 's/^--pick [^:]*: \(pick\/best\)/\1/p' "$tmp/again")"
}

i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + 1))
	end=$(($(date +%s) + after))
	while [ "$(date +%s)" -lt "$end" ]; do
		"$bench" --rounds 3 >/dev/null || exit 1
	done
	t0=$(date +%s.%N)
	"$rc4tune" --generate-conf --output "$tmp/rc4tune.conf" --quiet \
		2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
	t1=$(date +%s.%N)
	pick=$(sed -n 's/^kernel = //p' "$tmp/rc4tune.conf")
	conf=$(sed -n 's/^;@ result key=kernel .* confidence=\([a-z]*\) why=\(.*\)/\1 (\2)/p' \
		"$tmp/rc4tune.conf")
	weighed=$(sed -n 's/^; \(history\|prior\): /\1: /p' "$tmp/rc4tune.conf" | head -n 1)
	family=$(sed -n 's/^; \(family: \)/\1/p' "$tmp/rc4tune.conf" | head -n 1)
	"$bench" --rounds 15 --pick "$pick" >"$tmp/bench" || exit 1
	echo "run $i: tuner took $(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }') s;" \
		"wrote $pick, confidence $conf;" \
		"$(grep "^--pick [^:]*: pick/best" "$tmp/bench")${weighed:+; $weighed}${family:+; $family}"
	sed -n 's/^--pick [^:]*: \(of the .* layout, \)/  \1/p' "$tmp/bench"
	head_to_head "$pick" "$(sed -n 's/^--pick [^:]*: pick\/best = .* (best \([^)]*\)).*/\1/p' "$tmp/bench")"
done
echo "the last run's re-measurement (tests/bench/bench, MB/s):"
cat "$tmp/bench"
