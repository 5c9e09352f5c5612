#!/bin/sh
# SPDX-License-Identifier: MIT
# test_install.sh - installed as a packager and a program expect (README,
# Installing and packaging; rc4tune(1), PACKAGING): into a DESTDIR, every
# file in place, the man pages lint-clean and naming the configured paths,
# a program built with pkg-config printing the right keystream, only
# rc4tune_* exported, an edited config kept on reinstall; the OpenSSL
# provider module and its snippet where configure built them.
set -u
. "$(dirname "$0")/lib.sh"
: "${top_builddir:?}" "${sysconfdir:?}" "${libdir:?}"
MAKE=${MAKE:-make}
CC=${CC:-cc}
root=$tmp/root
fail=0
bad() { echo "FAIL: $*"; fail=1; }

"$MAKE" -s -C "$top_builddir" install DESTDIR="$root" >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log"; echo "FAIL: make install"; exit 1; }

conf=$root$sysconfdir/rc4tune.conf
for f in "$conf" "$root$libdir/librc4tune.a" "$root$libdir/pkgconfig/librc4tune.pc"; do
	test -f "$f" || bad "missing $f"
done
ls "$root$libdir"/librc4tune.so* >/dev/null 2>&1 || bad "no librc4tune.so in $libdir"
find "$root" -path '*/bin/rc4tune' -type f | grep -q . || bad "no rc4tune in bindir"
find "$root" -name rc4tune.h | grep -q . || bad "no rc4tune.h"
find "$root" -path '*/examples/ansible/rc4tune.fact' -perm -u+x | grep -q . ||
	bad "no executable examples/ansible/rc4tune.fact"

# A page's text without the break points (\:) make puts in its paths.
unbroken() { sed 's/\\://g' "$1"; }
for page in rc4tune.1 rc4tune.conf.5 librc4tune.3; do
	p=$(find "$root" -name "$page" -type f)
	if [ -z "$p" ]; then bad "no man page $page"; continue; fi
	lint=$(groff -man -ww -z "$p" 2>&1)
	[ -z "$lint" ] || bad "$page is not lint-clean: $lint"
	unbroken "$p" | grep -q "$sysconfdir/rc4tune.conf" || bad "$page does not name $sysconfdir/rc4tune.conf"
	! grep -q '@sysconfdir@' "$p" || bad "$page has an unsubstituted @sysconfdir@"
done

# The pages lint-clean under a deep prefix too (make distcheck unpacks
# the tree somewhere deep): a 203-byte one of names groff cannot hyphenate,
# made as make makes them.
d=/$(printf '%048d' 0 | tr 0 d)
deep=$d$d$d$d/prefix
for page in rc4tune.1 rc4tune.conf.5 librc4tune.3 rc4tune-provider.7; do
	"$MAKE" -s -C "$top_builddir" man-page PAGE="man/$page" OUT="$tmp/$page" \
		sysconfdir="$deep/etc" bindir="$deep/bin" \
		modulesdir="$deep/lib/ossl-modules" >/dev/null || bad "cannot make $page"
	lint=$(groff -man -ww -z "$tmp/$page" 2>&1)
	[ -z "$lint" ] || bad "$page is not lint-clean under a ${#deep}-byte prefix: $lint"
done

# The boot unit, where configure found systemd's unit directory: it runs
# this install's rc4tune with options it takes, and systemd reads it.
if [ -n "${systemdsystemunitdir:-}" ]; then
	unit=$root$systemdsystemunitdir/rc4tune.service
	if [ ! -f "$unit" ]; then
		bad "no $unit"
	else
		grep -qx "ExecStart=$bindir/rc4tune --generate-conf --if-missing --quiet" "$unit" ||
			bad "$unit does not run $bindir/rc4tune --generate-conf --if-missing --quiet"
		grep -qx "ConditionPathIsReadWrite=$sysconfdir" "$unit" ||
			bad "$unit does not name $sysconfdir"
		# a hung run must not leave boot "activating" for good; the
		# budget (2.5 s) and the lock's bound (10 s) fit well inside
		t=$(sed -n 's/^TimeoutStartSec=\([0-9]*\)$/\1/p' "$unit")
		[ -n "$t" ] && [ "$t" -ge 30 ] ||
			bad "$unit has no start timeout of 30 s or more (TimeoutStartSec=${t:-none})"
		if command -v systemd-analyze >/dev/null; then
			sed "s|^ExecStart=$bindir/rc4tune|ExecStart=$root$bindir/rc4tune|" \
				"$unit" >"$tmp/rc4tune.service"
			out=$(systemd-analyze verify --man=no "$tmp/rc4tune.service" 2>&1) ||
				bad "systemd-analyze verify: $out"
		fi
	fi
