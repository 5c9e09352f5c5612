#!/bin/sh
# SPDX-License-Identifier: MIT
# test_faults_reader.sh - a reader that fails ignores the file whole
# (rc4tune.conf(5), WHEN THE FILE IS IGNORED): every call the library's
# config reader makes on the config file (src/conf.c load: open, fstat,
# read; the allocations while the file is open: realpath's and rc4_read_fd's
# buffer) failed in turn (tests/helpers/shim.c, RC4TUNE_SHIM_FAIL with
# RC4TUNE_SHIM_READER=1), through `RC4TUNE_DEBUG=1 rc4tune --explain`: a
# selection of every kind at once, which reads the file once
# (rc4_conf_read), then the owners of its sections (rc4_conf_load). For
# each: no crash, exit 0; a selection that met the failure ignores the file
# as a whole, each kind's trail saying "config FILE: whole file ignored:"
# and why, and falls to the next step (the kernels picked without a
# config).  A read interrupted (EINTR) is retried: every kind reads the
# file.  A failure in rc4_conf_load leaves the selection alone (its owners
# go unsaid).  And a program that makes the four calls opens the config
# once.  Prints how many sites and failures were covered.
#
# Environment (make check sets it): RC4TUNE, the tuner (the library
# linked in); SHIM, tests/helpers/.libs/libshim.so.
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE:?set RC4TUNE to the rc4tune binary}"
shim_for "$RC4TUNE"
conf=$tmp/rc4tune.conf
single='kernel = char-1x' batch='batch_kernel = char-8lane'
printf '[default]\n%s\n%s\n' "$single" "$batch" >"$conf"
chmod 644 "$conf"

# run VAR=VALUE...: --explain under the shim; $rc, stdout in $tmp/out,
# its kernel lines (the unindented ones, but the flows') in $tmp/kernels.
run() {
	rm -f "$tmp/note"
	env LD_PRELOAD="$SHIM" RC4TUNE_SHIM_FILE="$conf" RC4TUNE_SHIM_READER=1 \
		RC4TUNE_SHIM_NOTE="$tmp/note" "$@" RC4TUNE_DEBUG=1 \
		"$RC4TUNE" --explain >"$tmp/out" 2>"$tmp/err"
	rc=$?
	grep -v '^ \|^flow ' "$tmp/out" >"$tmp/kernels"
}

# kernels_of FILE OUT: the kernel lines with FILE as the config.
kernels_of() {
	RC4TUNE_CONF=$1 "$RC4TUNE" --explain 2>/dev/null | grep -v '^ \|^flow ' >"$2"
}
# The kernels with no config: what a selection that meets a failure picks.
kernels_of "$tmp/none" "$tmp/noconf"
run RC4TUNE_CONF="$conf" RC4TUNE_SHIM_COUNT="$tmp/count"
[ -s "$tmp/count" ] || skip "the shim was not loaded"
[ "$rc" -eq 0 ] || { fail "the run without faults: exit status $rc"; cat "$tmp/err"; }
cp "$tmp/kernels" "$tmp/withconf"
kinds=$(wc -l <"$tmp/withconf")
[ "$(grep -c "config $conf: read\$" "$tmp/out")" -eq "$kinds" ] ||
	fail "the run without faults: not every selection read the file"
cmp -s "$tmp/withconf" "$tmp/noconf" &&
	fail "the config's kernels are the ones picked without it: the test cannot tell"
# the selection's one load, then rc4_conf_load's: the watched calls of a
# load are the same every time
loads=2

# A program's first use of the four calls reads the config once.
: "${FIRSTUSE:?set FIRSTUSE to tests/helpers/firstuse}"
rm -f "$tmp/count4"
env LD_PRELOAD="$SHIM" RC4TUNE_SHIM_FILE="$conf" RC4TUNE_SHIM_READER=1 \
	RC4TUNE_SHIM_COUNT="$tmp/count4" RC4TUNE_CONF="$conf" "$FIRSTUSE" all >/dev/null
[ "$(sed -n 's/^open //p' "$tmp/count4")" = 1 ] &&
	ok "the four calls' first use opens the config once" ||
	{ fail "the four calls opened the config more than once"; cat "$tmp/count4"; }

