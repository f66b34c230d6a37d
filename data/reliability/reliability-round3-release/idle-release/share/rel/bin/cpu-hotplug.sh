#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Description: CPU hotplug: during polled I/O with crc32c verify (pvsync2
# hipri=1, two jobs, so waiters on both CPUs), CPU1 goes offline and online
# again, repeatedly. CPU1 is a waiter's CPU; CPU0 cannot be offlined on
# x86. The case first resets the controller to a poll queue per CPU, so
# that offlining CPU1 waits (holding the hotplug lock) for the requests of
# the poll queue CPU1 alone uses: with the one shared queue of
# nvme.poll_queues=1 it waited for none, and idle v7's deadlock with a
# polled waiter went unseen (docs/reliability-findings.md, section 5).
# fio must finish with no error and no mismatch, every offline/online must
# succeed, and nothing stays in flight; the poll queues are put back.
. "$REL_DIR/lib.sh"
wait_dev || finish
cpu=/sys/devices/system/cpu/cpu1
[ -f "$cpu/online" ] || skip_case "no $cpu/online: the guest kernel lacks CONFIG_HOTPLUG_CPU (configs/guest.config) or has one CPU"
if [ "$REL_MODE" = full ]; then cycles=20 size=256m; else cycles=3 size=8m; fi
pq0=$(cat /sys/module/nvme/parameters/poll_queues)
set_poll_queues 2 || { bad "reset to 2 poll queues failed"; finish; }
for f in /sys/block/$DISK/mq/*/cpu_list; do
	say "$(dirname "$f" | sed 's|.*/mq/|hctx |'): cpus $(cat "$f")"
done >"$REL_OUT/cpu-map.txt"
name=verify-during-hotplug
# shellcheck disable=SC2086
fio_loop_start $name --filename=$DEV --direct=1 $POLLED --rw=randwrite \
	--bsrange=4k-64k --iodepth=1 --numjobs=2 --size=$size --offset_increment=$size \
	--verify=crc32c --verify_fatal=1 --do_verify=1
sleep 1
done_cycles=0
for i in $(seq $cycles); do
	if ! echo 0 >"$cpu/online"; then
		bad "cycle $i: offlining cpu1 failed"
		break
	fi
	sleep 0.5
	if ! echo 1 >"$cpu/online"; then
		bad "cycle $i: onlining cpu1 failed"
		break
	fi
	done_cycles=$i
	count hotplug_cycles "$done_cycles"
	sleep 0.5
done
[ "$(cat "$cpu/online")" = 1 ] || echo 1 >"$cpu/online"
fio_loop_stop $name 300
count ios_verified "$LOOP_IOS"
count fio_runs "$LOOP_RUNS"
if [ "$LOOP_FAILED" != 0 ] || [ "$LOOP_ERRORS" != 0 ] || [ "$LOOP_MISMATCH" != 0 ]; then
	bad "$LOOP_FAILED of $LOOP_RUNS fio runs failed (errors $LOOP_ERRORS, verify failures $LOOP_MISMATCH); see $name-*.log"
else
	say "ok - $done_cycles offline/online cycles of cpu1 during $LOOP_RUNS fio runs: $LOOP_IOS polled I/Os written and verified"
fi
[ "$done_cycles" = "$cycles" ] || bad "only $done_cycles of $cycles hotplug cycles done"
drained $name
grep -q ' 1$' "$REL_OUT/cpu-map.txt" || bad "no hardware queue served CPU1 alone: $(tr '\n' ';' <"$REL_OUT/cpu-map.txt")"
set_poll_queues "$pq0" || bad "reset back to $pq0 poll queues failed"
finish
