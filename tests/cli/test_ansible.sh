#!/bin/sh
# SPDX-License-Identifier: MIT
# test_ansible.sh - the example playbook (doc/examples/ansible/rc4tune.yml)
# of rc4tune(1), FLEETS, run by ansible-playbook against an inventory of
# local hosts, each with its own config and fixture section (sealed by
# tests/helpers/seal.py): a host already tuned is left alone, the others are tuned,
# each installs the local fact and reports through it, every file is fetched
# and merged into the fleet file.  Everything stays in the scratch
# directory: HOME and Ansible's paths point there.
#
# Environment (make check sets it): RC4TUNE, the rc4tune binary;
# RC4TUNE_SEAM, tests/helpers/rc4tune_seam; RC4TUNE_TEST_DATA, the source
# tree's tests/.
set -u
. "$(dirname "$0")/lib.sh"
: "${RC4TUNE:?set RC4TUNE to the rc4tune binary}"
: "${RC4TUNE_SEAM:?set RC4TUNE_SEAM to tests/helpers/rc4tune_seam}"
: "${RC4TUNE_TEST_DATA:?set RC4TUNE_TEST_DATA to the source tests/}"
command -v ansible-playbook >/dev/null ||
	skip "no ansible-playbook (Debian's ansible-core) to run the playbook"
command -v python3 >/dev/null || skip "no python3 for seal.py"
live_section "$RC4TUNE"
book=$RC4TUNE_TEST_DATA/../doc/examples/ansible/rc4tune.yml

# Ansible's own files (config, temporary files, caches) in $tmp alone.
mkdir "$tmp/home" "$tmp/bin" || exit 99
: >"$tmp/ansible.cfg"
HOME=$tmp/home ANSIBLE_CONFIG=$tmp/ansible.cfg ANSIBLE_HOME=$tmp/ansible
ANSIBLE_LOCAL_TEMP=$tmp/ansible/tmp ANSIBLE_REMOTE_TEMP=$tmp/ansible/remote
ANSIBLE_NOCOLOR=1
ANSIBLE_SSH_CONTROL_PATH_DIR=$tmp/ansible/cp
ANSIBLE_PERSISTENT_CONTROL_PATH_DIR=$tmp/ansible/pc
# Ansible refuses to run without a UTF-8 locale ("Detected None" under
# LC_ALL=C, as .ci/cross runs and CI may); C.UTF-8 is in every Debian libc.
LC_ALL=C.UTF-8
export HOME ANSIBLE_CONFIG ANSIBLE_HOME ANSIBLE_LOCAL_TEMP ANSIBLE_REMOTE_TEMP \
	ANSIBLE_NOCOLOR ANSIBLE_SSH_CONTROL_PATH_DIR \
	ANSIBLE_PERSISTENT_CONTROL_PATH_DIR LC_ALL
# The playbook and the fact run `rc4tune`, as on a host with the package:
# here the build's on the measuring seam, refusing to write anywhere but
# $tmp (a playbook variable that did not reach a task would write /etc).
# The seam's steady rates make every tuning confident, as on an idle host:
# a run on the real clock, three hosts at once beside make check, may be
# uncertain, and the second run would then tune again and change the
# fleet file (a confident section over an uncertain one).
cat >"$tmp/bin/rc4tune" <<EOF || exit 99
#!/bin/sh
RC4TUNE_SEAM_RATES='int-4x=100,100,100 char-4x=90,90,90'
export RC4TUNE_SEAM_RATES
case " \$* " in
*" --generate-conf "* | *" --merge "*)
	case " \$* " in
	*" --output $tmp/"*) ;;
	*) echo "test_ansible: refused: no --output in $tmp: \$*" >&2; exit 1 ;;
	esac ;;
esac
exec ${TEST_EMULATOR:-} "$RC4TUNE_SEAM" "\$@"
EOF
chmod 755 "$tmp/bin/rc4tune" || exit 99
PATH=$tmp/bin:$PATH

# fixture FILE SECTION KERNEL: FILE with a confident section the tuner
# wrote, sealed.
fixture() {
	record_fixture "$2" "$3" high - >"$1"
	seal "$1"
}
# Two other CPUs, neither this one.
others=$(printf '%s\n' 'cpu GenuineIntel 6 85' 'cpu arm64-0x41 8 0xd0c' \
	'cpu AuthenticAMD 25 17' | grep -vxF "$live" | head -n 2)
other1=$(echo "$others" | sed -n 1p)
other2=$(echo "$others" | sed -n 2p)

# Three hosts: "tuned" has a confident section for this CPU; "one" and
# "two" only another CPU's.
mkdir "$tmp/tuned" "$tmp/one" "$tmp/two" || exit 99
fixture "$tmp/tuned/rc4tune.conf" "$live" int-4x
fixture "$tmp/one/rc4tune.conf" "$other1" int-8x
fixture "$tmp/two/rc4tune.conf" "$other2" long-1x
for h in tuned one two; do
	cp "$tmp/$h/rc4tune.conf" "$tmp/$h.before"
	echo "$h rc4tune_conf=$tmp/$h/rc4tune.conf rc4tune_fact_dir=$tmp/$h/facts.d"
