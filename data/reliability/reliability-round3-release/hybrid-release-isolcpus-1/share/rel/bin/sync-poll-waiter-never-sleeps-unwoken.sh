#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Description: guards against the hang that removed sync polling in 5.19
# ("block: ignore RWF_HIPRI hint for sync dio"): a waiter that polled, found
# nothing (need_resched() cut it short) and slept uninterruptibly with its
# request on a poll queue that raises no interrupt, so nothing woke it until
# the NVMe timeout handler, 30 s later. Set up on purpose: four polling
# waiters (pvsync2 hipri=1, QD1) share the single poll queue, all on CPU1,
# beside a CPU-bound hog on CPU1 at the same nice level and at nice -10, while
# cyclictest (SCHED_FIFO, every 200 us on CPU1) keeps setting need_resched();
# then the same while the controller is reset (requests requeued on a poll
# queue); on idle with blk_poll.busy_irq=0, so that the I/O stays polled.
# Every I/O must complete within the variant's bound (bounds.env),
# no NVMe command may time out, nothing may stay in flight; the host fails
# the case on any hung-task report (the detector runs at 10 s).
. "$REL_DIR/lib.sh"
wait_dev || finish
if [ "$REL_MODE" = full ]; then rt=20 resets=5; else rt=3 resets=1; fi
bound=$(bound_us "$REL_VARIANT" "$REL_FLAVOUR")
count bound_us "$bound"
to0=$(nvme_timeouts)
# The idle kernel sends I/O submitted beside runnable tasks (the other
# waiters, the hog) to the interrupt (blk_poll.busy_irq); keep it polled,
# since a polled waiter is what must not sleep unwoken.
idle_param_set busy_irq 0
for cond in same-prio higher-prio reset-requeue; do
	name=$cond
	nice=0
	[ $cond = higher-prio ] && nice=-10
	y0=$(pstat yields) s0=$(pstat sleeps) w0=$(pstat waits) p0=$(pstat polls)
	# shellcheck disable=SC2086
	taskset -c 1 fio --output-format=json --output="$REL_OUT/$name.json" \
		--name="$name" --filename=$DEV --direct=1 $POLLED --rw=randrw --bs=4k \
		--iodepth=1 --numjobs=4 --size=128m --offset_increment=128m \
		--time_based=1 --runtime=$((rt + 2)) >"$REL_OUT/$name.log" 2>&1 &
	fp=$!
	# The competitors join once the waiters do I/O and stay to their end.
	wait_ios 40
	hp=$(hog 1 $((rt + 30)) $nice "$REL_OUT/$name-hog.txt")
	cyclictest -m -q -p 95 -a 1 -t 1 -i 200 -D $((rt + 30)) >"$REL_OUT/$name-cyclictest.txt" 2>&1 &
	cp=$!
	if [ $cond = reset-requeue ]; then
		for _ in $(seq $resets); do
			sleep $((rt / (resets + 1) + 1))
			echo 1 >/sys/class/nvme/nvme0/reset_controller && add resets_done 1
		done
	fi
	wait $fp
	rc=$?
	kill -TERM "$hp" 2>/dev/null
	kill -INT "$cp" 2>/dev/null
	wait "$cp"
	ios=$(fio_ios "$name")
	add ios_completed "$ios"
	polls=$(pdelta polls "$p0") yields=$(pdelta yields "$y0") sleeps=$(pdelta sleeps "$s0")
	add yields "$yields"
	add sleeps "$sleeps"
	add waits "$(pdelta waits "$w0")"
	add polls "$polls"
	if [ $rc != 0 ] || [ "$(fio_errors "$name")" != 0 ] || [ "$ios" -le 0 ]; then
		bad "$name: fio exit $rc, error $(fio_errors "$name"), $ios I/Os: $(tail -n 3 "$REL_OUT/$name.log")"
	fi
	check_bound "$name" "$bound" "$name: 4 waiters, $ios I/Os, $polls polls, $yields yields, $sleeps sleeps"
	if is_polling && [ "$polls" -le 0 ]; then
		bad "$name: no poll counted: the waiters were not polling"
	fi
	drained "$name"
done
idle_param_set busy_irq Y
to=$(($(nvme_timeouts) - to0))
count nvme_timeouts "$to"
[ "$to" = 0 ] || bad "$to NVMe command timeout(s) logged (a polled request nobody polled): $(dmesg | grep -m3 timeout)"
finish
