# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# .ci/testlog.sh: sourced by .ci/test and .ci/cross, which read the counts
# of an automake test-suite.log the same way.

# testlog_counts LOG: "PASSED FAILED SKIPPED" from LOG's summary (FAILED
# counts FAIL, ERROR and XPASS); fails if there is no LOG.
testlog_counts() {
	[ -f "$1" ] || return 1
	awk '/^# PASS:/ { p = $3 } /^# SKIP:/ { k = $3 }
		/^# (FAIL|ERROR|XPASS):/ { f += $3 }
		END { print p + 0, f + 0, k + 0 }' "$1"
}
