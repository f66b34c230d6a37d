#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: the poll counters of the right context rise (debugfs
# poll_stats of nvme0n1, before/after each cell): pvsync2 hipri QD1 polls
# in task context on inline (task_polls, task_completions), in the idle
# loop on idle (idle_polls, idle_completions; timer_* with every vCPU
# busy and blk_poll.busy_irq=0; with blk_poll.idle_spin_us=0, one task
# poll per wait at most, the look before the first sleep),
# and sleeps then polls on hybrid (at io_poll_delay=0: timer_sleeps,
# task_polls); common and baseline count no poll; psync counts no poll on
# any variant.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

# pstat DIR WHEN COUNTER: COUNTER summed over nvme0n1's hardware queues in
# DIR/poll-stats-WHEN.txt (lines "nvme0n1/hctxN/poll_stats NAME VALUE").
pstat() {
	awk -v c="$3" '$1 ~ /^nvme0n1\/hctx[0-9]+\/poll_stats$/ && $2 == c { s += $3 } END { print s + 0 }' \
		"$1/poll-stats-$2.txt"
}
# pdelta DIR COUNTER: after minus before.
pdelta() { echo $(($(pstat "$1" after "$2") - $(pstat "$1" before "$2"))); }
# all_polls DIR: polls of every context, after minus before.
all_polls() { echo $(($(pdelta "$1" task_polls) + $(pdelta "$1" idle_polls) + $(pdelta "$1" timer_polls))); }

# check DIR WHAT COUNTER OP VALUE: assert the counter's rise compares so
# (OP is -eq, -gt or -ge).
check() {
	local d=$1 what=$2 c=$3 op=$4 val=$5 got ok=0
	got=$(pdelta "$d" "$c")
	case $op in
	-eq) [ "$got" -eq "$val" ] && ok=1 ;;
	-gt) [ "$got" -gt "$val" ] && ok=1 ;;
	-ge) [ "$got" -ge "$val" ] && ok=1 ;;
	*) fail "check: unknown operator '$op'" ;;
	esac
	[ $ok = 1 ] || fail "$what: $c rose by $got, expected $op $val"
}

