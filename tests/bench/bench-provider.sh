#!/bin/sh
# SPDX-License-Identifier: MIT
# bench-provider.sh - `openssl speed -evp rc4` through OpenSSL's legacy
# provider and through rc4tune.so, side by side in one run (`make bench`):
# ROUNDS rounds (default 3) alternating the two, so that drift in the
# machine's load hits both alike; the median per block size; and
# rc4tune/legacy at 16, 64, 256, 1024 and 8192 bytes.  openssl speed divides
# by the CPU time its process used, so time that other processes take is
# not counted against either.  Never part of make check.
#
# Usage: bench-provider.sh PROVIDER-DIR [SECONDS-PER-SIZE]
set -u
dir=${1:?usage: bench-provider.sh PROVIDER-DIR [SECONDS-PER-SIZE]}
secs=${2:-1}
rounds=${ROUNDS:-3}
unset OPENSSL_MODULES
OPENSSL_CONF=/dev/null
export OPENSSL_CONF

command -v openssl >/dev/null || { echo "bench-provider: no openssl command"; exit 0; }
if ! openssl list -providers -provider legacy >/dev/null 2>&1; then
	echo "bench-provider: the legacy provider does not load: nothing to compare with"
	exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# speed WHO ARGS...: one run, its "+F:" line (bytes per second at 16, 64,
# 256, 1024, 8192, 16384) appended to $tmp/WHO.
speed() {
	who=$1
	shift
	openssl speed -evp rc4 -mr -seconds "$secs" "$@" 2>"$tmp/err" |
		grep '^+F:' >>"$tmp/$who" ||
		{ echo "bench-provider: openssl speed $* failed:"; cat "$tmp/err"; exit 1; }
}

# the library's choice and why (its trail's last line)
kernel=$(RC4TUNE_DEBUG=1 openssl list -providers -verbose -provider-path "$dir" \
	-provider rc4tune 2>&1 | sed -n 's/^librc4tune: chosen: //p')
cpu=$(awk -F': *' '/^vendor_id/ { v = $2 } /^cpu family/ { f = $2 }
	/^model[ \t]*:/ { m = $2 } /^model name/ { n = $2 }
	END { if (v != "") printf "%s family %s model %s (%s)", v, f, m, n }' \
	/proc/cpuinfo 2>/dev/null)
echo "openssl speed -evp rc4: legacy provider against rc4tune.so (kernel ${kernel:-?})"
echo "CPU: ${cpu:-$(uname -m)}; $(openssl version)"
echo "$rounds rounds of $secs s per block size, alternating; medians"
r=0
while [ $r -lt "$rounds" ]; do
	r=$((r + 1))
	[ -t 2 ] && printf 'round %d of %d ...\r' "$r" "$rounds" >&2
	speed legacy -provider legacy
	speed rc4tune -provider-path "$dir" -provider rc4tune
done
[ -t 2 ] && printf '%24s\r' '' >&2

awk -F: '
function median(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
FNR == 1 { who++ }
{ n[who]++; for (s = 1; s <= 5; s++) v[who, s, n[who]] = $(s + 3) }
END {
	split("16 64 256 1024 8192", size, " ")
	printf "%-12s %16s %16s %16s\n", "block", "legacy", "rc4tune", "rc4tune/legacy"
	for (s = 1; s <= 5; s++) {
		for (w = 1; w <= 2; w++) {
			for (i = 1; i <= n[w]; i++) x[i] = v[w, s, i]
			m[w] = median(x, n[w])
		}
		printf "%-12s %15.2fk %15.2fk %16.2f\n", size[s] " bytes",
			m[1] / 1000, m[2] / 1000, (m[1] > 0 ? m[2] / m[1] : 0)
	}
	print "(1000s of bytes per second, as openssl speed prints them)"
}' "$tmp/legacy" "$tmp/rc4tune"
