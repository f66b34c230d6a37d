#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run one cell inside the guest: cell.sh WORKLOAD.fio|WORKLOAD.uring CONDITION OUTDIR
# Starts the condition's load, runs the workload (under perf stat) pinned
# to $PB_CPU: fio with a .fio job file, or guest/tools/uring-lat with the
# options line of a .uring file (its fio-like JSON is fio.json too); fio
# or uring-lat itself snapshots the counters right before and after its
# I/O loop (guest/window.sh). Everything is written to tmpfs and copied
# to OUTDIR at the end, so no host-timed I/O (the 9p share) falls inside
# the measured window. Exit status is fio's or uring-lat's, or 1 if a
# measurement could not be taken.
# Environment: PB_DEVICE ("nvme", or "nullb-<N>us": a null_blk disk with a
# poll queue whose requests complete N us after submission; with
# PB_NULLB_QUEUES=percpu a submit and a poll queue per vCPU), PB_CPU (fio's
# CPU, whose counters the window reads first), PB_CPUSET (the vCPUs the load
# may run on, default PB_CPU), PB_RUNTIME, PB_RAMP, PB_IOS (I/Os per fio job; 0: run for
# PB_RUNTIME seconds), PB_PERF (0: no perf stat around fio),
# PB_CYCLICTEST_INTERVAL (cyclictest's wake-up interval, us),
# PB_COMPETITOR_SECONDS (how long competitor-only measures the
# competitor's rate alone; default PB_RUNTIME + PB_RAMP), PB_QUEUE ("ATTR=VALUE ...": written to
# /sys/block/<dev>/queue/ of the device under test once it is set up, and
# read back; a failure fails the cell, with the reason in OUTDIR/error.txt),
# PB_NVME_DEV (the nvme device's node, default /dev/nvme0n1: a real
# machine's namespace under scripts/hw-step.sh), PB_LIB (where the guest
# scripts live, default /pb as in the image).
# fio's job files read PB_DEV; a .uring workload runs uring-lat for
# PB_IOS reads (then PB_RAMP must be 0), or with PB_IOS 0 for PB_RUNTIME
# seconds after PB_RAMP seconds (its ramp, unlike fio's, lies outside the
# window). PB_TRACE=1 records the path breakdown's tracepoints over the
# window (guest/trace.sh) into
# OUTDIR/trace.txt.gz, with guest/tools/syscall-edge traced after the
# window (OUTDIR/syscall-edge.txt), then runs the job on fio's null engine
# (OUTDIR/fio-null.json: fio's own user-space time).
set -u
workload=$1
condition=$2
final=$3
: "${PB_CPU:=1}" "${PB_RUNTIME:=10}" "${PB_RAMP:=1}" "${PB_IOS:=0}" "${PB_DEVICE:=nvme}" "${PB_QUEUE:=}"
: "${PB_CPUSET:=$PB_CPU}" "${PB_NULLB_QUEUES:=single}"
: "${PB_LIB:=/pb}" "${PB_NVME_DEV:=/dev/nvme0n1}"
export PB_LIB
mkdir -p "$final" || exit 1
# The cell's files are written here (tmpfs) and copied to $final at the end.
out=$(mktemp -d /tmp/cell.XXXXXX) || exit 1
# setup_device: make PB_DEV point at the cell's device (a null_blk disk:
# guest/nullb.sh, in the image at $PB_LIB/nullb.sh).
setup_device() {
	case $PB_DEVICE in
	nvme)
		PB_DEV=$PB_NVME_DEV
		for _ in $(seq 50); do [ -b "$PB_DEV" ] && return 0; sleep 0.1; done
		echo "cell.sh: $PB_DEV did not appear" >&2
		return 1
		;;
	nullb-*us)
		us=${PB_DEVICE#nullb-}
		PB_DEV=/dev/nullb0
		if [ "$PB_NULLB_QUEUES" = percpu ]; then
			n=$(grep -c '^processor' /proc/cpuinfo)
			"$PB_LIB/nullb.sh" up "${us%us}" "$n" "$n"
		else
			"$PB_LIB/nullb.sh" up "${us%us}"
		fi
		;;
	*)
		echo "cell.sh: unknown device '$PB_DEVICE'" >&2
		return 1
		;;
	esac
}

