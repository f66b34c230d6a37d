#!/bin/bash
# usage: [VARIANT=inline] measure.sh OUTDIR [SPIN_US]
# One icount boot of the idle kernel (or VARIANT's); null_blk 1..100 us; psync (interrupts)
# against pvsync2 hipri (polled) with blk_poll.idle_spin_us=SPIN_US (the
# kernel's default when not given); p50/p99 of total latency, and the
# waiter's own polls and completions per I/O (poll_stats over the cell).
set -euo pipefail
cd /work/frozen; export BUILD_DIR=/work/main/build RESULTS_DIR=/work/main/results
. scripts/lib.sh
out=$1 spin=${2:-} variant=${VARIANT:-idle}
rm -rf "$out"; mkdir -p "$out/share/workloads" "$out/share/out"
cp workloads/*.fio "$out/share/workloads/"
{
	[ -z "$spin" ] || echo "echo $spin >/sys/module/blk_poll/parameters/idle_spin_us || exit 1"
	cat <<'EOT'
set -u
export PB_RUNTIME=5 PB_RAMP=0 PB_IOS=1000 PB_CPU=1 PB_PERF=0
cat /sys/module/blk_poll/parameters/idle_spin_us >/share/idle_spin_us 2>/dev/null
for us in 1 2 5 10 20 50 100; do
	for w in psync pvsync2-hipri; do
		c=$w-$us
		PB_DEVICE=nullb-${us}us /pb/cell.sh /share/workloads/randread-4k-qd1-$w.fio alone /share/out/$c
		echo $? >/share/out/$c/rc
	done
done
EOT
} >"$out/share/job.sh"
scripts/guest-run.sh --timing icount --timeout 900 "$variant" "$out" >/dev/null 2>&1 || { echo "boot failed: $(cat $out/status)"; exit 1; }
# poll_stat_delta CELL COUNTER: as tests/lib.sh's.
poll_stat_delta() {
	awk -v c="$2" '$2 == c { if (FILENAME ~ /after/) s += $3; else s -= $3 } END { print s + 0 }' \
		"$1/poll-stats-before.txt" "$1/poll-stats-after.txt"
}
echo "$variant; idle_spin_us $(cat "$out/share/idle_spin_us")"
for us in 1 2 5 10 20 50 100; do
	p() { jq ".jobs[0].read.lat_ns.percentile[\"$2.000000\"]" "$out/share/out/$1-$us/fio.json"; }
	d=$out/share/out/pvsync2-hipri-$us
	tp=$(poll_stat_delta "$d" task_polls) tc=$(poll_stat_delta "$d" task_completions) ic=$(poll_stat_delta "$d" idle_completions)
	echo "$us us: p50 irq $(p psync 50) idle $(p pvsync2-hipri 50) ($(awk -v a="$(p pvsync2-hipri 50)" -v b="$(p psync 50)" 'BEGIN{printf "%+.1f%%", (a/b-1)*100}')); p99 irq $(p psync 99) idle $(p pvsync2-hipri 99); per I/O: task polls $(awk -v a=$tp 'BEGIN{printf "%.1f", a/1000}'), task completions $tc, idle completions $ic"
done
