#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: under instruction-count timing the same cell booted twice
# gives the same body of the latency distribution (p50 and p90 the same or
# one bin apart in fio's latency histogram, whose resolution it is: 64 bins
# per power of two, so 128 ns at 8-16 us) and means that agree within
# their sampling error (4 standard errors of the difference); the cells
# record their timing model, the null_blk device honours its set latency
# on poll queues too (baseline-nullb's io_uring IOPOLL never completes
# faster than the device), and the measured window's I/O count is fio's.
# The tail is not held: host-timed events (the 9p share, the serial
# console, the second vCPU's turns) land at other instructions in each
# boot, so p99 and the mean move between boots (data/icount-spread-1).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
for v in baseline-nullb inline; do
	[ -f "$(variant_obj "$v")/pollbench-build.env" ] || skip "$v is not built"
done
rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR"
m=$TEST_DIR/icount.matrix
printf '%s\n' 'timing icount' 'baseline baseline-nullb' \
	'config baseline-nullb baseline-nullb workloads:randread-4k-qd1-iouring-hipri' \
	'variants baseline-nullb inline' \
	'workloads randread-4k-qd1-psync randread-4k-qd1-pvsync2-hipri randread-4k-qd1-iouring-hipri' \
	'conditions alone' 'devices nullb-10us' 'reps 2' 'ios 1000' 'runtime 2' 'ramp 0' >"$m"
export RESULTS_DIR=$TEST_DIR/results
"$PB_ROOT/scripts/bench.sh" --matrix "$m" --run r --seed 1
run=$RESULTS_DIR/r
[ "$(jq -r .timing "$run/run.json")" = icount ] || fail "run.json does not say timing icount"

# one_bin A B: |A - B| is at most one bin of fio's histogram at the
# larger value (2^(msb - 6) ns, fio's FIO_IO_U_PLAT_BITS): a percentile
# that sits on a bin edge reads as either bin.
one_bin() { awk -v a="$1" -v b="$2" 'BEGIN { m = a > b ? a : b; w = 1; while (m >= 128) { m = int(m / 2); w *= 2 }; d = a - b; if (d < 0) d = -d; exit !(d <= w) }'; }
# same_mean M1 S1 M2 S2 N: |M1 - M2| is at most 4 standard errors of the
# difference of two means of N samples with standard deviations S1, S2.
same_mean() { awk -v m1="$1" -v s1="$2" -v m2="$3" -v s2="$4" -v n="$5" 'BEGIN { d = m1 - m2; if (d < 0) d = -d; exit !(d <= 4 * sqrt((s1 * s1 + s2 * s2) / n)) }'; }

checked=0
for cell in "$run"/*/*@alone@nullb-10us; do
	name=${cell#"$run"/}
	p50=() p90=() mean=() sd=()
	for r in 1 2; do
		d=$cell/$r
		[ "$(jq -r .timing "$d/meta.json")" = icount ] && [ "$(jq -r .icount_shift "$d/meta.json")" = 0 ] &&
			[ "$(jq -r .accel "$d/meta.json")" = tcg ] || fail "$name/$r: meta.json does not say icount, shift 0, tcg"
		lat=$(jq -c '.jobs[0].read.lat_ns' "$d/fio.json")
		[ "$(jq '.bins | length' <<<"$lat")" -gt 0 ] || fail "$name/$r: no total-latency bins"
		min=$(jq '.min' <<<"$lat")
		[ "$min" -ge 10000 ] || fail "$name/$r: an I/O took $min ns, less than the device's 10 us"
		ios=$(fio_ios "$d/fio.json")
		win=$(window_delta "$d" dev_ios)
		[ "$ios" = 1000 ] && [ "$win" = 1000 ] || fail "$name/$r: fio did $ios I/Os, the window saw $win, the matrix asked 1000"
		p50+=("$(jq '.percentile["50.000000"]' <<<"$lat")")
		p90+=("$(jq '.percentile["90.000000"]' <<<"$lat")")
		mean+=("$(jq '.mean' <<<"$lat")")
		sd+=("$(jq '.stddev' <<<"$lat")")
	done
	one_bin "${p50[0]}" "${p50[1]}" || fail "$name: p50 ${p50[0]} against ${p50[1]} ns, more than one histogram bin apart"
	one_bin "${p90[0]}" "${p90[1]}" || fail "$name: p90 ${p90[0]} against ${p90[1]} ns, more than one histogram bin apart"
	same_mean "${mean[0]}" "${sd[0]}" "${mean[1]}" "${sd[1]}" 1000 ||
		fail "$name: mean ${mean[0]} against ${mean[1]} ns (sd ${sd[0]}, ${sd[1]}), more than 4 standard errors apart"
	echo "ok - $name: p50 ${p50[0]} / ${p50[1]} ns, p90 ${p90[0]} / ${p90[1]} ns, mean ${mean[0]} / ${mean[1]} ns over two boots"
	checked=$((checked + 1))
done
[ $checked = 4 ] || fail "expected 4 cells, checked $checked"
