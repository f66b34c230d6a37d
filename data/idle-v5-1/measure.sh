#!/bin/bash
# usage: measure.sh OUTDIR  (idle kernel, icount, nullb 1..50us, psync vs pvsync2-hipri)
set -euo pipefail
cd /work/frozen; export BUILD_DIR=/work/main/build RESULTS_DIR=/work/main/results
. scripts/lib.sh
out=$1
rm -rf "$out"; mkdir -p "$out/share/workloads" "$out/share/out"
cp workloads/*.fio "$out/share/workloads/"
cat > "$out/share/job.sh" <<'EOT'
set -u
export PB_RUNTIME=5 PB_RAMP=0 PB_IOS=1000 PB_CPU=1 PB_PERF=0
for us in 1 2 5 10 20 50; do
	for w in psync pvsync2-hipri; do
		c=$w-$us
		PB_DEVICE=nullb-${us}us /pb/cell.sh /share/workloads/randread-4k-qd1-$w.fio alone /share/out/$c
		echo $? >/share/out/$c/rc
	done
done
EOT
scripts/guest-run.sh --timing icount --timeout 900 idle "$out" >/dev/null 2>&1 || { echo "boot failed: $(cat $out/status)"; exit 1; }
for us in 1 2 5 10 20 50; do
	irq=$(jq '.jobs[0].read.lat_ns.percentile["50.000000"]' "$out/share/out/psync-$us/fio.json")
	idle=$(jq '.jobs[0].read.lat_ns.percentile["50.000000"]' "$out/share/out/pvsync2-hipri-$us/fio.json")
	idle99=$(jq '.jobs[0].read.lat_ns.percentile["99.000000"]' "$out/share/out/pvsync2-hipri-$us/fio.json")
	irq99=$(jq '.jobs[0].read.lat_ns.percentile["99.000000"]' "$out/share/out/psync-$us/fio.json")
	echo "$us us: p50 irq $irq idle $idle ($(awk -v a=$idle -v b=$irq 'BEGIN{printf "%+.1f%%", (a/b-1)*100}')); p99 irq $irq99 idle $idle99"
done
