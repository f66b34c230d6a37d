#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: bad arguments, unknown variants, bad matrices and missing
# tools stop every entry point with a clear message and a non-zero exit,
# and leave earlier results alone.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR"
s=$PB_ROOT/scripts
expect_fail "kernel-build unknown variant" "unknown variant 'nonexistent'" "$s/kernel-build.sh" nonexistent
expect_fail "kernel-build unknown flavour" "unknown flavour 'fast'" "$s/kernel-build.sh" baseline fast
expect_fail "guest-run unknown variant" "unknown variant 'nonexistent'" "$s/guest-run.sh" nonexistent "$TEST_DIR/b"
expect_fail "guest-run bad smp" "--smp must be 1..8" "$s/guest-run.sh" --smp 99 baseline "$TEST_DIR/b"
expect_fail "guest-run bad option" "unknown option '--frobnicate'" "$s/guest-run.sh" --frobnicate baseline "$TEST_DIR/b"
expect_fail "accel bad ACCEL" "ACCEL must be kvm or tcg" env ACCEL=xen "$s/accel.sh" baseline
expect_fail "bench missing matrix" "matrix file '/nonexistent' not found" "$s/bench.sh" --matrix /nonexistent

# A results folder with an earlier run in it: bad input must not touch it.
results=$TEST_DIR/results
mkdir -p "$results/earlier/baseline/x@alone/1"
echo keep >"$results/earlier/baseline/x@alone/1/fio.json"
m=$TEST_DIR/m
printf 'variants nonexistent\nworkloads randread-4k-qd1-psync\nconditions alone\nreps 1\nruntime 1\nramp 0\n' >"$m"
expect_fail "bench unknown variant" "unknown variant 'nonexistent'" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
printf 'variants baseline\nworkloads no-such-workload\nconditions alone\nreps 1\nruntime 1\nramp 0\n' >"$m"
expect_fail "bench unknown workload" "no workloads/no-such-workload.fio|is not built" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
printf 'variants baseline\nworkloads randread-4k-qd1-psync\nconditions upside-down\nreps 1\nruntime 1\nramp 0\n' >"$m"
expect_fail "bench unknown condition" "unknown condition 'upside-down'|is not built" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
printf 'variants baseline\nworkloads randread-4k-qd1-psync\nconditions alone\nreps -3\nruntime 1\nramp 0\n' >"$m"
expect_fail "bench bad reps" "'reps' must be a positive integer" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
printf 'variants baseline\ncolour blue\n' >"$m"
expect_fail "bench unknown key" "unknown key 'colour'" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
expect_fail "make bench VARIANT=nonexistent" "unknown variant 'nonexistent'" \
	env RESULTS_DIR="$results" make -s -C "$PB_ROOT" bench VARIANT=nonexistent

# A missing tool: a PATH with only what is needed to reach the check.
mkdir -p "$TEST_DIR/bin"
ln -sf "$(command -v dirname)" "$TEST_DIR/bin/dirname"
expect_fail "bench without jq" "required tool 'jq' not found" env PATH="$TEST_DIR/bin" "$s/bench.sh"
expect_fail "guest-image without fio" "required tool '(busybox|fio)' not found" env PATH="$TEST_DIR/bin" "$s/guest-image.sh"

[ "$(cat "$results/earlier/baseline/x@alone/1/fio.json")" = keep ] || fail "an earlier result was changed"
[ "$(find "$results" -mindepth 1 -maxdepth 1 | wc -l)" = 1 ] || fail "bad input created a run folder: $(ls "$results")"
