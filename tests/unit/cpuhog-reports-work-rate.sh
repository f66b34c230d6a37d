#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: the competitor builds warning-free, runs pinned for the time
# asked, reports a positive work rate, and rejects bad arguments.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR"
make -s -C "$PB_ROOT/guest/tools" OUT="$TEST_DIR"
"$TEST_DIR/cpuhog" -c 0 -t 0.5 -o "$TEST_DIR/out.txt"
rate=$(awk '$1 == "units_per_sec" { print int($2) }' "$TEST_DIR/out.txt")
wall=$(awk '$1 == "wall_seconds" { print $2 }' "$TEST_DIR/out.txt")
[ "$rate" -gt 0 ] || fail "work rate $rate"
awk -v w="$wall" 'BEGIN { exit !(w >= 0.5 && w < 1.5) }' || fail "ran ${wall}s for -t 0.5"
expect_fail "bad -t" "usage" "$TEST_DIR/cpuhog" -t abc
expect_fail "bad -c" "usage" "$TEST_DIR/cpuhog" -c -1
echo "ok - $rate units/s over ${wall}s"
