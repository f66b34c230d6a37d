#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Description: (pollbench/002) flush-on-poll-queue: polled O_SYNC direct
# writes (pvsync2 hipri=1, so REQ_FUA) to a null_blk disk with a volatile
# cache and no FUA, whose poll queue completes requests 10 us after they
# are issued. The block layer turns each such write into the write and a
# flush that blk_kick_flush() issues on the same poll queue; the flush is
# not REQ_POLLED, yet only a poll completes it. Every write must complete
# within the variant's bound, not at the block layer's 30 s timeout, and
# nothing may stay in flight.
. "$REL_DIR/lib.sh"
nb=/sys/kernel/config/nullb/nullbflush
[ -d /sys/kernel/config/nullb ] || skip_case "no null_blk configfs in this kernel"
mkdir $nb || { bad "cannot create $nb"; finish; }
# queue_mode 2 is blk-mq, irqmode 2 completes from a timer; memory_backed
# is what cache_size needs.
for kv in queue_mode=2 submit_queues=1 poll_queues=1 irqmode=2 \
	completion_nsec=10000 blocksize=4096 size=256 memory_backed=1 \
	cache_size=64 fua=0 power=1; do
	echo "${kv#*=}" >"$nb/${kv%%=*}" || bad "null_blk: cannot set $kv"
done
# null_blk names the disk after its configfs directory.
disk=nullbflush
dev=/dev/$disk
for _ in $(seq 50); do [ -b "$dev" ] && break; sleep 0.1; done
[ -b "$dev" ] || { bad "$dev did not appear"; finish; }
say "$disk: write cache $(cat /sys/block/$disk/queue/write_cache), fua $(cat /sys/block/$disk/queue/fua)"
[ "$(cat /sys/block/$disk/queue/fua)" = 0 ] || bad "$disk advertises FUA: no flush would be issued"

# Run with busy_irq off on idle, so that the writes are not sent to the
# interrupt for a busy CPU. (Since idle v5 they go there anyway: a
# memory-backed null_blk's poll may sleep, so the idle kernel does not
# submit polled I/O to it; the case then checks that they complete.)
idle_param_set busy_irq 0
name=polled-sync-writes
# shellcheck disable=SC2086
fio_run $name --name=$name --filename=$dev --direct=1 $POLLED --sync=1 \
	--rw=randwrite --bs=4k --size=64m --iodepth=1 --number_ios=300
rc=$?
idle_param_set busy_irq Y
ios=$(fio_ios $name)
count writes "$ios"
if [ $rc != 0 ] || [ "$(fio_errors $name)" != 0 ]; then
	bad "$name: fio exit $rc: $(tail -n 3 "$REL_OUT/$name.log")"
fi
[ "$ios" = 300 ] || bad "$name: $ios of 300 writes completed"
check_bound $name "$(bound_us "$REL_VARIANT" "$REL_FLAVOUR")" "$name ($ios writes, each with a flush)"
# The disk is not the case's $DISK: look at its own in-flight counts.
for _ in $(seq 50); do
	read -r r w <"/sys/block/$disk/inflight"
	[ "$r" = 0 ] && [ "$w" = 0 ] && break
	sleep 0.1
done
[ "$r" = 0 ] && [ "$w" = 0 ] || bad "$disk: still in flight after 5 s: reads $r writes $w"
echo 0 >$nb/power
rmdir $nb
finish