fi

# Only the API leaves the shared library (beside its version nodes, the
# absolute symbols LIBRC4TUNE_*: tests/cli/test_abi.sh checks them).
so=$(ls "$root$libdir"/librc4tune.so.* | head -n 1)
others=$(nm -D --defined-only "$so" | awk '$2 != "A" {print $3}' | grep -v '^rc4tune_')
[ -z "$others" ] || bad "exported beyond rc4tune_*: $others"

# Programs need nothing of the tuner's: the library does not pull in
# libcpuid, nor does its pkg-config file.
if command -v readelf >/dev/null; then
	! readelf -d "$so" | grep -q 'NEEDED.*libcpuid' ||
		bad "$so needs libcpuid"
fi
! grep -q cpuid "$root$libdir/pkgconfig/librc4tune.pc" ||
	bad "librc4tune.pc names libcpuid"

# A program built against the install with pkg-config.
cat >"$tmp/prog.c" <<'PROG'
#include <stdio.h>
#include <rc4tune.h>
int main(void)
{
	unsigned char buf[8] = { 0 };
	rc4tune_key k;
	if (rc4tune_set_key(&k, "Key", 3) != 0)
		return 1;
	rc4tune_crypt(&k, sizeof buf, buf, buf);
	for (size_t i = 0; i < sizeof buf; i++)
		printf("%02x", buf[i]);
	printf("\n");
	return 0;
}
PROG
flags=$(PKG_CONFIG_PATH=$root$libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root \
	pkg-config --cflags --libs librc4tune) || bad "pkg-config librc4tune"
# TEST_EMULATOR runs it in a cross build's make check (.ci/cross: qemu-user
# against the sysroot); unset natively.
# shellcheck disable=SC2086
if $CC -o "$tmp/prog" "$tmp/prog.c" $flags; then
	out=$(LD_LIBRARY_PATH=$root$libdir RC4TUNE_CONF=$conf ${TEST_EMULATOR-} "$tmp/prog")
	[ "$out" = eb9f7781b734ca72 ] || bad "program printed '$out', want eb9f7781b734ca72"
else
	bad "cannot build a program with: $flags"
fi

