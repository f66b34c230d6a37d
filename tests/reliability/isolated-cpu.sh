#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Description: (pollbench/003) isolated-cpu: booted with isolcpus=1, polled
# reads complete within the bound (a) on the isolated CPU1 beside a CPU-bound
# hog there, (b) on CPU0 beside a hog, (c) on CPU1 alone. On idle, with
# blk_poll.busy_irq=0 so that I/O beside a hog stays polled, no idle loop
# polls across the isolation: in (a) CPU0's idle loop finds none of CPU1's
# completions and in (b) the isolated CPU1's finds none of CPU0's (the
# waiters' fallback timers find them), while in (c) CPU1's own idle loop
# still polls for its own waiter. With a poll queue per CPU (nvme's own
# mapping), (d) readers on both CPUs at once: on every polling design the
# isolated CPU1 completes none of CPU0's reads (block_rq_complete on CPU1 of
# a sector in CPU0's half of the disk), whoever polls for its own reader
# (measured before the fix, 10000 reads a CPU: inline's task completed 23
# of CPU0's reads by its sweep of all poll queues, idle's idle loop 186 of
# 2000).
# Boot: isolcpus=1 nvme.poll_queues=2
. "$REL_DIR/lib.sh"
wait_dev || finish
if [ "$REL_MODE" = full ]; then n=10000; else n=2000; fi
bound=$(bound_us "$REL_VARIANT" "$REL_FLAVOUR")
count bound_us "$bound"
iso=$(cat /sys/devices/system/cpu/isolated)
[ "$iso" = 1 ] || { bad "CPU1 is not isolated: /sys/devices/system/cpu/isolated reads '$iso'"; finish; }
idle_param_set busy_irq 0
t0=$(nvme_timeouts)
# phase NAME CPU HOG: n polled reads on CPU, beside a hog there if HOG is 1;
# sets IDLE_FOUND and TIMER_FOUND, the completions found by idle loops and
# by fallback timers meanwhile.
phase() {
	h="" i0="" f0="" rc=""
	[ "$3" = 0 ] || h=$(hog "$2" 600 0 "$REL_OUT/$1-hog.txt")
	i0=$(pstat idle_completions)
	f0=$(pstat timer_completions)
	taskset -c "$2" fio --name="$1" --filename=$DEV --direct=1 $POLLED \
		--rw=randread --bs=4k --size=2g --number_ios=$n \
		--output-format=json --output="$REL_OUT/$1.json" >"$REL_OUT/$1.log" 2>&1
	rc=$?
	IDLE_FOUND=$(pdelta idle_completions "$i0")
	TIMER_FOUND=$(pdelta timer_completions "$f0")
	[ -z "$h" ] || kill -TERM "$h"
	wait
	ios=$(fio_ios "$1")
	add reads_completed "$ios"
	count idle_found_"$1" "$IDLE_FOUND"
	count timer_found_"$1" "$TIMER_FOUND"
	if [ $rc != 0 ] || [ "$ios" != $n ]; then
		bad "$1: $ios of $n reads completed, fio exit $rc"
	else
		say "ok - $1: $n reads on CPU$2; completions found by idle loops $IDLE_FOUND, by timers $TIMER_FOUND"
	fi
	check_bound "$1" "$bound" "$1"
	drained "$1"
}
phase isolated-busy 1 1
if [ "$REL_VARIANT" = idle ] && is_polling; then
	[ "$IDLE_FOUND" = 0 ] || bad "isolated-busy: an idle loop found $IDLE_FOUND completions of the isolated CPU's waiter"
	[ "$TIMER_FOUND" -gt 0 ] || bad "isolated-busy: no completion found by a fallback timer: who found them?"
fi
phase housekeeping-busy 0 1
if [ "$REL_VARIANT" = idle ] && is_polling; then
	[ "$IDLE_FOUND" = 0 ] || bad "housekeeping-busy: an idle loop (the isolated CPU's) found $IDLE_FOUND completions of CPU0's waiter"
