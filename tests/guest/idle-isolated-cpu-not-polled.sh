#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: (pollbench/003) the idle design keeps isolated CPUs
# isolated. The reliability case isolated-cpu
# (tests/reliability/isolated-cpu.sh, booted with isolcpus=1, busy_irq=0)
# at its quick size on idle: with fio and a hog on the isolated CPU1, CPU0's
# idle loop finds none of its completions; with fio and a hog on CPU0, the
# isolated CPU1's idle loop finds none of CPU0's (fallback timers find
# them); fio alone on CPU1 is still polled for by CPU1's own idle loop.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
grep -qx idle <<<"$(built_variants)" || skip "idle is not among the variants under test"
reliability_case isolated-cpu idle
echo "ok - no idle loop polls across an isolated CPU; the isolated CPU polls for its own waiters"