# The OpenSSL provider module, where configure built it (make check sets
# modulesdir then): in modulesdir without its .la, exporting only
# OSSL_provider_init; its page lint-clean; the configuration snippet in
# sysconfdir naming the installed module; no openssl.cnf installed; and the
# installed module, with the installed library, loading into openssl.
if [ -n "${modulesdir:-}" ]; then
	mod=$root$modulesdir/rc4tune.so
	snippet=$root$sysconfdir/rc4tune-openssl.cnf
	test -f "$mod" || bad "missing $mod"
	test -e "$root$modulesdir/rc4tune.la" && bad "rc4tune.la installed in $modulesdir"
	syms=$(nm -D --defined-only "$mod" | awk '{print $3}')
	[ "$syms" = OSSL_provider_init ] || bad "rc4tune.so exports: $syms"
	grep -qx "module = $modulesdir/rc4tune.so" "$snippet" ||
		bad "$snippet does not load $modulesdir/rc4tune.so"
	grep -qx 'default_properties = ?provider=rc4tune' "$snippet" ||
		bad "$snippet does not prefer rc4tune"
	find "$root" -name openssl.cnf | grep . && bad "make install installed an openssl.cnf"
	p=$(find "$root" -name rc4tune-provider.7 -type f)
	if [ -z "$p" ]; then bad "no man page rc4tune-provider.7"; else
		lint=$(groff -man -ww -z "$p" 2>&1)
		[ -z "$lint" ] || bad "rc4tune-provider.7 is not lint-clean: $lint"
		unbroken "$p" | grep -q "$modulesdir/rc4tune.so" || bad "rc4tune-provider.7 does not name $modulesdir/rc4tune.so"
		unbroken "$p" | grep -q "$sysconfdir/rc4tune-openssl.cnf" || bad "rc4tune-provider.7 does not name $sysconfdir/rc4tune-openssl.cnf"
		! grep -q '@[a-zA-Z_]*@' "$p" || bad "rc4tune-provider.7 has an unsubstituted @...@"
	fi
	# (not in a cross build: the host's openssl, the target's module)
	elf() { od -An -tx1 -j4 -N1 "$1"; od -An -tx1 -j18 -N2 "$1"; }
	if command -v openssl >/dev/null &&
	   [ "$(elf "$(command -v openssl)")" = "$(elf "$mod")" ]; then
		# a sanitized module needs the ASan runtime first in openssl
		pre=
		case "${SANITIZER_FLAGS:-}" in *address*) pre=$(${CC%% *} -print-file-name=libasan.so) ;; esac
		out=$(env ${pre:+LD_PRELOAD=$pre ASAN_OPTIONS=detect_leaks=0} \
			LD_LIBRARY_PATH="$root$libdir" OPENSSL_CONF=/dev/null RC4TUNE_CONF="$conf" \
			openssl list -providers -verbose -provider-path "$root$modulesdir" \
			-provider rc4tune 2>&1)
		echo "$out" | grep -q 'build info: rc4tune .*, kernel ' ||
			bad "the installed rc4tune.so does not load: $out"
	fi
fi

# Reinstalling keeps a config a sysadmin edited; uninstall keeps it too.
echo '; edited by the sysadmin' >>"$conf"
cp "$conf" "$tmp/edited"
if [ -n "${modulesdir:-}" ]; then
	cp "$snippet" "$tmp/snippet"
	echo '# edited by the sysadmin' >>"$snippet"
	cp "$snippet" "$tmp/snippet-edited"
fi
"$MAKE" -s -C "$top_builddir" install DESTDIR="$root" >/dev/null 2>&1 || bad "second make install"
cmp -s "$conf" "$tmp/edited" || bad "reinstall overwrote the edited $conf"
if [ -n "${modulesdir:-}" ]; then
	cmp -s "$snippet" "$tmp/snippet-edited" || bad "reinstall overwrote the edited $snippet"
	cp "$tmp/snippet" "$snippet" # as installed: uninstall removes it
fi
"$MAKE" -s -C "$top_builddir" uninstall DESTDIR="$root" >/dev/null 2>&1 || bad "make uninstall"
cmp -s "$conf" "$tmp/edited" || bad "uninstall removed the edited $conf"
if [ -n "${modulesdir:-}" ]; then
	test -e "$snippet" && bad "uninstall left the unmodified $snippet"
	test -e "$mod" && bad "uninstall left $mod"
fi

# A symlink at the config path is a config, even when it dangles (a fleet
# file not there yet): install neither replaces it nor writes through it,
# and uninstall keeps it even when it leads to a copy of the sample.
rm -f "$conf"
ln -s ../fleet/shared.conf "$conf"
"$MAKE" -s -C "$top_builddir" install DESTDIR="$root" >/dev/null 2>&1 || bad "install over a dangling symlink"
[ -h "$conf" ] && [ "$(readlink "$conf")" = ../fleet/shared.conf ] &&
	[ ! -e "$conf" ] || bad "install replaced or filled the dangling symlink $conf"
cp "${RC4TUNE_TEST_DATA:?}/../etc/rc4tune.conf" "$tmp/sample-copy.conf"
ln -sf "$tmp/sample-copy.conf" "$conf"
"$MAKE" -s -C "$top_builddir" uninstall DESTDIR="$root" >/dev/null 2>&1 || bad "uninstall with a symlink"
[ -h "$conf" ] && [ -f "$tmp/sample-copy.conf" ] || bad "uninstall removed the symlink $conf"
exit $fail
