#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make lava-smoke: LAVA's own dispatcher runs one pollbench job on this
# host, and the job comes back as a run analysis/ reads:
#   lava-smoke.sh [--matrix FILE] [--run ID]
# 1. scripts/lava-jobs.sh writes the matrix (default lava/smoke.matrix:
#    one boot, two short null_blk cells) as LAVA jobs;
# 2. lava-run (lava-dispatcher, no server; root) runs the first job against
#    lava/qemu-device.yaml rendered for it (scripts/lava-device.py);
# 3. scripts/lava-import.sh imports its log into results/<run-id>/;
# 4. analysis/pollbench-report writes results/<run-id>/report.md.
# lava-run's files (its log output.yaml, the device dictionary,
# result.yaml) stay in results/<run-id>-lava-qemu/lava-run/. It fails
# unless the job completes, its boot is ok and every cell is kept.
# Needs the matrix's kernel built and the guest image (make lava-smoke
# builds them first).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

matrix=$PB_ROOT/lava/smoke.matrix run_id=""
while [ $# -gt 0 ]; do
	case $1 in
	--matrix) matrix=$2; shift 2 ;;
	--run) run_id=$2; shift 2 ;;
	*) die "unknown argument '$1' (see the header of $0)" ;;
	esac
done
need_tool qemu-system-x86_64
# Not in make deps: the dispatcher pulls in some 250 packages.
command -v lava-run >/dev/null || die "no lava-run: install LAVA's dispatcher (as root: apt-get install lava-dispatcher)"
[ "$(id -u)" = 0 ] || die "lava-run runs as root only"
py=$(lava_python) || die "no python3 imports lava_common (Debian's lava-dispatcher): run 'make deps' (as root)"
[ -x "$PB_ROOT/analysis/pollbench-report" ] || die "no analysis/pollbench-report: run 'make analysis'"
[ -n "$run_id" ] || run_id=lava-smoke-$(date -u +%Y%m%d-%H%M%S)
pb_lock "lava-smoke.sh --run $run_id"

# The emulated NVMe disk is unused by null_blk cells; LAVA unpacks it whole.
gen=$(PB_DISK_SIZE=${PB_DISK_SIZE:-128M} "$PB_ROOT/scripts/lava-jobs.sh" --matrix "$matrix" --run "$run_id" |
	sed -n 's/^lava: //p')
[ -d "$gen/jobs" ] || die "lava-jobs.sh wrote no jobs"
job=$(find "$gen/jobs" -name '*.yaml' | LC_ALL=C sort | head -n1)
lr=$gen/lava-run
mkdir -p "$lr"
"$py" "$PB_ROOT/scripts/lava-device.py" "$PB_ROOT/lava/qemu-device.yaml" "$job" >"$lr/device.yaml"
log "lava-run: ${job#"$PB_ROOT"/} (log: $lr/output.yaml)"
start=$(date +%s)
rc=0
lava-run --job-id "$run_id" --output-dir "$lr" --device "$lr/device.yaml" "$job" 2>"$lr/output.yaml" || rc=$?
secs=$(($(date +%s) - start))
echo "$secs" >"$lr/seconds"
log "lava-run exited $rc after ${secs}s: $(tr '\n' ' ' <"$lr/result.yaml" 2>/dev/null)"
# A failed job is imported too: its boot is kept as failed, for the console.
"$PB_ROOT/scripts/lava-import.sh" --host "$(hostname)" "$job" "$lr/output.yaml"
run=$RESULTS_DIR/$run_id
[ "$rc" = 0 ] || die "lava-run: the job did not complete (status $rc); see $lr/output.yaml and $run/boots/"
for s in "$run"/boots/*/status; do
	[ "$(cat "$s")" = ok ] || die "boot ${s%/status}: $(cat "$s")"
done
want=$(sed -n 's/^  cells: //p' "$job" | tr -d "'")
got=$(find "$run" -name meta.json -path "$run/*/*/*/meta.json" ! -path "$run/boots/*" | wc -l)
[ "$got" = "$want" ] || die "$got of $want cells kept (see the FAILED lines above)"
"$PB_ROOT/analysis/pollbench-report" "$run"
echo "lava-smoke: the job ran under lava-run in ${secs}s; $got cells imported; report: $run/report.md"
echo "run: $run"
