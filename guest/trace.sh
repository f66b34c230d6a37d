#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Per-I/O timestamps from the kernel's own tracepoints, for the path
# breakdown (analysis/breakdown.c): trace.sh setup|on|off|dump [FILE]
#   setup      arm the events into a stopped, empty ring buffer
#   on, off    start and stop recording (guest/window.sh, at the window's
#              edges, so the trace covers fio's I/O loop and nothing else)
#   dump FILE  write the recorded events to FILE.gz and disarm; fails if
#              the ring buffer dropped any event
# The clock is x86-tsc, printed as raw ticks: the ns clocks print only
# microseconds. A "pb_clock <ns>" marker at each edge, CLOCK_MONOTONIC
# from /proc/timer_list, lets the analysis convert ticks to ns (under
# instruction-count time a tick is one ns; under TCG's wall clock not).
set -u
t=/sys/kernel/tracing
cmd=${1:-}

# The I/O system calls of fio's engines and uring-lat (x86_64 numbers):
# pread64 17, pwrite64 18, preadv 295, pwritev 296, preadv2 327,
# pwritev2 328, io_uring_enter 426.
syscalls="id == 17 || id == 18 || id == 295 || id == 296 || id == 327 || id == 328 || id == 426"
events="raw_syscalls/sys_enter raw_syscalls/sys_exit block/block_rq_issue block/block_rq_complete
sched/sched_wakeup sched/sched_switch timer/hrtimer_expire_entry"

mark() {
	awk '/^now at / { print "pb_clock", $3; exit }' /proc/timer_list >"$t/trace_marker"
}

case $cmd in
setup)
	[ -d "$t/events/raw_syscalls" ] || { echo "trace.sh: no raw_syscalls events in this kernel" >&2; exit 1; }
	echo 0 >"$t/tracing_on"
	echo x86-tsc >"$t/trace_clock" || exit 1
	echo "${PB_TRACE_KB:-8192}" >"$t/buffer_size_kb" || exit 1
	: >"$t/trace"
	echo "$syscalls" >"$t/events/raw_syscalls/sys_enter/filter" || exit 1
	echo "$syscalls" >"$t/events/raw_syscalls/sys_exit/filter" || exit 1
	for e in $events; do
		echo 1 >"$t/events/$e/enable" || exit 1
	done
	;;
on)
	echo 1 >"$t/tracing_on"
	mark
	;;
off)
	mark
	echo 0 >"$t/tracing_on"
	;;
dump)
	file=${2:?trace.sh dump FILE}
	echo 0 >"$t/tracing_on"
	for e in $events; do echo 0 >"$t/events/$e/enable"; done
	lost=$(cat "$t"/per_cpu/cpu*/stats | awk '/^overrun:|^dropped events:/ { n += $NF } END { print n + 0 }')
	gzip -c "$t/trace" >"$file.gz" || exit 1
	: >"$t/trace"
	if [ "$lost" != 0 ]; then
		echo "trace.sh: the ring buffer lost $lost events (raise PB_TRACE_KB)" >&2
		exit 1
	fi
	;;
*)
	echo "trace.sh: setup|on|off|dump FILE, got '$cmd'" >&2
	exit 1
	;;
esac