fi
# Alone, the waiter would poll its poll window first: leave every poll to
# the idle loop, whose polling is the claim here.
idle_param_set idle_spin_us 0
phase isolated-alone 1 0
# The waiter's look before sleeping finds many completions on a fast
# emulated NVMe, and on a debug kernel under wall-clock TCG the idle loop's
# share of the rest varies from run to run (4 to 141 of 2000 in four runs
# of one idle kernel, the fallback timers finding most): ask only that
# the isolated CPU's idle loop polled for its own waiter at all.
if [ "$REL_VARIANT" = idle ] && is_polling && [ "$IDLE_FOUND" = 0 ]; then
	bad "isolated-alone: the isolated CPU's idle loop found none of its own waiter's $n completions"
fi
# both-alone: n reads on each CPU at once, CPU0 in the disk's first GiB
# and CPU1 in the second, block_rq_complete traced with its CPU.
both_alone() {
	tr=/sys/kernel/tracing ev=/sys/kernel/tracing/events/block/block_rq_complete
	[ -d "$ev" ] || { bad "both-alone: no block_rq_complete tracepoint"; return; }
	if ! { echo 0 >$tr/tracing_on && echo >$tr/trace &&
		echo 1 >"$ev/enable" && echo 1 >$tr/tracing_on; }; then
		bad "both-alone: cannot start tracing"
		return
	fi
	pids=""
	for c in 0 1; do
		taskset -c $c fio --name=both-alone-$c --filename=$DEV --direct=1 $POLLED \
			--rw=randread --bs=4k --offset=${c}g --size=1g --number_ios=$n \
			--output-format=json --output="$REL_OUT/both-alone-$c.json" \
			>"$REL_OUT/both-alone-$c.log" 2>&1 &
		pids="$pids $!"
	done
	rc=0
	for p in $pids; do
		wait "$p" || rc=$?
	done
	echo 0 >$tr/tracing_on
	echo 0 >"$ev/enable"
	cp $tr/trace "$REL_OUT/both-alone-trace.txt"
	for c in 0 1; do
		ios=$(fio_ios both-alone-$c)
		add reads_completed "$ios"
		if [ $rc != 0 ] || [ "$ios" != $n ]; then
			bad "both-alone: $ios of $n reads on CPU$c completed, fio exit $rc"
		fi
	done
	# "... [001] ...: block_rq_complete: 259,0 R () SECTOR + 8 [0]"
	stolen=$(awk '/block_rq_complete/ && / \[001\] / {
		for (i = 2; i <= NF; i++) if ($i == "+" && $(i - 1) < 2097152) n++
	} END { print n + 0 }' "$REL_OUT/both-alone-trace.txt")
	mine=$(grep -c ' \[001\] .*block_rq_complete' "$REL_OUT/both-alone-trace.txt" || true)
	count cpu1_completed_cpu0_reads "$stolen"
	count cpu1_completions "$mine"
	say "ok - both-alone: $n reads on each CPU; CPU1 completed $mine requests, $stolen of them CPU0's"
	if is_polling; then
		[ "$stolen" = 0 ] || bad "both-alone: the isolated CPU1 completed $stolen of CPU0's reads"
		[ "$mine" -gt 0 ] || bad "both-alone: no completion traced on CPU1 at all: is the trace working?"
	fi
	check_bound both-alone-0 "$bound" both-alone-0
	check_bound both-alone-1 "$bound" both-alone-1
	drained both-alone
}
[ "$(cat /sys/module/nvme/parameters/poll_queues)" = 2 ] ||
	bad "nvme.poll_queues reads $(cat /sys/module/nvme/parameters/poll_queues), not 2"
both_alone
idle_param_set busy_irq Y
t=$(($(nvme_timeouts) - t0))
count nvme_timeouts "$t"
[ "$t" = 0 ] || bad "$t NVMe command timeouts"
finish
