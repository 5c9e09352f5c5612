#!/bin/sh
# SPDX-License-Identifier: MIT
# test_tuner_speed.sh - rc4tune --speed (rc4tune(1), OPTIONS; OUTPUT): a
# table and no file; --json parses, names this CPU, a winner among its
# kernels and each batch call's kernels; a measuring run reads no config
# and no environment; --generate-conf --json names the kernels it wrote.
# Short budgets; no timing is asserted.
#
# Environment (make check sets it): RC4TUNE, the rc4tune binary.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tuner.sh"

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
# and a winner among its kernels, a cycle clock only with its rate, and
# each batch call's member ("set_keys", "crypt_many") lists the batch
# kernels of --list (in $tmp/batch) with a winner among them, and
# SET_KEYS and CRYPT_MANY, if set, as the kernels it says it wrote (not
# the winner: an uncertain run keeps the prior).
# Such a member is an error when SET_KEYS is "none".
checkjson() {
	perl -MJSON::PP -e '
	local $/; my $j = decode_json(<STDIN>);
	my ($live, $wsk, $wcm, $list) = @ARGV;
	my %ok = map { $_->{name} => 1 } grep { $_->{status} eq "ok" } @{$j->{kernels}};
	exit 1 unless $ok{$j->{winner}} && @{$j->{sizes}} == 5 && $j->{rounds} > 0
	       && $j->{cpu} eq $live;
	# a cycle clock named has a rate (off x86 there is none to name)
	exit 1 if defined $j->{cycle_clock} && !($j->{cycle_hz} > 0);
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
