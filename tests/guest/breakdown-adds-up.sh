#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: the path breakdown on a real guest: a traced label
# (trace:1) beside its untraced twin, inline and interrupts (psync on
# baseline-nullb), 10 us null_blk, instruction-count time, one boot each;
# the report's breakdown has every step for every traced cell, the step
# means add up to the system call's mean, user + edge + the system call
# cover fio's mean total latency within 5 %, the trace's I/Os are the
# window's, and the tracing's cost against the twin is reported.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
for v in baseline-nullb inline; do
	[ -f "$(variant_obj "$v")/pollbench-build.env" ] || skip "$v is not built"
done
rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR"
m=$TEST_DIR/breakdown.matrix
printf '%s\n' 'timing icount' 'baseline baseline-nullb' \
	'config baseline-nullb baseline-nullb workloads:randread-4k-qd1-psync' \
	'config irq.traced baseline-nullb trace:1 workloads:randread-4k-qd1-psync' \
	'config inline inline workloads:randread-4k-qd1-pvsync2-hipri' \
	'config inline.traced inline trace:1 workloads:randread-4k-qd1-pvsync2-hipri' \
	'variants baseline-nullb irq.traced inline inline.traced' \
	'workloads randread-4k-qd1-psync randread-4k-qd1-pvsync2-hipri' \
	'conditions alone' 'devices nullb-10us' 'reps 1' 'ios 1000' 'runtime 2' 'ramp 0' >"$m"
export RESULTS_DIR=$TEST_DIR/results
"$PB_ROOT/scripts/bench.sh" --matrix "$m" --run r --seed 1
run=$RESULTS_DIR/r
for l in irq.traced inline.traced; do
	d=$(echo "$run/$l"/*@alone@nullb-10us/1)
	for f in trace.txt.gz fio-null.json syscall-edge.txt; do
		[ -s "$d/$f" ] || fail "$l: no $f in $d"
	done
done
for l in baseline-nullb inline; do
	[ ! -e "$(echo "$run/$l"/*@alone@nullb-10us/1)/trace.txt.gz" ] || fail "$l is not traced, yet has a trace"
done
make -s -C "$PB_ROOT/analysis" >/dev/null
"$PB_ROOT/analysis/pollbench-report" "$run" --no-plots >"$TEST_DIR/report.log" 2>&1 ||
	fail "pollbench-report failed: $(tail -n3 "$TEST_DIR/report.log")"
j=$run/summary.json
for l in irq.traced inline.traced; do
	c=$(jq -c --arg l "$l" '.breakdown.cells[] | select(.variant == $l)' "$j")
	[ -n "$c" ] || fail "$l: no breakdown in summary.json"
	[ "$(jq -r .status <<<"$c")" = ok ] || fail "$l: breakdown $(jq -r '.status + ": " + .reason' <<<"$c")"
	for s in submit device find wake runq return; do
		[ "$(jq -r ".${s}_mean_ns" <<<"$c")" != null ] || fail "$l: no $s step"
	done
	# The step means add up to the system call's mean (one boot).
	jq -e '(.submit_mean_ns + .device_mean_ns + .find_mean_ns + .wake_mean_ns +
		.runq_mean_ns + .return_mean_ns - .syscall_mean_ns) | fabs < 1' <<<"$c" >/dev/null ||
		fail "$l: the step means do not add up to the system call's mean: $c"
	jq -e '.user_ns > 0 and .edge_ns > 0 and .coverage_syscall_only == false and
		.coverage_pct >= 95 and .coverage_pct <= 105 and .coverage_ok' <<<"$c" >/dev/null ||
		fail "$l: user + edge + system call do not cover fio's mean within 5 %: $c"
	jq -e '.ios_parsed == 1000 and .tracing_cost.p50_diff_ns != null' <<<"$c" >/dev/null ||
		fail "$l: not 1000 traced I/Os, or no tracing cost: $c"
	echo "ok - $l: $(jq -r '"find \(.find_mean_ns|floor) ns, wake \(.wake_mean_ns|floor), runq \(.runq_mean_ns|floor); user \(.user_ns|floor), edge \(.edge_ns|floor); coverage \(.coverage_pct*10|floor/10)%; tracing cost p50 +\(.tracing_cost.p50_diff_ns) ns"' <<<"$c")"
done
# Interrupts sleep and are woken; inline's waiter never leaves its vCPU.
jq -e '.breakdown.cells[] | select(.variant == "irq.traced") | .wake_mean_ns > 0 and .runq_mean_ns > 0' "$j" >/dev/null ||
	fail "the interrupt path has no wake-up or run-queue step"
jq -e '.breakdown.cells[] | select(.variant == "inline.traced") | .wake_mean_ns == 0 and .runq_mean_ns == 0' "$j" >/dev/null ||
	fail "inline's waiter was woken, but it polls on its vCPU"
