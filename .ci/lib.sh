# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# .ci/lib.sh: what .ci/test, .ci/cross and .ci/deb share: a line said, the
# time, and the counts of an automake test-suite.log read the same way.

say() { printf '%s\n' "$*"; }
now() { date +%s; }

# testlog_counts LOG: "PASSED FAILED SKIPPED" from LOG's summary (FAILED
# counts FAIL, ERROR and XPASS); fails if there is no LOG.
testlog_counts() {
	[ -f "$1" ] || return 1
	awk '/^# PASS:/ { p = $3 } /^# SKIP:/ { k = $3 }
		/^# (FAIL|ERROR|XPASS):/ { f += $3 }
		END { print p + 0, f + 0, k + 0 }' "$1"
}
