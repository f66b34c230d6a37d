#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: (pollbench/003) the polling designs keep isolated CPUs
# isolated. The reliability case isolated-cpu
# (tests/reliability/isolated-cpu.sh, booted with isolcpus=1 and a poll
# queue per CPU, busy_irq=0) at its quick size on idle, inline and hybrid:
# with fio and a hog on the isolated CPU1, CPU0's idle loop finds none of
# its completions; with fio and a hog on CPU0, the isolated CPU1's idle
# loop finds none of CPU0's (fallback timers find them); fio alone on CPU1
# is still polled for by CPU1's own idle loop; and with readers on both
# CPUs at once, CPU1 completes none of CPU0's reads on any of the three
# (before idle v9 and base v6 it did: idle's idle loop and the base's
# sweep polled every poll queue).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
vs=()
for v in idle inline hybrid; do
	grep -qx $v <<<"$(built_variants)" && vs+=("$v")
done
[ ${#vs[@]} -gt 0 ] || skip "no polling design among the variants under test"
reliability_case isolated-cpu "${vs[@]}"
echo "ok - no CPU polls across an isolated CPU on ${vs[*]}; the isolated CPU polls for its own waiters"
