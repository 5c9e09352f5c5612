#!/bin/sh
# SPDX-License-Identifier: MIT
# test_provider.sh - the provider module rc4tune.so as the openssl command,
# an unmodified EVP program and Python's cryptography see it
# (rc4tune-provider(7), ALGORITHMS, CONFIGURATION, WHAT IT REACHES):
#  - `openssl enc -rc4` and `-rc4-40` through -provider-path/-provider
#    rc4tune give the legacy provider's bytes, for random keys and data of
#    0 bytes to 1 MiB, both ways;
#  - `openssl list` shows the algorithms and the kernel;
#  - the configuration snippet alone (OPENSSL_CONF, or .include'd at the end
#    of a copy of the system's openssl.cnf) switches evp_rc4, a program that
#    only calls EVP_rc4(), to rc4tune, also with the legacy provider loaded;
#  - so does it for Python's cryptography (ARC4) and for Node.js (through
#    nodejs_conf), where installed.
# The snippet is used as built, but for its module line, which names the
# installed module: here it names the one in the build tree.  Pieces that
# are missing (the legacy module, python3's cryptography, node) are skipped,
# saying why.
#
# Environment (make check sets it): RC4TUNE_PROVIDER_DIR, RC4TUNE_SNIPPET,
# EVP_RC4; CC and SANITIZER_FLAGS (a sanitized module needs the ASan runtime
# preloaded into programs that were not built with it).
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE_PROVIDER_DIR:?}" "${RC4TUNE_SNIPPET:?}" "${EVP_RC4:?}"
command -v openssl >/dev/null || skip "no openssl command (Debian: openssl)"
# A cross build (.ci/cross, or gcc -m32): the host's openssl cannot load a
# module built for another machine (ELF class and machine differ).
elf() { od -An -tx1 -j4 -N1 "$1"; od -An -tx1 -j18 -N2 "$1"; }
[ "$(elf "$(command -v openssl)")" = "$(elf "$RC4TUNE_PROVIDER_DIR/rc4tune.so")" ] ||
	skip "the module is built for another machine than this openssl command (a cross build)"
[ -f "$RC4TUNE_PROVIDER_DIR/rc4tune.so" ] || skip "no $RC4TUNE_PROVIDER_DIR/rc4tune.so"

# --- nothing from libcrypto at run time -------------------------------------
# A program with its own static OpenSSL (NodeSource's node, Python wheels)
# loads the module: a libcrypto it needed would be a second one in the process.
so=$RC4TUNE_PROVIDER_DIR/rc4tune.so
if ! command -v readelf >/dev/null; then
	echo "SKIP: no readelf (Debian: binutils) to list the module's imports"
elif readelf -d "$so" | grep -q 'NEEDED.*libcrypto' ||
     readelf --dyn-syms -W "$so" | awk '$7 == "UND"' | grep -E ' (OSSL|OPENSSL|CRYPTO|ERR|EVP)_'; then
	fail "rc4tune.so needs libcrypto:"; readelf -d "$so" | grep NEEDED
else
	ok "rc4tune.so needs nothing from libcrypto: $(readelf -d "$so" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
fi

# a part that cannot run here: said in the log, the rest still runs
note_skip() { echo "SKIP: $*"; }
unset OPENSSL_MODULES RC4TUNE_DEBUG RC4TUNE_KERNEL
# No system configuration unless a test says so.
OPENSSL_CONF=/dev/null
export OPENSSL_CONF

# A sanitized build: openssl and python3 are not, so the module's ASan
# runtime must be loaded first; their own leaks at exit are not ours.
run() { "$@"; }
case "${SANITIZER_FLAGS:-}" in
*address*)
	asan=$(${CC:-cc} -print-file-name=libasan.so)
	[ -f "$asan" ] || skip "sanitized build, but no libasan.so to preload"
	run() {
		LD_PRELOAD=$asan ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0 "$@"
	}
	;;
esac

rc4tune="-provider-path $RC4TUNE_PROVIDER_DIR -provider rc4tune"
modules=$(openssl version -m | sed -n 's/^MODULESDIR: "\(.*\)"$/\1/p')
legacy=yes
if [ ! -f "$modules/legacy.so" ]; then
	legacy="no $modules/legacy.so"
elif ! openssl list -providers -provider legacy >/dev/null 2>&1; then
	legacy="$modules/legacy.so does not load"
fi

# hex N: N random bytes in hex
hex() { od -An -tx1 -N "$1" /dev/urandom | tr -d ' \n'; }

# --- openssl enc: rc4tune equals legacy ------------------------------------
# shellcheck disable=SC2086
if [ "$legacy" != yes ]; then
	note_skip "openssl enc against the legacy provider: $legacy"
