#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: the quick form of the scale matrices (matrix/scale-quick.matrix:
# 8 vCPUs, a submit and a poll queue per vCPU, 1, 8 and 16 QD1 readers
# pinned one to a vCPU, interrupts and the idle design, instruction-count
# time, two boots each; unpinned, the scheduler puts a lone reader on
# another vCPU in each boot and idle's p50 moved from 19.6 to 18.0 us). Every cell ran its readers as that many fio jobs from the
# filled-in template kept with the boot, on per-vCPU null_blk queues, and
# the readers' p50s repeat between the two boots (the determinism check at
# 8 vCPUs): the median reader's p50 within two bins of fio's histogram, and
# sorted, each reader's within 5 % of the other boot's (first run: at most
# 3.14 %, idle's 16 readers; the vCPUs' turns land differently in each
# boot: docs/methodology.md, "Several vCPUs on one clock"). The report has
# its Scale section, with the readers' fairness.
# Timeout: 900
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
for v in baseline-nullb idle; do
	[ -f "$(variant_obj "$v")/pollbench-build.env" ] || skip "$v is not built"
done
rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR"
export RESULTS_DIR=$TEST_DIR/results
"$PB_ROOT/scripts/bench.sh" --matrix "$PB_ROOT/matrix/scale-quick.matrix" --run r --seed 1
run=$RESULTS_DIR/r
[ "$(jq -r .timing "$run/run.json")" = icount ] || fail "run.json does not say timing icount"
[ "$(jq -r .nullb_queues "$run/run.json")" = percpu ] || fail "run.json does not record the per-vCPU queues"

# two_bins A B: |A - B| is at most two bins of fio's histogram at the larger
# value (a bin is 2^(msb - 6) ns).
two_bins() { awk -v a="$1" -v b="$2" 'BEGIN { m = a > b ? a : b; w = 1; while (m >= 128) { m = int(m / 2); w *= 2 }; d = a - b; if (d < 0) d = -d; exit !(d <= 2 * w) }'; }
p50s() { jq -r '[.jobs[].read.clat_ns.percentile["50.000000"]] | sort | .[]' "$1"; }
checked=0
for d in "$run"/*/randread-4k-r*; do
	cell=${d##*/} label=$(basename "$(dirname "$d")")
	n=${cell#randread-4k-r}
	n=${n%%[!0-9]*}
	for r in 1 2; do
		[ "$(jq '.jobs | length' "$d/$r/fio.json")" = "$n" ] || fail "$label/$cell/$r: $(jq '.jobs | length' "$d/$r/fio.json") fio jobs, not $n"
	done
	mapfile -t a < <(p50s "$d/1/fio.json")
	mapfile -t b < <(p50s "$d/2/fio.json")
	m=$((n / 2))
	two_bins "${a[$m]}" "${b[$m]}" || fail "$label/$cell: the median reader's p50 differs between boots: ${a[$m]} against ${b[$m]}"
	worst=0
	for i in "${!a[@]}"; do
		worst=$(awk -v w="$worst" -v x="${a[$i]}" -v y="${b[$i]}" 'BEGIN { d = (x > y ? x - y : y - x) / (x > y ? x : y) * 100; printf "%.2f", (d > w ? d : w) }')
	done
	awk -v w="$worst" 'BEGIN { exit !(w <= 5) }' || fail "$label/$cell: a reader's p50 moved $worst % between boots: ${a[*]} against ${b[*]}"
	echo "ok - $label $cell: $n readers, median p50 ${a[$m]} and ${b[$m]} ns, readers within $worst %"
	checked=$((checked + 1))
done
[ "$checked" = 6 ] || fail "checked $checked cells, expected 6"
# The filled-in template is what the boot ran, and the queues were per vCPU.
f=$(find "$run/boots" -path '*/share/workloads/randread-4k-r16pin-psync.fio' | head -n 1)
[ -n "$f" ] && grep -qx "numjobs=16" "$f" || fail "no boot kept a filled-in randread-4k-r16pin-psync.fio"
q=$(find "$run/idle" -name poll-stats-after.txt | head -n 1)
[ "$(grep -c '^nullb0/hctx[0-9]*/' "$q" | head -n 1)" -gt 0 ] || fail "no null_blk poll counters in $q"
nq=$(sed -n 's|^nullb0/hctx\([0-9]*\)/.*|\1|p' "$q" | sort -un | wc -l)
[ "$nq" = 16 ] || fail "null_blk had $nq hardware queues, not 8 submit + 8 poll"
"$PB_ROOT/analysis/pollbench-report" "$run" --no-plots >"$TEST_DIR/report.log" 2>&1 ||
	fail "the report failed: $(tail -n 3 "$TEST_DIR/report.log")"
grep -q '^## Scale' "$run/report.md" && grep -Eq '^\| design +\| r8 IOPS \| r8 CPU us \| r8 p50 us \| r8 p99 us \| r8 Jain \|$' "$run/report.md" ||
	fail "report.md has no Scale section with the readers' fairness"
jq -e '[.cells[] | select(.cell | test("-r8pin-")) | .reader_jain] | length == 2 and all(. > 0 and . <= 1)' \
	"$run/summary.json" >/dev/null || fail "summary.json has no reader_jain in (0, 1] for the 8-reader cells"
echo "ok - report: Scale section, readers' fairness per cell"
