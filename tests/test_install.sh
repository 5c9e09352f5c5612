#!/bin/sh
# Install into a DESTDIR and use the result as a packager and a program
# would: every file in place, the man pages lint-clean and naming the
# configured paths, a program built with pkg-config printing the right
# keystream, only rc4tune_* exported, an edited config kept on reinstall.
set -u
: "${top_builddir:?}" "${sysconfdir:?}" "${libdir:?}"
MAKE=${MAKE:-make}
CC=${CC:-cc}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
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

for page in rc4tune.1 rc4tune.conf.5 librc4tune.3; do
	p=$(find "$root" -name "$page" -type f)
	if [ -z "$p" ]; then bad "no man page $page"; continue; fi
	lint=$(groff -man -ww -z "$p" 2>&1)
	[ -z "$lint" ] || bad "$page is not lint-clean: $lint"
	grep -q "$sysconfdir/rc4tune.conf" "$p" || bad "$page does not name $sysconfdir/rc4tune.conf"
	! grep -q '@sysconfdir@' "$p" || bad "$page has an unsubstituted @sysconfdir@"
done

# Only the API leaves the shared library.
so=$(ls "$root$libdir"/librc4tune.so.* | head -n 1)
others=$(nm -D --defined-only "$so" | awk '{print $3}' | grep -v '^rc4tune_')
[ -z "$others" ] || bad "exported beyond rc4tune_*: $others"

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

# Reinstalling keeps a config a sysadmin edited; uninstall keeps it too.
echo '; edited by the sysadmin' >>"$conf"
cp "$conf" "$tmp/edited"
"$MAKE" -s -C "$top_builddir" install DESTDIR="$root" >/dev/null 2>&1 || bad "second make install"
cmp -s "$conf" "$tmp/edited" || bad "reinstall overwrote the edited $conf"
"$MAKE" -s -C "$top_builddir" uninstall DESTDIR="$root" >/dev/null 2>&1 || bad "make uninstall"
cmp -s "$conf" "$tmp/edited" || bad "uninstall removed the edited $conf"
exit $fail
