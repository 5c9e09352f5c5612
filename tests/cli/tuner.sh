# SPDX-License-Identifier: MIT
# tuner.sh - what the test_tuner_*.sh tests share, sourced after lib.sh:
# $live, this CPU's section name (the test is skipped where the CPU is not
# identified), a short budget (no timing is asserted: the machine is
# shared), a --generate-conf run and this CPU's section of a file.
: "${RC4TUNE:?set RC4TUNE to the rc4tune binary}"
live_section "$RC4TUNE"
budget='--budget 0.3'

# tune ARGS...: run --generate-conf; stdout in $tmp/out, stderr in $tmp/err.
tune() {
	"$RC4TUNE" --generate-conf $budget "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# section FILE: the live CPU's section of FILE (header to kernel line).
section() {
	awk -v h="[$live]" '$0 == h { p = 1 } p { print } p && /^kernel = / { exit }' "$1"
}
