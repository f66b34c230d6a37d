#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: a guest that hangs is killed at its time limit and reported
# as a failed run with its console log kept; a guest that panics likewise.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
start=$(date +%s)
if echo 'echo pollbench-test-hang-start >/dev/kmsg; sleep 100000' |
	GUEST_TIMEOUT=25 guest_job baseline; then
	fail "a hanging guest was judged ok"
fi
took=$(($(date +%s) - start))
status=$(cat "$TEST_DIR/boot/status")
[[ $status == "failed: timeout after 25s" ]] || fail "hang status: '$status'"
grep -q pollbench-test-hang-start "$TEST_DIR/boot/console.log" || fail "console log not kept"
[ $took -lt 60 ] || fail "the hang took ${took}s to be killed (limit 25s)"
echo "ok - hang -> '$status' after ${took}s"

if echo 'echo 1 >/proc/sys/kernel/sysrq; echo c >/proc/sysrq-trigger' | guest_job baseline; then
	fail "a panicking guest was judged ok"
fi
status=$(cat "$TEST_DIR/boot/status")
[[ $status == "failed: kernel reported: "* ]] || fail "panic status: '$status'"
grep -q 'Kernel panic' "$TEST_DIR/boot/console.log" || fail "panic not in the kept console log"
echo "ok - panic -> '$status'"
