#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: bench.sh --list prints every boot and cell a matrix would
# run, with no kernel built and nothing booted: per-label workloads,
# devices, extra cells and the competitor reference, in an order fixed by
# the seed; --kernels names the kernels to build; every shipped matrix
# reads cleanly.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR"
m=$PB_ROOT/tests/unit/matrices/labels.matrix
export RESULTS_DIR=$TEST_DIR/results BUILD_DIR=$TEST_DIR/build
out=$TEST_DIR/list
"$PB_ROOT/scripts/bench.sh" --matrix "$m" --list --seed 7 >"$out"
[ ! -e "$RESULTS_DIR" ] || fail "--list created a results folder"
head -n1 "$out" | grep -q "timing icount, seed 7, 6 boots" || fail "header: $(head -n1 "$out")"
tail -n1 "$out" | grep -qx "total: 6 boots, 38 cells" || fail "total: $(tail -n1 "$out")"
# cells LABEL: the sorted cells of LABEL's first boot.
cells() {
	awk -v l="$1" '/^boot / { on = ($3 == l && !done); if (on) done = 1; next } on && /^  / { print $1 }' "$out" | LC_ALL=C sort
}
want_in=$(printf '%s\n' none@competitor-only \
	randread-4k-qd1-pvsync2-hipri@{alone,cyclictest}@nullb-{2,20}us | LC_ALL=C sort)
[ "$(cells in)" = "$want_in" ] || fail "label in runs: $(cells in | tr '\n' ' ')"
[ "$(cells hyb | wc -l)" = 7 ] || fail "label hyb: $(cells hyb | tr '\n' ' ')"
cells hyb | grep -qx 'randread-4k-qd1-psync@alone@nullb-20us' || fail "hyb lacks its psync cell"
[ "$(cells baseline-nullb | wc -l)" = 7 ] || fail "baseline-nullb: $(cells baseline-nullb | tr '\n' ' ')"
grep -q '^boot [0-9]*: in rep 2 (kernel inline): 5 cells$' "$out" || fail "no 'in rep 2' boot line"
"$PB_ROOT/scripts/bench.sh" --matrix "$m" --list --seed 7 | cmp -s - "$out" || fail "same seed, different order"
"$PB_ROOT/scripts/bench.sh" --matrix "$m" --list --seed 8 | cmp -s - "$out" && fail "another seed gave the same order"
[ "$("$PB_ROOT/scripts/bench.sh" --matrix "$m" --kernels | tr '\n' ' ')" = "baseline-nullb hybrid inline " ] ||
	fail "--kernels: $("$PB_ROOT/scripts/bench.sh" --matrix "$m" --kernels | tr '\n' ' ')"
[ "$("$PB_ROOT/scripts/bench.sh" --matrix "$m" --kernels --variant hybrid)" = hybrid ] || fail "--variant narrows --kernels"
# uring-lat workloads in a time-based matrix (ios 0, runtime and ramp):
# accepted, run only by the label that names them.
"$PB_ROOT/scripts/bench.sh" --matrix "$PB_ROOT/tests/unit/matrices/uring-time.matrix" --list --seed 7 >"$out"
tail -n1 "$out" | grep -qx "total: 4 boots, 10 cells" || fail "uring-time total: $(tail -n1 "$out")"
want_ioh=$(printf '%s\n' randread-4k-qd1-uring-iopoll@{alone,competitor} randread-4k-qd1-uring-hybrid@cyclictest | LC_ALL=C sort)
[ "$(cells ioh)" = "$want_ioh" ] || fail "uring-time label ioh runs: $(cells ioh | tr '\n' ' ')"
[ "$(cells base)" = "$(printf '%s\n' randread-4k-qd1-psync@{alone,competitor})" ] || fail "uring-time label base runs: $(cells base | tr '\n' ' ')"
# The realtime matrix carries the io_uring IOPOLL arm.
"$PB_ROOT/scripts/bench.sh" --matrix "$PB_ROOT/matrix/realtime.matrix" --list --seed 7 >"$out"
cells iouring-hybrid | grep -qx 'randread-4k-qd1-uring-hybrid@alone' || fail "realtime.matrix: no iouring-hybrid uring-hybrid@alone cell"
# A real machine's matrix (timing hardware): its hw: knobs are read per
# label; bench refuses it (tests/unit/bad-input-clear-errors.sh), the
# hardware runner's dry run lists it (tests/unit/hw-dry-run.sh).
hw_read() {
	bash -c '. "$1/scripts/lib.sh"; . "$1/scripts/matrix.sh"; matrix_read "$2"
		for v in "${LABELS[@]}"; do echo "$v ${KERNEL_OF[$v]} [${CFG_CMDLINE[$v]}] [${CFG_HW[$v]}] $(label_cells "$v" | wc -l)"; done' \
		sh "$PB_ROOT" "$1"
}
hw_read "$PB_ROOT/tests/unit/matrices/hardware.matrix" >"$out" || fail "the hardware fixture does not read"
want=$(printf '%s\n' "baseline baseline [] [] 4" "shallow baseline [] [cpuidle_governor=haltpoll cstate_max=1] 4" \
	"idlepoll baseline [idle=poll] [] 4" "in4 inline [] [poll_queues=4 smt=off] 2")
[ "$(cat "$out")" = "$want" ] || fail "hardware fixture labels: $(cat "$out")"
n=0
for f in "$PB_ROOT"/matrix/*.matrix; do
	if grep -qE '^timing[[:space:]]+hardware' "$f"; then
		hw_read "$f" >/dev/null || fail "$f does not read"
	else
		"$PB_ROOT/scripts/bench.sh" --matrix "$f" --list >/dev/null || fail "$f does not read"
	fi
	n=$((n + 1))
done
echo "ok - --list and --kernels on fixtures (uring-lat on a run time too, hw: knobs per label); $n shipped matrices read"
