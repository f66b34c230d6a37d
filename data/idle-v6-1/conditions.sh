#!/bin/bash
# usage: [VARIANT=baseline-nullb] conditions.sh OUTDIR
# One icount boot of the idle kernel or VARIANT (idle defaults: busy_irq=Y, idle_spin_us=50);
# null_blk 2 and 10 us; psync against pvsync2 hipri, each alone, beside a
# competitor on fio's vCPU and with every vCPU busy; p50/mean of total
# latency and how each I/O was completed (poll_stats over the cell).
set -euo pipefail
cd /work/frozen; export BUILD_DIR=/work/main/build RESULTS_DIR=/work/main/results
. scripts/lib.sh
out=$1 variant=${VARIANT:-idle}
rm -rf "$out"; mkdir -p "$out/share/workloads" "$out/share/out"
cp workloads/*.fio "$out/share/workloads/"
cat >"$out/share/job.sh" <<'EOT'
set -u
export PB_RUNTIME=5 PB_RAMP=0 PB_IOS=1000 PB_CPU=1 PB_PERF=0
for cond in alone competitor busy; do
	for us in 2 10; do
		for w in psync pvsync2-hipri; do
			c=$w-$us-$cond
			PB_DEVICE=nullb-${us}us /pb/cell.sh /share/workloads/randread-4k-qd1-$w.fio $cond /share/out/$c
			echo $? >/share/out/$c/rc
		done
	done
done
EOT
scripts/guest-run.sh --timing icount --timeout 1200 "$variant" "$out" >/dev/null 2>&1 || { echo "boot failed: $(cat $out/status)"; exit 1; }
poll_stat_delta() {
	awk -v c="$2" '$2 == c { if (FILENAME ~ /after/) s += $3; else s -= $3 } END { print s + 0 }' \
		"$1/poll-stats-before.txt" "$1/poll-stats-after.txt"
}
for cond in alone competitor busy; do
	for us in 2 10; do
		for w in psync pvsync2-hipri; do
			d=$out/share/out/$w-$us-$cond
			[ "$(cat "$d/rc")" = 0 ] || { echo "$w-$us-$cond: cell failed"; continue; }
			echo "$cond $us us $w: ios $(jq '.jobs[0].read.total_ios' "$d/fio.json") p50 $(jq '.jobs[0].read.lat_ns.percentile["50.000000"]' "$d/fio.json") mean $(jq '.jobs[0].read.lat_ns.mean | floor' "$d/fio.json") p99 $(jq '.jobs[0].read.lat_ns.percentile["99.000000"]' "$d/fio.json"); waits $(poll_stat_delta "$d" task_waits) task/idle/timer completions $(poll_stat_delta "$d" task_completions)/$(poll_stat_delta "$d" idle_completions)/$(poll_stat_delta "$d" timer_completions)"
		done
	done
done