else
	n=0
	for size in 0 1 15 16 17 255 256 4095 65536 100003 \
		$(od -An -tu4 -N 8 /dev/urandom | awk '{ print $1 % 1048577, $2 % 70000 }') \
		1048576; do
		head -c "$size" /dev/urandom >"$tmp/in"
		for alg in rc4 rc4-40; do
			[ $alg = rc4 ] && key=$(hex 16) || key=$(hex 5)
			openssl enc -$alg -K "$key" -in "$tmp/in" -out "$tmp/legacy" \
				-provider legacy 2>"$tmp/err" ||
				{ fail "legacy $alg $size"; cat "$tmp/err"; continue; }
			run openssl enc -$alg -K "$key" -in "$tmp/in" -out "$tmp/ours" \
				$rc4tune 2>"$tmp/err" ||
				{ fail "rc4tune $alg $size"; cat "$tmp/err"; continue; }
			if ! cmp -s "$tmp/legacy" "$tmp/ours"; then
				fail "enc -$alg, $size bytes, key $key: rc4tune differs from legacy"
				continue
			fi
			# and back: rc4tune decrypts what legacy encrypted
			if ! run openssl enc -d -$alg -K "$key" -in "$tmp/legacy" \
				-out "$tmp/back" $rc4tune 2>"$tmp/err" ||
				! cmp -s "$tmp/in" "$tmp/back"; then
				fail "enc -d -$alg, $size bytes"; cat "$tmp/err"; continue
			fi
			n=$((n + 1))
		done
	done
	ok "openssl enc -rc4 and -rc4-40 (0 bytes to 1 MiB, random keys): $n runs equal legacy, both ways"
fi

# --- openssl list --------------------------------------------------------
# shellcheck disable=SC2086
run openssl list -cipher-algorithms -verbose $rc4tune >"$tmp/out" 2>&1
if grep -q '{ 1.2.840.113549.3.4, RC4 } @ rc4tune' "$tmp/out" &&
	grep -q 'RC4-40 @ rc4tune' "$tmp/out" &&
	grep -q 'settable operation parameters' "$tmp/out"; then
	ok "openssl list -cipher-algorithms: RC4 (with its OID) and RC4-40 @ rc4tune"
else
	fail "openssl list -cipher-algorithms:"; cat "$tmp/out"
fi
# shellcheck disable=SC2086
run env RC4TUNE_KERNEL=char-ref openssl list -providers -verbose $rc4tune \
	>"$tmp/out" 2>&1
if grep -q 'build info: rc4tune .*, kernel char-ref$' "$tmp/out" &&
	grep -q 'rc4tune-kernel:' "$tmp/out"; then
	ok "openssl list -providers -verbose names the kernel (RC4TUNE_KERNEL=char-ref)"
else
	fail "openssl list -providers -verbose does not name the kernel:"; cat "$tmp/out"
fi

# --- the configuration snippet --------------------------------------------
# As installed, but loading the module of the build tree.
grep -q '^module = .*/rc4tune\.so$' "$RC4TUNE_SNIPPET" ||
	fail "$RC4TUNE_SNIPPET has no module line"
sed "s|^module = .*|module = $RC4TUNE_PROVIDER_DIR/rc4tune.so|" \
	"$RC4TUNE_SNIPPET" >"$tmp/snippet.cnf"
key=$(hex 16)
head -c 100000 /dev/urandom >"$tmp/in"
# the reference: RC4 by the legacy provider, else rc4tune's own
# shellcheck disable=SC2086
if [ "$legacy" = yes ]; then
	openssl enc -rc4 -K "$key" -in "$tmp/in" -out "$tmp/want" -provider legacy
else
	run openssl enc -rc4 -K "$key" -in "$tmp/in" -out "$tmp/want" $rc4tune
fi

# evp CONF WANT-PROVIDER WHAT: evp_rc4 under OPENSSL_CONF=CONF says that it
# used WANT-PROVIDER and prints the right bytes (evp_rc4 is built like the
# module, sanitized or not: no preload).
evp() {
	OPENSSL_CONF=$1 RC4TUNE_DEBUG=1 "$EVP_RC4" "$key" <"$tmp/in" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ] || ! grep -qx "provider: $2" "$tmp/err"; then
		fail "$3: exit $rc, not 'provider: $2':"; cat "$tmp/err"
	elif ! cmp -s "$tmp/out" "$tmp/want"; then
		fail "$3: wrong bytes"
	elif [ "$2" = rc4tune ] && ! grep -q '^librc4tune: chosen: ' "$tmp/err"; then
		fail "$3: no librc4tune trail with RC4TUNE_DEBUG=1:"; cat "$tmp/err"
	else
		ok "$3: provider $2$(sed -n 's/^librc4tune: chosen: / (kernel /p' "$tmp/err" | sed 's/$/)/')"
	fi
}
# Without the snippet, the program gets no RC4 at all (default provider
# only), or the legacy provider's when a configuration loads that.
OPENSSL_CONF=/dev/null "$EVP_RC4" "$key" <"$tmp/in" >/dev/null 2>"$tmp/err" &&
	fail "evp_rc4 found RC4 without any configuration:" && cat "$tmp/err"