errnos() {
	case $1 in
	open) echo EACCES EMFILE EIO ;;
	fstat) echo EIO EOVERFLOW ;;
	read) echo EIO EINTR ;;
	malloc) echo ENOMEM ;;
	esac
}

strerror() {
	case $1 in
	EACCES) echo 'Permission denied' ;;
	EMFILE) echo 'Too many open files' ;;
	EIO) echo 'Input/output error' ;;
	EOVERFLOW) echo 'Value too large for defined data type' ;;
	ENOMEM) echo 'Cannot allocate memory' ;;
	esac
}

# check CALL N ERRNO COUNT: what the run that failed the Nth CALL did.
check() {
	what="$1:$2:$3"
	grep -q '^failed ' "$tmp/note" 2>/dev/null ||
		{ fail "$what: the shim did not fail the call"; return; }
	[ "$rc" -eq 0 ] || { fail "$what: exit status $rc, not 0"; cat "$tmp/err"; return; }
	[ "$(wc -l <"$tmp/kernels")" -eq "$kinds" ] ||
		{ fail "$what: not every kind's kernel printed"; cat "$tmp/out"; return; }
	ignored=$(grep -c "config $conf: whole file ignored: " "$tmp/out")
	load=$(( ($2 - 1) / ($4 / loads) + 1 )) # which load met the failure
	if [ "$3" = EINTR ] || [ "$load" -eq "$loads" ]; then
		# retried, or rc4_conf_load's: every selection read the file
		[ "$ignored" -eq 0 ] && cmp -s "$tmp/kernels" "$tmp/withconf" &&
			[ "$(grep -c "config $conf: read\$" "$tmp/out")" -eq "$kinds" ] ||
			{ fail "$what: a selection did not read the file"; cat "$tmp/out"; return; }
		read_ok=$((read_ok + 1))
		return
	fi
	[ "$ignored" -eq "$kinds" ] ||
		{ fail "$what: $ignored trail lines say the file is ignored, not $kinds"; cat "$tmp/out"; return; }
	why=$(sed -n "s|.*config $conf: whole file ignored: ||p" "$tmp/out" | sort -u)
	case $1 in
	open) want="cannot open: $(strerror "$3")" ;;
	fstat) want="cannot stat: $(strerror "$3")" ;;
	read) want="cannot read: $(strerror "$3")" ;;
	malloc) want="cannot read: $(strerror "$3")"
		[ "$why" != 'cannot resolve its path' ] || want=$why ;;
	esac
	[ "$why" = "$want" ] || fail "$what: the trail says \"$why\", not \"$want\""
	# every kind picks what it picks without a config
	cmp -s "$tmp/kernels" "$tmp/noconf" ||
		{ fail "$what: not the kernels picked without a config"; diff "$tmp/noconf" "$tmp/kernels"; }
	grep -q "the file is ignored" "$tmp/out" ||
		fail "$what: the trail does not fall past the ignored file"
	refused=$((refused + 1))
}

sites=0 failures=0 refused=0 read_ok=0
while read -r call count; do
	errs=$(errnos "$call")
	[ -n "$errs" ] && [ "$count" -gt 0 ] || continue
	[ "$call:$nomalloc" != malloc:1 ] || continue
	[ $((count % loads)) -eq 0 ] ||
		{ fail "$call: $count calls, not the same in each of $loads loads"; continue; }
	n=1
	while [ "$n" -le "$count" ]; do
		sites=$((sites + 1))
		for e in $errs; do
			run RC4TUNE_CONF="$conf" RC4TUNE_SHIM_FAIL="$call:$n:$e"
			failures=$((failures + 1))
			check "$call" "$n" "$e" "$count"
		done
		n=$((n + 1))
	done
done <"$tmp/count"
[ "$sites" -gt 0 ] || fail "no site watched"
echo "$sites sites ($(grep -v ' 0$' "$tmp/count" | tr '\n' ' ' | sed 's/ $//'), over $loads loads), $failures failures injected: $refused ignored the file with the reason and fell to the next step, $read_ok read it (retried, or the owners' load)"
finish
