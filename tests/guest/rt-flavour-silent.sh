#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: the rt flavour (configs/rt.config: PREEMPT_RT, lockdep,
# DEBUG_ATOMIC_SLEEP) of the inline kernel builds, boots, and runs the
# reliability cases that exercise a polled waiter (integrity, and the 5.19
# hang: waiters beside hogs and a SCHED_FIFO cyclictest) with no kernel
# report: no sleeping lock taken in atomic context, no lockdep splat.
# Inline stands for the base's polling loop, which every design runs.
# make test-full adds idle's rt kernel: on PREEMPT_RT the idle design does
# not poll (its idle task cannot take sleeping locks), so there the cases
# check that it falls back to interrupts cleanly. The other variants' rt
# kernels run in `make reliability FLAVOUR=rt`.
# Timeout: 3000
# Kernels: inline:rt
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
want=(inline)
! test_full || want=(inline idle)
vs=()
for v in "${want[@]}"; do
	grep -qx "$v" <<<"$(built_variants)" && vs+=("$v")
done
[ ${#vs[@]} -gt 0 ] || skip "none of ${want[*]} is among the variants under test"
args=()
for v in "${vs[@]}"; do
	"$PB_ROOT/scripts/kernel-build.sh" "$v" rt ||
		fail "$v: the rt flavour does not build"
	grep -qx 'CONFIG_PREEMPT_RT=y' "$(variant_obj "$v" rt)/.config" ||
		fail "$v: the rt kernel has no CONFIG_PREEMPT_RT"
	args+=(--variant "$v")
done
rm -rf "${TEST_DIR:?}"
mkdir -p "$(dirname "$TEST_DIR")"
rc=0
"$PB_ROOT/scripts/reliability.sh" --quick --no-doc --flavour rt --out "$TEST_DIR" "${args[@]}" \
	--case integrity --case sync-poll-waiter-never-sleeps-unwoken || rc=$?
awk -F'\t' '{ printf "%-9s %-8s %-38s %-9s %s\n", $1, $2, $3, $4, substr($5, 1, 120) }' "$TEST_DIR/results.tsv"
[ $rc = 0 ] || fail "rt flavour: reliability cases failed (results: $TEST_DIR/results.tsv)"
# On PREEMPT_RT the idle design must not poll at all: its polled runs
# count no poll.
if [[ " ${vs[*]} " == *" idle "* ]]; then
	polls=$(awk -F'\t' '$1 == "idle" && $3 == "integrity" { print $7 }' "$TEST_DIR/results.tsv" |
		tr ';' '\n' | sed -n 's/^polls_during_polled_runs=//p')
	[ "$polls" = 0 ] || fail "idle (rt): ${polls:-no} polls counted during polled runs; it must not poll on PREEMPT_RT"
fi
echo "ok - rt kernels of ${vs[*]}: cases passed, no kernel report"