for v in $(built_variants); do
	conditions=alone
	[ "$v" = idle ] && conditions="alone busy"
	{
		echo "export PB_RUNTIME=3 PB_RAMP=0 PB_CPU=1 CONDITIONS='$conditions'"
		# hybrid polls classically at io_poll_delay -1; 0 is its adaptive
		# sleep-then-poll mode, the one to check.
		[ "$v" = hybrid ] && echo 'echo 0 >/sys/block/nvme0n1/queue/io_poll_delay || exit 1'
		# idle completes I/O submitted beside other work by interrupt
		# (blk_poll.busy_irq); keep it polled to see the fallback timer.
		[ "$v" = idle ] && echo 'echo 0 >/sys/module/blk_poll/parameters/busy_irq || exit 1'
		# The idle loop's polling is the claim: no poll window before the
		# waiter's first sleep (pollbench/004 checks the window).
		[ "$v" = idle ] && echo 'echo 0 >/sys/module/blk_poll/parameters/idle_spin_us || exit 1'
		cat <<'EOT'
/pb/cell.sh /share/workloads/randread-4k-qd1-psync.fio alone /share/out/psync@alone || exit 1
for c in $CONDITIONS; do
	/pb/cell.sh /share/workloads/randread-4k-qd1-pvsync2-hipri.fio "$c" /share/out/pvsync2-hipri@$c || exit 1
done
EOT
	} | guest_job "$v" || fail "$v: boot failed: $(cat "$TEST_DIR/boot/status")"
	out=$(guest_out)/out

	d=$out/psync@alone
	ios=$(fio_ios "$d/fio.json")
	[ "$ios" -gt 100 ] || fail "$v psync: only $ios I/Os"
	[ "$(all_polls "$d")" = 0 ] || fail "$v psync: $(all_polls "$d") polls for interrupt-driven I/O"
	echo "ok - $v psync: $ios I/Os, no poll counted"

	for c in $conditions; do
		d=$out/pvsync2-hipri@$c
		what="$v pvsync2-hipri@$c"
		ios=$(fio_ios "$d/fio.json")
		# With every vCPU busy each polled I/O of the idle variant waits for
		# the fallback timer and then for its CPU: few I/Os in 3 s.
		min_ios=100
		[ "$c" = busy ] && min_ios=10
		[ "$ios" -gt $min_ios ] || fail "$what: only $ios I/Os"
		# The counters exist wherever the base series is applied.
		if [ "$v" != baseline ]; then
			[ -n "$(awk '$2 == "task_polls"' "$d/poll-stats-after.txt")" ] ||
				fail "$what: no poll_stats for nvme0n1 in debugfs"
		fi
		case $v in
		baseline | common)
			[ "$(all_polls "$d")" = 0 ] || fail "$what: $(all_polls "$d") polls, expected none"
			;;
		inline)
			check "$d" "$what" task_polls -ge "$ios"
			check "$d" "$what" task_completions -ge $((ios * 9 / 10))
			check "$d" "$what" idle_polls -eq 0
			check "$d" "$what" timer_polls -eq 0
			;;
		idle)
			# One look before the first sleep, no more: the waiter never spins.
			[ "$(pdelta "$d" task_polls)" -le "$(pdelta "$d" task_waits)" ] ||
				fail "$what: $(pdelta "$d" task_polls) task polls for $(pdelta "$d" task_waits) waits"
			if [ "$c" = alone ]; then
				# Nothing else to run: of the completions the look did
				# not find, the idle loop finds most. (How many the look
				# finds depends on the host: the emulated disk completes
				# in host time, and a loaded host slows the guest, so the
				# look found 72-82% on a host at load 5-8.)
				slept=$((ios - $(pdelta "$d" task_completions)))
				check "$d" "$what" idle_waits -gt 0
				check "$d" "$what" idle_polls -ge $((slept / 2))
				check "$d" "$what" idle_completions -ge $((slept / 2))
			else
				# Every vCPU busy: the fallback timer's wake-ups find them.
				check "$d" "$what" timer_waits -gt 0
				check "$d" "$what" timer_polls -gt 0
				check "$d" "$what" timer_completions -gt 0
			fi
			# Every completion was found by a poll of some context. Since
			# idle v9 the idle loop polls outside the waiters' list lock,
			# so a waiter can return, and fio end, before the poller that
			# completed its last I/O has added it to the counters: allow
			# one completion per vCPU still being counted at the end.
			found=$(($(pdelta "$d" idle_completions) + $(pdelta "$d" timer_completions) + $(pdelta "$d" task_completions)))
			[ "$found" -ge $((ios - 2)) ] || fail "$what: $found polled completions for $ios I/Os"
			;;
		hybrid)
			check "$d" "$what" timer_sleeps -gt 0
			check "$d" "$what" task_polls -gt 0
			check "$d" "$what" task_completions -ge $((ios * 9 / 10))
			check "$d" "$what" idle_polls -eq 0
			;;
		esac
		printf 'ok - %s: %s I/Os; task polls %s completions %s sleeps %s; idle polls %s completions %s; timer polls %s completions %s waits %s sleeps %s\n' \
			"$what" "$ios" "$(pdelta "$d" task_polls)" "$(pdelta "$d" task_completions)" \
			"$(pdelta "$d" task_sleeps)" "$(pdelta "$d" idle_polls)" "$(pdelta "$d" idle_completions)" \
			"$(pdelta "$d" timer_polls)" "$(pdelta "$d" timer_completions)" "$(pdelta "$d" timer_waits)" \
			"$(pdelta "$d" timer_sleeps)"
	done
done
