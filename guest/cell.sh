#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run one cell inside the guest: cell.sh WORKLOAD.fio CONDITION OUTDIR
# Snapshots the counters, starts the condition's load, runs fio (under
# perf stat) pinned to $PB_CPU, snapshots again. Exit status is fio's, or
# 1 if a measurement could not be taken.
# Environment: PB_DEV (device), PB_CPU (fio's CPU), PB_RUNTIME, PB_RAMP.
set -u
workload=$1
condition=$2
out=$3
: "${PB_CPU:=1}" "${PB_RUNTIME:=10}" "${PB_RAMP:=1}" "${PB_DEV:=/dev/nvme0n1}"
export PB_DEV PB_RUNTIME PB_RAMP PB_CPU
mkdir -p "$out" || exit 1
ncpu=$(grep -c '^processor' /proc/cpuinfo)
duration=$((PB_RUNTIME + PB_RAMP + 1))

snapshot() {
	cat /proc/stat >"$out/stat-$1.txt"
	cat /proc/interrupts >"$out/interrupts-$1.txt"
	for f in /sys/kernel/debug/block/*/hctx*/poll_stats; do
		[ -f "$f" ] || continue
		sed "s|^|${f#/sys/kernel/debug/block/} |" "$f"
	done >"$out/poll-stats-$1.txt"
}

echo "pollbench: cell $(basename "$workload")@$condition start" >/dev/kmsg
pids=""
case $condition in
alone) ;;
competitor)
	# Same nice level as fio, same CPU: its loss is the fairness cost.
	cpuhog -c "$PB_CPU" -t "$duration" -o "$out/competitor.txt" &
	pids=$!
	;;
competitor-only)
	# The competitor's rate alone on the CPU: the reference for its loss.
	cpuhog -c "$PB_CPU" -t "$PB_RUNTIME" -o "$out/competitor.txt"
	exit $?
	;;
cyclictest)
	cyclictest -m -q -p 95 -a "$PB_CPU" -t 1 -i 500 -h 2000 \
		-D "$duration" >"$out/cyclictest.txt" 2>&1 &
	pids=$!
	;;
busy)
	c=0
	while [ "$c" -lt "$ncpu" ]; do
		cpuhog -c "$c" -t "$duration" -o "$out/busy-cpu$c.txt" &
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
	wait "$p" || rc=1
done
dmesg >"$out/dmesg.txt"
echo "pollbench: cell $(basename "$workload")@$condition end rc=$rc" >/dev/kmsg
exit $rc
