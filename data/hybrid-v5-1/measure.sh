#!/bin/bash
# usage: measure.sh OUTDIR  (hybrid kernel as built, icount, nullb 10/50 us,
# pvsync2 hipri QD1 4 KiB, io_poll_delay -1 (classic) and 0 (adaptive))
set -euo pipefail
cd /work/frozen
export BUILD_DIR=/work/main/build RESULTS_DIR=/work/main/results
. scripts/lib.sh
out=$1
rm -rf "$out"; mkdir -p "$out/share/workloads" "$out/share/out"
cp workloads/*.fio "$out/share/workloads/"
cat > "$out/share/job.sh" <<'EOT'
set -u
export PB_RUNTIME=10 PB_RAMP=0 PB_IOS=4000 PB_CPU=1 PB_PERF=0
for us in 10 50; do
	for d in -1 0; do
		c=d$d-$us
		PB_QUEUE="io_poll_delay=$d" PB_DEVICE=nullb-${us}us /pb/cell.sh /share/workloads/randread-4k-qd1-pvsync2-hipri.fio alone /share/out/$c
		echo $? >/share/out/$c/rc
	done
done
EOT
scripts/guest-run.sh --timing icount --timeout 1200 hybrid "$out" >/dev/null 2>&1 || { echo "boot failed: $(cat $out/status)"; exit 1; }
for us in 10 50; do
	for d in -1 0; do
		f=$out/share/out/d$d-$us/fio.json
		echo "$us us io_poll_delay=$d: rc $(cat $out/share/out/d$d-$us/rc) ios $(jq '.jobs[0].read.total_ios' $f) p50 $(jq '.jobs[0].read.lat_ns.percentile["50.000000"]' $f) p99 $(jq '.jobs[0].read.lat_ns.percentile["99.000000"]' $f) mean $(jq '.jobs[0].read.lat_ns.mean' $f)"
	done
done
