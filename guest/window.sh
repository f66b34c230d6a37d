#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Snapshot the counters at one edge of fio's I/O loop: window.sh before|after DIR
# fio runs it as exec_prerun/exec_postrun, from its job process, so the
# window between the two snapshots is the job's I/O loop (and its ramp);
# guest/tools/uring-lat runs it the same way (-B/-A) around its timed
# reads, after its ramp: every per-I/O figure divides a delta over this
# window by the I/Os the device completed over the same window (dev_ios).
# Writes DIR/window-EDGE.txt ("key value" lines, counted time in ns),
# DIR/{stat,interrupts,poll-stats,poll-hybrid}-EDGE.txt and the kprobe
# profile (kprobes-before.txt, kprobes.txt). The counted
# keys are read nearest the loop: last before it, first after it.
# Environment: PB_DEV (the device under test).
set -u
edge=$1
dir=$2
case $edge in before | after) ;; *) echo "window.sh: edge must be before or after" >&2; exit 1 ;; esac

# snap_debugfs NAME FILE: every hctx's debugfs NAME, each line prefixed
# with its path below /sys/kernel/debug/block/.
snap_debugfs() {
	for f in /sys/kernel/debug/block/*/hctx*/"$1"; do
		[ -f "$f" ] || continue
		sed "s|^|${f#/sys/kernel/debug/block/} |" "$f"
	done >"$2"
}

# The I/O process: the first ancestor named fio (fio's job process) or
# uring-lat.
load_pid() {
	p=$$
	while [ "$p" -gt 1 ]; do
		case $(cat "/proc/$p/comm" 2>/dev/null) in fio | uring-lat) echo "$p"; return 0 ;; esac
		p=$(sed -n 's/^PPid:[[:space:]]*//p' "/proc/$p/status")
	done
	return 1
}

# counted: the keys in counted time, other than the vCPUs' (cpus).
counted() {
	pid=$(load_pid) || { echo "window.sh: no fio or uring-lat ancestor" >&2; return 1; }
	exec_ns=0
	for t in /proc/"$pid"/task/*/schedstat; do
		read -r ns _ <"$t" && exec_ns=$((exec_ns + ns))
	done
	echo "fio_task_ns $exec_ns"
	# /sys/block/<dev>/stat: reads completed is field 1, writes field 5.
	awk '{ printf "dev_ios %.0f\n", $1 + $5 }' "/sys/block/${PB_DEV#/dev/}/stat"
	awk '/^now at / { print "clock_ns", $3; exit }' /proc/timer_list
	# fio's vCPU, when the load is pinned to one: the analysis then
	# leaves the other vCPUs' background out of the I/O's CPU time.
	[ "${PB_CPUSET:-${PB_CPU:-1}}" != "${PB_CPU:-1}" ] || echo "fio_cpu ${PB_CPU:-1}"
}

# cpus -f|-l FILE: each vCPU's idle time, read on that vCPU with that
# read's clock (guest/tools/cpuclock.c), fio's vCPU first (-f: written to
# FILE) or last (-l: appended to FILE, cpuclock exec'd).
cpus() {
	f=$2
	set -- "$1" "${PB_CPU:-1}" "$(grep -c '^processor' /proc/cpuinfo)"
	if [ "$1" = -l ]; then
		exec cpuclock "$@" >>"$f"
	fi
	cpuclock "$@" >"$f"
}

others() {
	cat /proc/stat >"$dir/stat-$edge.txt"
	cat /proc/interrupts >"$dir/interrupts-$edge.txt"
	snap_debugfs poll_stats "$dir/poll-stats-$edge.txt"
	# The hybrid kernel's estimator state (patches-hybrid), where it exists.
	snap_debugfs poll_hybrid "$dir/poll-hybrid-$edge.txt"
	[ -s "$dir/poll-hybrid-$edge.txt" ] || rm -f "$dir/poll-hybrid-$edge.txt"
	# kprobes.txt is the after copy (the name older runs use).
	kp=$dir/kprobes-before.txt
	[ "$edge" = before ] || kp=$dir/kprobes.txt
	[ -f /sys/kernel/tracing/kprobe_profile ] &&
		cat /sys/kernel/tracing/kprobe_profile >"$kp"
	return 0
}

# trace on|off: the path breakdown's tracepoints (PB_TRACE=1), recording
# only inside the window; nearest the loop but for fio's vCPU's own read.
trace() {
	[ "${PB_TRACE:-0}" = 0 ] || "${PB_LIB:-/pb}/trace.sh" "$1"
}

# Several jobs run it once each: the first job's before and the last
# job's after bound the window (fio_task_ns is then the calling job's).
# Each after is written to files of its own and then moved in, so that
# jobs ending together never interleave their lines in one file.
# fio's vCPU is read nearest the loop, and the script's own work on it
# (fork and exec included) kept to the ends outside: before, everything
# else first and cpuclock exec'd last; after, cpuclock first (a mkdir
# before it cost 0.12 us per I/O of a 4000-read cell).
if [ "$edge" = before ]; then
	mkdir "$dir/.window-before" 2>/dev/null || exit 0
	others && counted >"$dir/window-$edge.txt" && trace on && cpus -l "$dir/window-$edge.txt"
else
	trace off
	w=$dir/.window-after.$$
	cpus -f "$w" && counted >>"$w" || exit 1
	final=$dir dir=$dir/.after.$$
	mkdir "$dir" && mv "$w" "$dir/window-$edge.txt" && others || exit 1
	for f in "$dir"/*; do mv -f "$f" "$final/" || exit 1; done
	rmdir "$dir"
fi