teardown_device() {
	"$PB_LIB/nullb.sh" down
}

# loud MESSAGE: a failure the host must see: stderr, kernel log, error.txt.
loud() {
	echo "cell.sh: FAILED: $*" >&2
	echo "pollbench: cell FAILED: $*" >/dev/kmsg
	echo "$*" >>"$final/error.txt"
}

# finish RC: copy the cell's files to the share and exit with RC.
finish() {
	cp -a "$out/." "$final/" || loud "copying the cell's files to $final failed"
	rm -rf "$out"
	exit "$1"
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
	finish 1
fi
if ! apply_queue; then
	teardown_device
	finish 1
fi
# A fixed I/O count needs fio's time_based off; runtime stays the bound.
PB_TIME_BASED=1
[ "$PB_IOS" = 0 ] || PB_TIME_BASED=0
export PB_DEV PB_RUNTIME PB_RAMP PB_CPU PB_CPUSET PB_IOS PB_TIME_BASED
# For the condition's file: the vCPU count, and an upper bound for the
# load's run time (fio's end stops it earlier).
# shellcheck disable=SC2034
ncpu=$(grep -c '^processor' /proc/cpuinfo)
# shellcheck disable=SC2034
limit=$((2 * (PB_RUNTIME + PB_RAMP) + 30))

echo "pollbench: cell $(basename "$workload")@$condition start" >/dev/kmsg
# The condition is a file, guest/conditions/<name>.sh (in the image at
# /pb/conditions/), defining cond_start and cond_stop; cond_stop ends what
# cond_start left running, so no part of the load's result comes from
# time without I/O. A condition that sets cond_no_io runs no fio.
cond_pids=""
cond_no_io=0
# cond_kill SIGNAL: stop the condition's processes and wait for their
# reports; a process that fails fails the cell.
cond_kill() {
	for p in $cond_pids; do
		kill -"$1" "$p" 2>/dev/null
		wait "$p" || rc=1
	done
}
cond_file=${PB_CONDITIONS_DIR:-$PB_LIB/conditions}/$condition.sh
if [ ! -f "$cond_file" ]; then
	loud "unknown condition '$condition' (no $cond_file)"
	teardown_device
	finish 1
fi
# shellcheck source=/dev/null
. "$cond_file"
if [ "$cond_no_io" = 1 ]; then
	cond_start
	rc=$?
	teardown_device
	finish $rc
fi
case $workload in
*.fio) ;;
*.uring)
	uring_opts=$(sed -n 's/^options=//p' "$workload")
	why=""
	[ -n "$uring_opts" ] || why="no options= line in $workload"
	# uring-lat's ramp is in seconds with -t only (-r is reads with -n).
	[ "$PB_IOS" = 0 ] || [ "$PB_RAMP" = 0 ] ||
		why="$workload takes no ramp with a fixed I/O count (ios $PB_IOS, ramp $PB_RAMP)"
	if [ -n "$why" ]; then
		loud "$why"
		teardown_device
		finish 1
	fi
	;;
*)
	loud "workload $workload is neither a .fio job file nor a .uring file"
	teardown_device
	finish 1
	;;
esac
if [ "${PB_TRACE:-0}" = 1 ] && ! "$PB_LIB/trace.sh" setup 2>"$out/trace-error.txt"; then
	loud "the tracepoints could not be armed: $(cat "$out/trace-error.txt")"
	teardown_device
	finish 1
fi
cond_start

