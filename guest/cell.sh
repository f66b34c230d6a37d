#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run one cell inside the guest: cell.sh WORKLOAD.fio CONDITION OUTDIR
# Snapshots the counters, starts the condition's load, runs fio (under
# perf stat) pinned to $PB_CPU, snapshots again. Exit status is fio's, or
# 1 if a measurement could not be taken.
# Environment: PB_DEVICE ("nvme", or "nullb-<N>us": a null_blk disk with a
# poll queue whose requests complete N us after submission), PB_CPU (fio's
# CPU), PB_RUNTIME, PB_RAMP, PB_QUEUE ("ATTR=VALUE ...": written to
# /sys/block/<dev>/queue/ of the device under test once it is set up, and
# read back; a failure fails the cell, with the reason in OUTDIR/error.txt).
# fio's job files read PB_DEV.
set -u
workload=$1
condition=$2
out=$3
: "${PB_CPU:=1}" "${PB_RUNTIME:=10}" "${PB_RAMP:=1}" "${PB_DEVICE:=nvme}" "${PB_QUEUE:=}"
mkdir -p "$out" || exit 1
# null_blk names the disk after its configfs folder.
nullb=/sys/kernel/config/nullb/nullb0

# setup_device: make PB_DEV point at the cell's device.
setup_device() {
	case $PB_DEVICE in
	nvme)
		PB_DEV=/dev/nvme0n1
		;;
	nullb-*us)
		us=${PB_DEVICE#nullb-}
		us=${us%us}
		mkdir "$nullb" || return 1
		# queue_mode 2 is blk-mq, irqmode 2 completes from a timer.
		for kv in queue_mode=2 submit_queues=1 poll_queues=1 irqmode=2 \
			completion_nsec=$((us * 1000)) blocksize=4096 size=1024 \
			memory_backed=0 power=1; do
			echo "${kv#*=}" >"$nullb/${kv%%=*}" || return 1
		done
		PB_DEV=/dev/nullb0
		;;
	*)
		echo "cell.sh: unknown device '$PB_DEVICE'" >&2
		return 1
		;;
	esac
	for _ in $(seq 50); do [ -b "$PB_DEV" ] && return 0; sleep 0.1; done
	echo "cell.sh: $PB_DEV did not appear" >&2
	return 1
}

teardown_device() {
	[ -d "$nullb" ] || return 0
	echo 0 >"$nullb/power"
	rmdir "$nullb"
}

# loud MESSAGE: a failure the host must see: stderr, kernel log, error.txt.
loud() {
	echo "cell.sh: FAILED: $*" >&2
	echo "pollbench: cell FAILED: $*" >/dev/kmsg
	echo "$*" >>"$out/error.txt"
}

# apply_queue: write PB_QUEUE's settings to the device under test and read
# each back (the value, or "[value]" among choices as in queue/scheduler).
# What was read back goes to queue-settings.txt.
apply_queue() {
	qdir=/sys/block/${PB_DEV#/dev/}/queue
	: >"$out/queue-settings.txt"
	for kv in $PB_QUEUE; do
		attr=${kv%%=*}
		val=${kv#*=}
		if [ ! -f "$qdir/$attr" ]; then
			loud "queue setting $kv: $qdir/$attr does not exist"
			return 1
		fi
		if ! err=$( (echo "$val" >"$qdir/$attr") 2>&1); then
			loud "queue setting $kv: writing $qdir/$attr failed: $err"
			return 1
		fi
		got=$(cat "$qdir/$attr")
		case " $got " in
		*" $val "* | *"[$val]"*) ;;
		*)
			loud "queue setting $kv: $qdir/$attr reads '$got' after the write"
			return 1
			;;
		esac
		echo "$attr=$got" >>"$out/queue-settings.txt"
	done
}

if ! setup_device; then
	loud "device $PB_DEVICE could not be set up"
	teardown_device
	exit 1
fi
if ! apply_queue; then
	teardown_device
	exit 1
fi
export PB_DEV PB_RUNTIME PB_RAMP PB_CPU
ncpu=$(grep -c '^processor' /proc/cpuinfo)
# Upper bound for the load's run time; fio's end stops it earlier.
limit=$((2 * (PB_RUNTIME + PB_RAMP) + 30))

# snap_debugfs NAME FILE: every hctx's debugfs NAME, each line prefixed
# with its path below /sys/kernel/debug/block/.
snap_debugfs() {
	for f in /sys/kernel/debug/block/*/hctx*/"$1"; do
		[ -f "$f" ] || continue
		sed "s|^|${f#/sys/kernel/debug/block/} |" "$f"
	done >"$2"
}

snapshot() {
	cat /proc/stat >"$out/stat-$1.txt"
	cat /proc/interrupts >"$out/interrupts-$1.txt"
	snap_debugfs poll_stats "$out/poll-stats-$1.txt"
	# The hybrid kernel's estimator state (patches-hybrid), where it exists.
	snap_debugfs poll_hybrid "$out/poll-hybrid-$1.txt"
	[ -s "$out/poll-hybrid-$1.txt" ] || rm -f "$out/poll-hybrid-$1.txt"
}

echo "pollbench: cell $(basename "$workload")@$condition start" >/dev/kmsg
# The load runs exactly as long as fio: it is started with a generous limit
# and stopped (cpuhog on SIGTERM, cyclictest on SIGINT, both then report)
# as soon as fio ends, so no part of its result comes from time without I/O.
# The competitor-only reference runs as long as a whole fio job.
pids=""
stop_signal=TERM
case $condition in
alone) ;;
competitor)
	# Same nice level as fio, same CPU: its loss is the fairness cost.
	cpuhog -c "$PB_CPU" -t "$limit" -o "$out/competitor.txt" &
	pids=$!
	;;
competitor-only)
	# The competitor's rate alone on the CPU: the reference for its loss.
	cpuhog -c "$PB_CPU" -t "$((PB_RUNTIME + PB_RAMP))" -o "$out/competitor.txt"
	rc=$?
	teardown_device
	exit $rc
	;;
cyclictest)
	cyclictest -m -q -p 95 -a "$PB_CPU" -t 1 -i 500 -h 10000 \
		-D "$limit" >"$out/cyclictest.txt" 2>"$out/cyclictest.err" &
	pids=$!
	stop_signal=INT
	;;
busy)
	c=0
	while [ "$c" -lt "$ncpu" ]; do
		cpuhog -c "$c" -t "$limit" -o "$out/busy-cpu$c.txt" &
		pids="$pids $!"
		c=$((c + 1))
	done
	;;
*)
	echo "cell.sh: unknown condition '$condition'" >&2
	exit 1
	;;
esac

snapshot before
[ -f /sys/kernel/tracing/kprobe_profile ] &&
	cat /sys/kernel/tracing/kprobe_profile >"$out/kprobes-before.txt"
perf stat -x, -o "$out/perf-stat.txt" \
	-e task-clock,context-switches,cpu-migrations,cycles,instructions -- \
	taskset -c "$PB_CPU" fio --output-format=json+ --output="$out/fio.json" \
	"$workload" >"$out/fio.log" 2>&1
rc=$?
snapshot after
[ -f /sys/kernel/tracing/kprobe_profile ] &&
	cat /sys/kernel/tracing/kprobe_profile >"$out/kprobes.txt"

for p in $pids; do
	kill -"$stop_signal" "$p" 2>/dev/null
	wait "$p" || rc=1
done
teardown_device || rc=1
dmesg >"$out/dmesg.txt"
echo "pollbench: cell $(basename "$workload")@$condition end rc=$rc" >/dev/kmsg
exit $rc