done >"$tmp/hosts.tail"
{
	echo '[fleet]'
	cat "$tmp/hosts.tail"
	echo '[fleet:vars]'
	echo 'ansible_connection=local'
	echo 'ansible_python_interpreter="{{ ansible_playbook_python }}"'
} >"$tmp/hosts"

# From nothing, under umask 002 (Fedora's and Debian's for users with a
# private group): no fleet directory yet, the playbook makes it.
umask 002
ansible-playbook -i "$tmp/hosts" "$book" -e rc4tune_budget=0.2 \
	-e "rc4tune_fleet_dir=$tmp/fleet/images" >"$tmp/play" 2>&1
rc=$?
cat "$tmp/play"
if [ $rc -eq 0 ] &&
	[ "$(grep -c ' ok=[0-9]* .*unreachable=0 *failed=0 ' "$tmp/play")" -eq 3 ]; then
	ok "the playbook ran on three hosts under umask 002, none failed"
else
	fail "ansible-playbook: exit $rc"; cat "$tmp/play"
fi

for d in "$tmp/fleet" "$tmp/fleet/images" "$tmp/fleet/images/hosts"; do
	[ "$(stat -c %a "$d")" = 755 ] || fail "$d: mode $(stat -c %a "$d"), not 755"
done
# --- each host: tuned or left alone, the fact, the file fetched ---------
cmp -s "$tmp/tuned/rc4tune.conf" "$tmp/tuned.before" &&
	grep -q '^ok: \[tuned\]$' "$tmp/play" &&
	ok "tuned: its confident section left alone, not changed" ||
	{ fail "tuned: changed"; diff "$tmp/tuned.before" "$tmp/tuned/rc4tune.conf"; }
for h in one two; do
	# the other CPU's section kept byte for byte, this CPU's added
	if grep -q "^changed: \[$h\]$" "$tmp/play" &&
		head -c "$(wc -c <"$tmp/$h.before")" "$tmp/$h/rc4tune.conf" |
		cmp -s - "$tmp/$h.before" &&
		grep -qxF "[$live]" "$tmp/$h/rc4tune.conf"; then
		ok "$h: this CPU tuned, the other CPU's section kept"
	else
		fail "$h: not tuned as it should be"; cat "$tmp/$h/rc4tune.conf"
	fi
done
grep -q "\"msg\": \"int-4x from section (tuner, confidence high) for \[$live\]\"" \
	"$tmp/play" && ok "the fact on tuned: its kernel, source, owner, confidence, CPU" ||
	{ fail "tuned's fact not reported"; cat "$tmp/play"; }
for h in tuned one two; do
	[ -x "$tmp/$h/facts.d/rc4tune.fact" ] &&
		cmp -s "$tmp/$h/rc4tune.conf" "$tmp/fleet/images/hosts/$h.conf" ||
		fail "$h: no fact installed or its file not fetched"
done
# --- the fleet file: every CPU's section, as the library reads it ---------
f=$tmp/fleet/images/rc4tune.conf
for sec in "$live" "$other1" "$other2"; do
	grep -qxF "[$sec]" "$f" || fail "no [$sec] in the fleet file"
done
"$RC4TUNE" --check-conf "$f" >"$tmp/out" 2>&1 &&
	RC4TUNE_CONF=$f "$RC4TUNE" --explain | grep -q "^  chosen: .* (config line [0-9]* \[$live\])$" &&
	ok "the fleet file: three CPUs' sections, checked, this CPU's used" ||
	{ fail "fleet file"; cat "$tmp/out" "$f"; }

# --- again (umask 002 still), hosts' files fetched anew: the merge takes
# them (mode 0644), and finds the fleet file as it is: left untouched, the
# task not "changed" --------------------------------------------------------
cp "$f" "$tmp/fleet.before"
before=$(stat -c '%i %Y' "$f")
rm -r "$tmp/fleet/images/hosts"
ansible-playbook -i "$tmp/hosts" "$book" -e rc4tune_budget=0.2 \
	-e "rc4tune_fleet_dir=$tmp/fleet/images" >"$tmp/play2" 2>&1
rc=$?
tune_task=$(sed -n '/^TASK \[Tune this CPU/,/^$/{/^[a-z]*: \[/p;}' "$tmp/play2" |
	sort | tr '\n' ' ')
merge_task=$(sed -n '/^TASK \[Merge every host/{n;p;}' "$tmp/play2")
[ $rc -eq 0 ] && [ "$tune_task" = "ok: [one] ok: [tuned] ok: [two] " ] &&
	ok "again: every host's section confident, none tuned again" ||
	{ fail "the second run's tuning task: $tune_task"; cat "$tmp/play2"; }
if [ $rc -eq 0 ] && [ "$(stat -c '%i %Y' "$f")" = "$before" ] &&
	cmp -s "$f" "$tmp/fleet.before" && [ "$merge_task" = "ok: [tuned -> localhost]" ] &&
	[ "$(stat -c %a "$tmp/fleet/images/hosts/one.conf")" = 644 ]; then
	ok "again: fetched 0644, merged, the fleet file untouched, not changed"
else
	fail "the second run: exit $rc, merge task: $merge_task"; cat "$tmp/play2"
fi
[ -z "$(ls -A "$tmp/home")" ] && ok "nothing written to HOME" ||
	{ fail "written to HOME:"; ls -AR "$tmp/home"; }
finish
