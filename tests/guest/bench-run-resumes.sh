#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: a small bench run produces cells with fio json+, the
# window snapshots and a meta.json naming kernel, QEMU, accelerator and
# timing model; re-running the same run
# id redoes only the missing cell and leaves finished cells untouched.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR"
m=$TEST_DIR/tiny.matrix
printf '%s\n' 'variants baseline' \
	'workloads randread-4k-qd1-psync randread-4k-qd1-iouring-hipri' \
	'conditions alone' 'reps 1' 'runtime 2' 'ramp 0' >"$m"
export RESULTS_DIR=$TEST_DIR/results
"$PB_ROOT/scripts/bench.sh" --matrix "$m" --run r1 --seed 42
run=$RESULTS_DIR/r1
for c in randread-4k-qd1-psync@alone randread-4k-qd1-iouring-hipri@alone; do
	d=$run/baseline/$c/1
	jq -e '.jobs[0].read.clat_ns.bins | length > 0' "$d/fio.json" >/dev/null || fail "$c: no clat bins"
	for k in kernel_release kernel_commit config_hash qemu_version accel timing vcpus host series; do
		jq -e --arg k "$k" 'has($k)' "$d/meta.json" >/dev/null || fail "$c: meta.json lacks $k"
	done
	accel=$(jq -r .accel "$d/meta.json")
	[ "$accel" = tcg ] || [ "$accel" = kvm ] || fail "$c: accel '$accel'"
	[ "$(jq -r .timing "$d/meta.json")" = realtime ] || fail "$c: timing is not the matrix's default, realtime"
	for e in before after; do
		for k in clock_ns dev_ios fio_task_ns cpu0_idle_ns cpu1_idle_ns; do
			grep -q "^$k [0-9][0-9]*$" "$d/window-$e.txt" || fail "$c: window-$e.txt lacks $k"
		done
	done
	echo "ok - $c: $(jq -r '.jobs[0].read.iops | floor' "$d/fio.json") IOPS on $(jq -r .kernel_release "$d/meta.json") under $accel"
done
[ "$(jq -r .seed "$run/run.json")" = 42 ] || fail "seed not recorded"

# Resume: one cell lost, one kept. Only the lost one may run again.
keep=$run/baseline/randread-4k-qd1-psync@alone/1/fio.json
before=$(stat -c %Y "$keep")
rm -rf "$run/baseline/randread-4k-qd1-iouring-hipri@alone"
"$PB_ROOT/scripts/bench.sh" --matrix "$m" --run r1 2>"$TEST_DIR/resume.log"
[ -f "$run/baseline/randread-4k-qd1-iouring-hipri@alone/1/fio.json" ] || fail "resume did not redo the lost cell"
[ "$(stat -c %Y "$keep")" = "$before" ] || fail "resume touched a finished cell"
grep -q "1 cells" "$TEST_DIR/resume.log" || fail "resume ran more than the lost cell: $(cat "$TEST_DIR/resume.log")"
# Capture first: grep -q in a pipe exits early and, under pipefail, the
# writer's SIGPIPE would fail the test (this flaked in CI).
"$PB_ROOT/scripts/bench.sh" --matrix "$m" --run r1 >"$TEST_DIR/again.log" 2>&1
grep -q "done already" "$TEST_DIR/again.log" || fail "a finished run was not skipped: $(cat "$TEST_DIR/again.log")"
echo "ok - resume redid 1 cell and kept the other"
