#!/bin/sh
# SPDX-License-Identifier: MIT
# test_postrm.sh - debian/rc4tune.postrm as dpkg runs it (rc4tune(1),
# PACKAGING): purge under a DPKG_ROOT (dpkg --root DIR
# --force-script-chrootless) removes the config, its temporary and lock
# files there and never the host's; a directory named /etc/rc4tune.conf is
# left, said, and the purge succeeds; remove keeps the config.  rm is a
# stand-in on PATH that removes only inside the scratch directory and logs
# the rest, so that a postrm that reaches for the host's /etc changes
# nothing here.
#
# Environment (make check sets it): RC4TUNE_TEST_DATA, the tests/ source
# directory.
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE_TEST_DATA:?set RC4TUNE_TEST_DATA to the tests/ source directory}"
postrm=$RC4TUNE_TEST_DATA/../debian/rc4tune.postrm
[ -f "$postrm" ] || skip "no $postrm"
realrm=$(command -v rm)

mkdir "$tmp/bin"
cat >"$tmp/bin/rm" <<STUB
#!/bin/sh
rc=0
for a; do
	case \$a in
	-*) ;;
	$tmp/*) "$realrm" -f -- "\$a" || rc=1 ;;
	*) echo "\$a" >>"$tmp/outside" ;;
	esac
done
exit \$rc
STUB
chmod 755 "$tmp/bin/rm"

# postrm ROOT ARG: the script under DPKG_ROOT=ROOT; $rc, $tmp/said.
postrm() {
	DPKG_ROOT=$1 PATH=$tmp/bin:$PATH sh "$postrm" "$2" >"$tmp/said" 2>&1
	rc=$?
}

root=$tmp/root
mkdir -p "$root/etc"
for f in rc4tune.conf .rc4tune.conf.Ab12Cd .rc4tune.conf.lock; do
	echo x >"$root/etc/$f"
done
postrm "$root" remove
[ $rc -eq 0 ] && [ -f "$root/etc/rc4tune.conf" ] &&
	ok "remove under DPKG_ROOT: exit 0, the config kept" ||
	{ fail "remove: exit $rc"; cat "$tmp/said"; }
postrm "$root" purge
if [ $rc -eq 0 ] && [ -z "$(ls -A "$root/etc")" ] && [ ! -e "$tmp/outside" ]; then
	ok "purge under DPKG_ROOT: exit 0, its /etc emptied, nothing outside it touched"
else
	fail "purge under DPKG_ROOT: exit $rc; left: $(ls -A "$root/etc" | tr '\n' ' ');" \
		"removed outside it: $(cat "$tmp/outside" 2>/dev/null | tr '\n' ' ')"
	cat "$tmp/said"
fi

root=$tmp/root2
mkdir -p "$root/etc/rc4tune.conf"
echo kept >"$root/etc/rc4tune.conf/a-file"
postrm "$root" purge
[ $rc -eq 0 ] && [ -f "$root/etc/rc4tune.conf/a-file" ] &&
	grep -q "^rc4tune: $root/etc/rc4tune.conf is a directory, not the tuner's file: left as it is\$" "$tmp/said" &&
	ok "purge with a directory named rc4tune.conf: exit 0, left, $(cat "$tmp/said")" ||
	{ fail "purge with a directory: exit $rc"; cat "$tmp/said"; }
finish
