#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: the idle variant's idle-loop hook costs nothing when no
# polled I/O is outstanding: kprobe hit counts show that __blk_idle_poll()
# (the out-of-line part behind the static key) is never entered while the
# idle loop runs (schedule_idle() hits) through an idle pause and
# interrupt-driven psync I/O, is entered during polled pvsync2 hipri I/O
# (the key is switched on), and is never entered again after the last
# polled wait (the key is switched off within 3 s).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
v=idle
variants=$(built_variants)
grep -qx $v <<<"$variants" || skip "idle is not among the variants under test (${variants//$'\n'/ })"
[ -f "$(variant_obj $v)/arch/x86/boot/bzImage" ] || fail "$v is not built"

guest_job $v <<'EOT' || fail "$v: boot failed: $(cat "$TEST_DIR/boot/status")"
/pb/kprobes.sh __blk_idle_poll schedule_idle >/share/kprobes-0.txt || exit 1
grep -q pb___blk_idle_poll /share/kprobes-0.txt || exit 1
export PB_DEV=/dev/nvme0n1 PB_RUNTIME=3 PB_RAMP=0
p=/sys/kernel/tracing/kprobe_profile
# phase "unused": an idle pause, then interrupt-driven I/O.
cat $p >/share/kprobes-unused-before.txt
sleep 3
taskset -c 1 fio --output-format=json --output=/share/psync-1.json /share/workloads/randread-4k-qd1-psync.fio || exit 1
cat $p >/share/kprobes-unused-after.txt
# phase "polled": polled synchronous I/O.
taskset -c 1 fio --output-format=json --output=/share/hipri.json /share/workloads/randread-4k-qd1-pvsync2-hipri.fio || exit 1
cat $p >/share/kprobes-polled-after.txt
# phase "after": the key goes off once no polled wait started for 1 s.
sleep 3
cat $p >/share/kprobes-after-before.txt
sleep 3
taskset -c 1 fio --output-format=json --output=/share/psync-2.json /share/workloads/randread-4k-qd1-psync.fio || exit 1
cat $p >/share/kprobes-after-after.txt
EOT
out=$(guest_out)
hits() { kprobe_hits "$out/kprobes-$1.txt" "$2"; }
delta() { echo $(($(hits "$2" "$3") - $(hits "$1" "$3"))); }
[ "$(hits unused-before __blk_idle_poll)" -ge 0 ] || fail "no kprobe on __blk_idle_poll"
[ "$(hits unused-before schedule_idle)" -ge 0 ] || fail "no kprobe on schedule_idle"

idle1=$(delta unused-before unused-after schedule_idle)
hook1=$(delta unused-before unused-after __blk_idle_poll)
ios1=$(fio_ios "$out/psync-1.json")
echo "unused: idle pause 3 s + $ios1 psync I/Os: idle loop exits (schedule_idle) $idle1, hook entries $hook1"
[ "$ios1" -gt 100 ] || fail "only $ios1 psync I/Os"
# Each schedule_idle() ends one pass of do_idle(), whose loop starts with
# the hook (an I/O that completes before fio sleeps needs no pass).
[ "$idle1" -gt 100 ] || fail "the idle loop ran only $idle1 times"
[ "$hook1" = 0 ] || fail "__blk_idle_poll entered $hook1 times with no polled I/O outstanding"

hook2=$(delta unused-after polled-after __blk_idle_poll)
ios2=$(fio_ios "$out/hipri.json")
echo "polled: $ios2 pvsync2 hipri I/Os: hook entries $hook2"
[ "$ios2" -gt 100 ] || fail "only $ios2 polled I/Os"
[ "$hook2" -gt 0 ] || fail "__blk_idle_poll never entered during polled I/O: the key never went on"

idle3=$(delta after-before after-after schedule_idle)
hook3=$(delta after-before after-after __blk_idle_poll)
ios3=$(fio_ios "$out/psync-2.json")
echo "after: 3 s later, idle pause 3 s + $ios3 psync I/Os: idle loop exits $idle3, hook entries $hook3"
[ "$idle3" -gt 100 ] || fail "the idle loop ran only $idle3 times"
[ "$hook3" = 0 ] || fail "__blk_idle_poll entered $hook3 times after the last polled wait: the key stayed on"
echo "ok - hook entered only while polled I/O ran ($hook2 times), never with none outstanding"
