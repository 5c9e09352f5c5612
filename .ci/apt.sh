# .ci/apt.sh: sourced by .ci/cross and .ci/deb, which set suite (the Debian
# suite, e.g. bookworm), out (a directory for apt.log), CI_MIRROR (empty, or
# the archive to use) and say (print a line); need sets why for them.
# shellcheck disable=SC2154,SC2034
# The archive this machine's apt uses for $suite: the first URI of a deb
# line or deb822 stanza that lists the suite.  Nothing is hard-coded.
mirror() {
	if [ -n "${CI_MIRROR:-}" ]; then echo "$CI_MIRROR"; return; fi
	m=
	set -- /etc/apt/sources.list.d/*.sources
	[ -e "$1" ] && m=$(awk -v suite="$suite" '
		function flush() {
			if (!found && uris != "" && enabled != "no" &&
			    (" " types " ") ~ / deb / && (" " suites " ") ~ (" " suite " ")) {
				split(uris, u, " "); print u[1]; found = 1
			}
			types = suites = uris = enabled = ""
		}
		FNR == 1 { flush() }
		/^#/ { next }
		/^[ \t]*$/ { flush(); next }
		/^[A-Za-z-]+:/ {
			k = tolower(substr($0, 1, index($0, ":") - 1))
			v = substr($0, index($0, ":") + 1)
			gsub(/^[ \t]+|[ \t]+$/, "", v)
			if (k == "types") types = v; else if (k == "suites") suites = v
			else if (k == "uris") uris = v; else if (k == "enabled") enabled = tolower(v)
		}
		END { flush() }' "$@")
	if [ -z "$m" ]; then
		set -- /etc/apt/sources.list /etc/apt/sources.list.d/*.list
		m=$(cat "$@" 2>/dev/null | awk -v suite="$suite" '
			$1 != "deb" { next }
			{ i = 2; if ($i ~ /^\[/) while ($i !~ /\]$/ && i < NF) i++
			  if ($i ~ /\]$/) i++ }
			$(i + 1) == suite { print $i; exit }')
	fi
	[ -n "$m" ] && echo "$m"
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
