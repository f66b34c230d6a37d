#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: a polled waiter on the idle kernel never blocks on the CPU
# hotplug lock with its request in flight. With CONFIG_JUMP_LABEL (every
# distribution's config), static_key_slow_inc() takes cpus_read_lock() on
# every call. Idle v7 took the idle loop's key that way in every polled
# wait, after submitting: a CPU going offline then deadlocked with it,
# _cpu_down() holding the hotplug lock for write while
# blk_mq_hctx_notify_offline() waits for the request on the poll queue
# whose last CPU leaves, and the waiter, blocked on the lock, never polls
# it. The guest has a poll queue per CPU (nvme.poll_queues=2), offlines and
# onlines CPU1 without pause, and meanwhile reads with preadv2(RWF_HIPRI)
# on CPU1 (guest/tools/hipri-read, restarted on CPU1 whenever the hotplug
# moved it away). A hang panics the guest (hung_task_panic, 20 s); the
# test passes when the reads ran their time.
# Timeout: 600
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
v=idle
variants=$(built_variants)
grep -qx $v <<<"$variants" || skip "idle is not among the variants under test (${variants//$'\n'/ })"
[ -f "$(variant_obj $v)/arch/x86/boot/bzImage" ] || fail "$v is not built"
grep -qx 'CONFIG_JUMP_LABEL=y' "$(variant_obj $v)/.config" ||
	fail "$v is built without CONFIG_JUMP_LABEL: the static key takes no lock and the test proves nothing"
secs=${PB_HOTPLUG_SECONDS:-60}

GUEST_TIMEOUT=500 guest_job $v --append "nvme.poll_queues=2" <<EOT || fail "$v: boot failed: $(cat "$TEST_DIR/boot/status")"
cpu=/sys/devices/system/cpu/cpu1
echo 20 >/proc/sys/kernel/hung_task_timeout_secs
echo 1 >/proc/sys/kernel/hung_task_panic
for f in /sys/block/nvme0n1/mq/*; do echo "\${f##*/} \$(cat \$f/cpu_list)"; done >/share/cpu-map.txt
# One hctx must serve CPU1 alone, or offlining CPU1 drains nothing.
grep -qx '[a-z0-9]* 1' /share/cpu-map.txt || exit 3
(
	n=0
	while [ ! -f /tmp/stop ]; do
		echo 0 >\$cpu/online && echo 1 >\$cpu/online && n=\$((n + 1))
	done
	echo \$n >/share/cycles
) &
runs=0 t=0
# Only reads that CPU1 submits go to the poll queue that drains.
# Short runs: the hotplug moves a reader to CPU0, and a new one starts on CPU1.
while [ \$t -lt $((secs * 5)) ]; do
	taskset -c 1 hipri-read /dev/nvme0n1 0.2 >>/share/reads.txt 2>/dev/null && runs=\$((runs + 1))
	t=\$((t + 1))
done
echo \$runs >/share/runs
touch /tmp/stop
wait
cat /sys/kernel/debug/block/nvme0n1/hctx*/poll_stats >/share/poll-stats.txt 2>/dev/null || true
EOT
out=$(guest_out)
runs=$(cat "$out/runs")
reads=$(awk '$1 == "reads" { s += $2 } END { print s + 0 }' "$out/reads.txt")
cycles=$(cat "$out/cycles")
echo "$reads polled reads in $runs 0.2-second runs started on CPU1 during $cycles offline/online cycles of CPU1; hctx cpus: $(tr '\n' ';' <"$out/cpu-map.txt")"
[ "$runs" -ge 10 ] || fail "only $runs of $((secs * 5)) reader runs started on CPU1 (taskset fails while CPU1 is offline)"
[ "$cycles" -ge 100 ] || fail "only $cycles hotplug cycles: the race was hardly exercised (v7 hung within 153)"
echo "ok - no deadlock between polled waits and CPU hotplug"