# fio and uring-lat run guest/window.sh right before and right after their
# I/O loop, in a folder of tmpfs (fio's prerun/postrun output files land
# there too).
window="$PB_LIB/window.sh"
# perf stat (PB_PERF=1, the default) hooks every context switch of fio's
# tasks: that costs instructions inside the measured path, so matrices on
# instruction-count time turn it off.
perf=""
[ "${PB_PERF:-1}" = 0 ] || perf="perf stat -x, -o $out/perf-stat.txt \
	-e task-clock,context-switches,cpu-migrations,cycles,instructions --"
if [ "${workload%.uring}" = "$workload" ]; then
	# shellcheck disable=SC2086 # $perf is words on purpose
	$perf taskset -c "$PB_CPUSET" sh -c 'cd "$1" && shift && exec "$@"' sh "$out" \
		fio --output-format=json+ --output="$out/fio.json" --lat_percentiles=1 \
		--exec_prerun="$window before $out" --exec_postrun="$window after $out" \
		"$workload" >"$out/fio.log" 2>&1
	rc=$?
	tool=fio
else
	# A read count, or fio's runtime and ramp_time (PB_TIME_BASED).
	amount="-n $PB_IOS"
	[ "$PB_IOS" != 0 ] || amount="-t $PB_RUNTIME -r $PB_RAMP"
	# shellcheck disable=SC2086 # $perf, $uring_opts and $amount are words on purpose
	$perf taskset -c "$PB_CPUSET" sh -c 'cd "$1" && shift && exec "$@"' sh "$out" \
		uring-lat $uring_opts $amount -j "$(basename "$workload" .uring)" \
		-o "$out/fio.json" -B "$window before $out" -A "$window after $out" \
		"$PB_DEV" >"$out/uring-lat.log" 2>&1
	rc=$?
	tool=uring-lat
	[ $rc = 0 ] || loud "uring-lat exited $rc: $(tail -n1 "$out/uring-lat.log")"
fi
rm -rf "$out/.window-before" "$out"/.after.* "$out"/.window-after.* "$out"/*.prerun.txt "$out"/*.postrun.txt
if [ $rc = 0 ] && { [ ! -s "$out/window-before.txt" ] || [ ! -s "$out/window-after.txt" ]; }; then
	loud "$tool did not take the window snapshots (its prerun/postrun commands)"
	rc=1
fi

cond_stop
if [ "${PB_TRACE:-0}" = 1 ]; then
	# What the syscall tracepoints miss of every call (libc, entry,
	# exit), traced too (guest/tools/syscall-edge.c), after the window.
	"$PB_LIB/trace.sh" on
	taskset -c "$PB_CPU" syscall-edge 2000 >"$out/syscall-edge.txt" 2>&1 ||
		{ loud "syscall-edge failed: $(tail -n1 "$out/syscall-edge.txt")"; rc=1; }
	"$PB_LIB/trace.sh" off
	"$PB_LIB/trace.sh" dump "$out/trace.txt" 2>"$out/trace-error.txt" ||
		{ loud "the trace is incomplete: $(cat "$out/trace-error.txt")"; rc=1; }
	rm -f "$out/trace-error.txt"
	# The user-space part of fio's latency, which no kernel tracepoint
	# sees: the same job on fio's null engine (no system call) times
	# fio's own code between its two clock reads (fio-null.json).
	if [ "$tool" = fio ]; then
		sed 's/^ioengine=.*/ioengine=null/; /^hipri=/d' "$workload" >"$out/null.fio"
		taskset -c "$PB_CPU" fio --output-format=json+ --output="$out/fio-null.json" --lat_percentiles=1 \
			"$out/null.fio" >"$out/fio-null.log" 2>&1 || { loud "fio's null-engine twin failed"; rc=1; }
		rm -f "$out/null.fio"
	fi
fi
teardown_device || rc=1
dmesg >"$out/dmesg.txt"
echo "pollbench: cell $(basename "$workload")@$condition end rc=$rc" >/dev/kmsg
finish $rc
