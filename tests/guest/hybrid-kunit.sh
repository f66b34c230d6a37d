#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: the hybrid polling estimator's KUnit suite (block/blk-poll-test.c)
# passes: the hybrid kernel's kunit flavour (configs/kunit.config on top of
# the release config) is built and booted, and the kernel's KTAP parser
# (tools/testing/kunit/kunit.py parse --json) finds the suite on the
# console with one case per KUNIT_CASE in the source, every one PASS.
# A kernel report on the console (a sleep in atomic context, with the
# flavour's DEBUG_ATOMIC_SLEEP) fails the boot in guest-run.sh.
# Kernels: hybrid:kunit
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
variant_has_patches hybrid || skip "the hybrid series has no patches"
suite=blk-poll-hybrid

# The kunit flavour is a separate O= build: CONFIG_KUNIT changes autoconf.h,
# so the first one rebuilds every object (see docs/hybrid.md for its cost).
start=$(date +%s)
"$PB_ROOT/scripts/kernel-build.sh" hybrid kunit || fail "the hybrid kunit kernel does not build"
echo "kunit kernel built (or up to date) in $(($(date +%s) - start)) s"

guest_job hybrid --flavour kunit <<'EOT' || fail "boot failed: $(cat "$TEST_DIR/boot/status")"
exit 0
EOT

want=$(grep -c 'KUNIT_CASE(' "$(variant_src hybrid)/block/blk-poll-test.c")
[ "$want" -gt 0 ] || fail "no KUNIT_CASE in block/blk-poll-test.c"
# The kernel's own KTAP parser reads the console log (absolute paths: it
# changes into the kernel tree). Its JSON, not its exit status, is the
# verdict: a log with no KTAP header at all also exits 0.
json=$TEST_DIR/kunit.json
python3 "$(variant_src hybrid)/tools/testing/kunit/kunit.py" parse --json="$json" \
	"$TEST_DIR/boot/console.log" >"$TEST_DIR/kunit-parse.txt" 2>&1 || true
[ -s "$json" ] || fail "kunit.py parse wrote no JSON: $(tail -n 3 "$TEST_DIR/kunit-parse.txt")"
sed -n 's/^\[[0-9:]*\] //p' "$TEST_DIR/kunit-parse.txt" | grep -E '^ *(#|\[)' || true
cases=$(jq -c --arg s "$suite" '[.. | objects | select(.name? == $s and has("test_cases")) | .test_cases[]]' "$json")
[ "$(jq length <<<"$cases")" = "$want" ] ||
	fail "suite $suite: $(jq length <<<"$cases") cases in the KTAP report, but the source has $want"
bad=$(jq -r '.[] | select(.status != "PASS") | "\(.name): \(.status)"' <<<"$cases")
[ -z "$bad" ] || fail "cases not passed: $bad"
echo "ok - $suite: $want/$want cases PASS (kunit.py parse)"
