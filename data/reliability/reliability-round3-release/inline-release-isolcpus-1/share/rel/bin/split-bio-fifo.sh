#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Description: (pollbench/001) split-bio-fifo: a polled read larger than the
# queue's max_sectors is split, and the split loses REQ_POLLED: it completes
# by interrupt, so its waiter must sleep, not poll. Booted with threadirqs, a
# SCHED_FIFO 60 reader on CPU1 (above the FIFO 50 interrupt threads) reads
# 1 MiB blocks with pvsync2 hipri=1 (one bio, always split) and 4 MiB blocks
# (several bios, never polled): every read completes within the bound, no
# context polls meanwhile, nothing is left in flight, no NVMe timeout. A
# waiter that spun instead starves the interrupt thread that completes it,
# for ever (v2's hybrid kernel hung so on 4 MiB reads). 4 KiB polled reads in
# the same boot still poll.
# Boot: threadirqs
. "$REL_DIR/lib.sh"
wait_dev || finish
if [ "$REL_MODE" = full ]; then n=400; else n=40; fi
bound=$(bound_us "$REL_VARIANT" "$REL_FLAVOUR")
max_kb=$(cat /sys/block/$DISK/queue/max_sectors_kb)
count max_sectors_kb "$max_kb"
count bound_us "$bound"
[ "$max_kb" -lt 1024 ] || bad "max_sectors_kb is $max_kb: a 1 MiB read would not be split"
# PREEMPT_RT threads every interrupt handler without being asked.
grep -qw threadirqs /proc/cmdline || [ "$REL_FLAVOUR" = rt ] ||
	bad "booted without threadirqs: the interrupt thread this case needs is not there"
t0=$(nvme_timeouts)
for bs in 1m 4m; do
	name=split-$bs
	p0=$(pstat polls)
	timeout -s KILL 300 chrt -f 60 taskset -c 1 fio --name=$name \
		--filename=$DEV --direct=1 $POLLED --rw=randread --bs=$bs \
		--size=2g --number_ios=$n --output-format=json \
		--output="$REL_OUT/$name.json" >"$REL_OUT/$name.log" 2>&1
	rc=$?
	polls=$(pdelta polls "$p0")
	ios=$(fio_ios $name)
	add reads_completed "$ios"
	count polls_$bs "$polls"
	if [ $rc != 0 ] || [ "$ios" != $n ]; then
		bad "$name: $ios of $n SCHED_FIFO reads completed, fio exit $rc (137: killed after 300 s)"
	else
		say "ok - $name: $n SCHED_FIFO reads completed, $polls polls meanwhile"
	fi
	check_bound $name "$bound" "$name"
	[ "$polls" = 0 ] ||
		bad "$name: $polls polls while only interrupt-driven (split or multi-bio) reads were in flight: a waiter polled"
	drained "$name"
done
p0=$(pstat polls)
fio_run small --name=small --filename=$DEV --direct=1 $POLLED \
	--rw=randread --bs=4k --size=2g --number_ios=200 ||
	bad "small: fio exit $?: $(tail -n 3 "$REL_OUT/small.log")"
polls=$(pdelta polls "$p0")
count polls_4k "$polls"
if is_polling && [ "$polls" -lt 200 ]; then
	bad "small: only $polls polls for 200 polled 4 KiB reads: the poll counters do not count"
fi
t=$(($(nvme_timeouts) - t0))
count nvme_timeouts "$t"
[ "$t" = 0 ] || bad "$t NVMe command timeouts"
finish
