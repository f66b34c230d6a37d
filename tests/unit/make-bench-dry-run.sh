#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: the two ways of asking make bench what it would do touch
# nothing: `make bench DRY_RUN=1` (the spelling hw-bench uses) prints the
# boots, cells and kernels to build and says nothing ran; `make -n bench`
# only prints (its recipe names no $(MAKE), which -n would run), and its
# recipe ends by printing answer.txt, not the whole report. Neither
# creates a run folder, and a bad matrix still fails before anything.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR"
cd "$PB_ROOT"
# No results folder yet (a fresh clone) is an empty listing.
snapshot() { { ls -1 "$RESULTS_DIR" 2>/dev/null || true; } | LC_ALL=C sort; }
before=$(snapshot)
out=$(make -s bench DRY_RUN=1 QUICK=1 2>&1) || fail "make bench DRY_RUN=1 QUICK=1 failed: $out"
grep -q '^total: [0-9]* boots, [0-9]* cells$' <<<"$out" || fail "no boot and cell total: $out"
grep -q '^kernels to build: baseline-nullb inline' <<<"$out" || fail "no kernel list: $out"
grep -q 'nothing was built or run' <<<"$out" || fail "does not say nothing ran: $out"
[ "$(snapshot)" = "$before" ] || fail "DRY_RUN=1 changed $RESULTS_DIR"
echo "ok - make bench DRY_RUN=1: $(grep '^total:' <<<"$out"); $(grep '^kernels' <<<"$out")"
out=$(make -n bench QUICK=1 2>&1) || fail "make -n bench failed: $out"
grep -q 'scripts/bench.sh --matrix matrix/quick.matrix' <<<"$out" || fail "make -n does not print the bench command: $out"
# It ends by printing the short answer, not the whole report.
grep -q 'cat "$run/answer.txt"$' <<<"$out" || fail "make bench does not end by printing answer.txt: $out"
[ "$(snapshot)" = "$before" ] || fail "make -n bench changed $RESULTS_DIR"
echo "ok - make -n bench printed $(wc -l <<<"$out") lines and ran nothing"
printf 'variants nonexistent\n' >"$TEST_DIR/bad.matrix"
expect_fail "make bench DRY_RUN=1 with a bad matrix" "missing 'workloads'" \
	make -s bench DRY_RUN=1 MATRIX="$TEST_DIR/bad.matrix"
