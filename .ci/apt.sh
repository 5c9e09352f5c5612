# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# .ci/apt.sh: sourced by .ci/cross and .ci/deb, which set suite (the Debian
# suite, e.g. bookworm), out (a directory for apt.log), CI_MIRROR (empty, or
# the archive to use) and say (print a line); need sets why for them.
# shellcheck disable=SC2154,SC2034
# The archive this machine's apt uses for $suite: the first deb source
# that lists the suite, as apt itself reads sources.list and
# sources.list.d/ (one-line and deb822, Enabled: no, [options]).  Nothing
# is hard-coded.
mirror() {
	if [ -n "${CI_MIRROR:-}" ]; then echo "$CI_MIRROR"; return; fi
	# shellcheck disable=SC2016 # apt's $(FIELD), not the shell's
	apt-get indextargets --no-release-info \
		--format '$(TARGET_OF) $(RELEASE) $(REPO_URI)' 2>/dev/null |
		awk -v suite="$suite" '$1 == "deb" && $2 == suite {
			sub(/\/$/, "", $3); print $3; found = 1; exit }
			END { exit !found }'
}

# Host packages: install the missing ones (once per run: apt-get update
# first).  --no-remove: never take another package away (gcc-multilib's
# libc6-dev-i386 and libc6-dev-x32 and the cross compilers exclude each
# other).
updated=
need() {
	missing=
	for p; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		why="not root, cannot install:$missing"; return 1
	fi
	say "installing:$missing"
	if [ -z "$updated" ]; then
		apt-get update -qq >"$out/apt.log" 2>&1 ||
			{ why="apt-get update failed: $(tail -n 1 "$out/apt.log")"; return 1; }
		updated=1
	fi
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends --no-remove $missing \
		>"$out/apt.log" 2>&1 ||
		{ why="apt-get install$missing failed: $(grep '^E:' "$out/apt.log" | head -n 2 | tr '\n' ' ')"; return 1; }
}
