#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: the quick form of the reliability suite (docs/reliability.md)
# on the idle and hybrid designs (every built variant in make test-full:
# baseline is the pinned kernel, common's code runs in each design, and
# inline's waiter is the base's polling loop, which hybrid's poll phase
# runs and rt-flavour-silent checks on inline's rt kernel), one boot
# each: integrity, signals, contention, CPU
# hotplug, controller reset, bad knob values, privilege, the 5.19 hang
# (sync-poll-waiter-never-sleeps-unwoken) and a 30 s soak, at small sizes;
# each case fails on its own checks or on a kernel report between its markers.
# The cases that need a boot of their own (split-bio-fifo, isolated-cpu) run
# in their own tests (split-bio-waiter-sleeps, isolated-cpu-stays-isolated).
# Timeout: 3600
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
vs=()
for v in $(built_variants); do
	test_full || [ "$v" = idle ] || [ "$v" = hybrid ] && vs+=("$v")
done
[ ${#vs[@]} -gt 0 ] || skip "neither idle nor hybrid is among the variants under test"
args=()
for v in "${vs[@]}"; do args+=(--variant "$v"); done
rm -rf "${TEST_DIR:?}"
mkdir -p "$(dirname "$TEST_DIR")"
rc=0
"$PB_ROOT/scripts/reliability.sh" --quick --no-doc --out "$TEST_DIR" "${args[@]}" \
	--skip-case split-bio-fifo --skip-case isolated-cpu || rc=$?
awk -F'\t' '{ printf "%-9s %-8s %-38s %-9s %s\n", $1, $2, $3, $4, substr($5, 1, 120) }' "$TEST_DIR/results.tsv"
[ $rc = 0 ] || fail "reliability cases failed (results: $TEST_DIR/results.tsv)"
