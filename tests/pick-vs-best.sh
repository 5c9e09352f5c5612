#!/bin/sh
# pick-vs-best.sh RC4TUNE BENCH [RUNS]: is the tuner fooled by its own
# harness?  Run it as a postinst does (rc4tune --generate-conf --output TMP
# --quiet), then re-measure every kernel independently through the public
# API (tests/bench, its own timing loop) and print pick/best: the score of
# the kernel the tuner wrote over the best score.  RUNS times (default 3),
# into the same file, so the spread and the repeatability show.  A timing,
# so not part of make check: `make pick-vs-best`.
set -u
rc4tune=${1:?usage: pick-vs-best.sh RC4TUNE BENCH [RUNS]}
bench=${2:?usage: pick-vs-best.sh RC4TUNE BENCH [RUNS]}
runs=${3:-3}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + 1))
	t0=$(date +%s.%N)
	"$rc4tune" --generate-conf --output "$tmp/rc4tune.conf" --quiet || exit 1
	t1=$(date +%s.%N)
	pick=$(sed -n 's/^kernel = //p' "$tmp/rc4tune.conf")
	"$bench" --rounds 15 --pick "$pick" >"$tmp/bench" || exit 1
	echo "run $i: tuner took $(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }') s;" \
		"$(grep 'pick/best' "$tmp/bench")"
done
echo "the last run's re-measurement (tests/bench, MB/s):"
cat "$tmp/bench"