if [ "$legacy" = yes ]; then
	cat >"$tmp/legacy.cnf" <<EOF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
[provider_sect]
default = default_sect
legacy = legacy_sect
[default_sect]
activate = 1
[legacy_sect]
activate = 1
EOF
	evp "$tmp/legacy.cnf" legacy "evp_rc4 with a configuration that loads legacy"
fi
evp "$tmp/snippet.cnf" rc4tune "evp_rc4 with OPENSSL_CONF=snippet"

# .include'd at the end of (a copy of) the system's openssl.cnf, and with
# legacy loaded as well: the snippet's "?provider=rc4tune" wins.
sys=$(openssl version -d | sed -n 's/^OPENSSLDIR: "\(.*\)"$/\1/p')/openssl.cnf
if [ -f "$sys" ]; then
	cp "$sys" "$tmp/system.cnf"
	echo ".include $tmp/snippet.cnf" >>"$tmp/system.cnf"
	evp "$tmp/system.cnf" rc4tune "evp_rc4 with $sys + .include snippet"
	run env OPENSSL_CONF="$tmp/system.cnf" openssl list -providers >"$tmp/out" 2>&1
	if grep -qx '  default' "$tmp/out" && grep -qx '  rc4tune' "$tmp/out"; then
		ok "with the .include, default and rc4tune are active"
	else
		fail "with the .include, providers are:"; cat "$tmp/out"
	fi
	if [ "$legacy" = yes ]; then
		{ cat "$tmp/system.cnf"; cat <<EOF
[provider_sect]
legacy = legacy_sect
[legacy_sect]
activate = 1
EOF
		} >"$tmp/both.cnf"
		evp "$tmp/both.cnf" rc4tune "evp_rc4 with legacy loaded too"
	fi
else
	note_skip "no system openssl.cnf at $sys to .include the snippet into"
fi

# by_rc4tune WHAT CONF PROGRAM...: PROGRAM, with OPENSSL_CONF=CONF, turns
# $tmp/in into $tmp/want, and the library's trail shows rc4tune did it.
by_rc4tune() {
	what=$1 conf=$2
	shift 2
	run env OPENSSL_CONF="$conf" RC4TUNE_DEBUG=1 "$@" \
		<"$tmp/in" >"$tmp/out" 2>"$tmp/err"
	if ! cmp -s "$tmp/out" "$tmp/want"; then
		fail "$what, OPENSSL_CONF=${conf##*/}: wrong bytes"; cat "$tmp/err"
	elif ! grep -q '^librc4tune: chosen: ' "$tmp/err"; then
		fail "$what, OPENSSL_CONF=${conf##*/}: rc4tune not used (no librc4tune trail)"
		cat "$tmp/err"
	else
		ok "$what by rc4tune with OPENSSL_CONF=${conf##*/}"
	fi
}

# --- Python's cryptography (it loads legacy itself) ------------------------
cat >"$tmp/arc4.py" <<'EOF'
import sys, warnings
warnings.simplefilter("ignore")
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
enc = Cipher(algorithms.ARC4(bytes.fromhex(sys.argv[1])), mode=None).encryptor()
sys.stdout.buffer.write(enc.update(sys.stdin.buffer.read()) + enc.finalize())
EOF
# Debian's python3-cryptography (/usr/bin/python3, the system libcrypto)
# and whatever python3 is first on PATH, if that is another.
pythons=
for py in /usr/bin/python3 "$(command -v python3)"; do
	[ -x "$py" ] || continue
	case " $pythons " in *" $py "*) continue ;; esac
	pythons="$pythons $py"
	ver=$("$py" -c 'import cryptography; from cryptography.hazmat.backends.openssl.backend import backend; print(cryptography.__version__, "with", backend.openssl_version_text())' 2>/dev/null) ||
		{ note_skip "$py has no cryptography module (Debian: python3-cryptography)"; continue; }
	by_rc4tune "$py cryptography $ver: ARC4" "$tmp/snippet.cnf" \
		"$py" "$tmp/arc4.py" "$key"
done

# --- Node.js: it reads nodejs_conf, not openssl_conf ------------------------
# The snippet alone and .include'd; node may carry its own static OpenSSL
# (NodeSource's), which loads the module without a second libcrypto.
cat >"$tmp/rc4.js" <<'EOF'
const fs = require('fs');
const c = require('crypto').createCipheriv('rc4', Buffer.from(process.argv[2], 'hex'), null);
process.stdout.write(Buffer.concat([c.update(fs.readFileSync(0)), c.final()]));
EOF
if ! command -v node >/dev/null; then
	note_skip "no node (Debian: nodejs)"
else
	nodever="node $(node --version) with OpenSSL $(node -p process.versions.openssl 2>/dev/null)"
	for conf in snippet system; do
		[ -f "$tmp/$conf.cnf" ] || continue
		by_rc4tune "$nodever: RC4" "$tmp/$conf.cnf" node "$tmp/rc4.js" "$key"
	done
fi

finish
