#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: the idle variant loses and hangs no polled I/O when its CPU
# never idles: pvsync2 hipri QD1 with a cpuhog on fio's vCPU, and with a
# hog on every vCPU, completes every I/O without error in both of the
# design's modes. With blk_poll.busy_irq=0 the I/O stays polled: the
# fallback timer finds completions (timer_* poll_stats rise). With
# busy_irq=1 (the default) I/O submitted beside the hog is not polled but
# completes by interrupt (at most 1 in 10 I/Os waits as a polled waiter).
# No completion takes longer than the hung-task timeout (5 s) and the
# detector stays silent, and SIGKILL ends a polling fio within 2 s while
# the hog runs.
# The bounds docs/idle.md gives are reported against the measured worst
# case, not asserted: the polled fallback's (fallback_us + the EEVDF slice
# + one tick, 2.5 ms) did not hold under TCG on a 2-core host in 4 of 5
# runs (the woken waiter waits for its CPU; docs/idle.md, "Under a busy
# CPU"), and busy_irq's is the interrupt path's, measured beside it (psync).
set -euo pipefail
export GUEST_TIMEOUT=${GUEST_TIMEOUT:-400}
. "$(dirname "$0")/../lib.sh"
v=idle
variants=$(built_variants)
grep -qx $v <<<"$variants" || skip "idle is not among the variants under test (${variants//$'\n'/ })"
[ -f "$(variant_obj $v)/arch/x86/boot/bzImage" ] || fail "$v is not built"
hz=$(sed -n 's/^CONFIG_HZ=//p' "$(variant_obj $v)/.config")
[ -n "$hz" ] || fail "no CONFIG_HZ in $(variant_obj $v)/.config"
kill_bound_ms=2000

guest_job $v <<'EOT' || fail "$v: boot failed: $(cat "$TEST_DIR/boot/status")"
export PB_RUNTIME=5 PB_RAMP=1 PB_CPU=1
# A hung polled waiter must be reported (and so fail the boot) quickly.
echo 5 >/proc/sys/kernel/hung_task_timeout_secs || exit 1
{
	echo "hung_task_timeout_secs $(cat /proc/sys/kernel/hung_task_timeout_secs)"
	echo "fallback_us $(cat /sys/module/blk_poll/parameters/fallback_us)"
	echo "base_slice_ns $(cat /sys/kernel/debug/sched/base_slice_ns)"
} >/share/params.txt || exit 1
# The polled fallback (busy_irq=0), then the default (busy_irq=1).
for m in 0 1; do
	echo $m >/sys/module/blk_poll/parameters/busy_irq || exit 1
	for c in competitor busy; do
		for w in psync pvsync2-hipri; do
			/pb/cell.sh /share/workloads/randread-4k-qd1-$w.fio $c /share/out/irq$m/$w@$c || exit 1
		done
	done
done
# The kill below checks a polled waiter: keep it polled beside the hog.
echo 0 >/sys/module/blk_poll/parameters/busy_irq || exit 1
# SIGKILL to a polling fio (one process: --thread) while a hog shares its CPU.
cpuhog -c 1 -t 60 -o /share/kill-hog.txt &
hog=$!
PB_DEV=/dev/nvme0n1 PB_RUNTIME=60 PB_RAMP=0 taskset -c 1 fio --thread \
	--output=/share/kill-fio.txt /share/workloads/randread-4k-qd1-pvsync2-hipri.fio &
fio=$!
sleep 3
t0=$(cut -d' ' -f1 /proc/uptime)
kill -KILL $fio
wait $fio
t1=$(cut -d' ' -f1 /proc/uptime)
kill -TERM $hog
wait $hog
sleep 3
echo "kill_s $t0 $t1" >/share/kill.txt
cat /sys/kernel/debug/block/nvme0n1/hctx*/poll_stats >/share/kill-poll-stats.txt
EOT
out=$(guest_out)
param() { awk -v k="$1" '$1 == k { print $2 }' "$out/params.txt"; }
hung_s=5
[ "$(param hung_task_timeout_secs)" = $hung_s ] || fail "hung_task_timeout_secs was not set: $(cat "$out/params.txt")"
fallback_us=$(param fallback_us)
slice_us=$(($(param base_slice_ns) / 1000))
tick_us=$((1000000 / hz))
bound_us=$((fallback_us + slice_us + tick_us))
echo "documented bound: fallback_us $fallback_us + EEVDF slice $slice_us us + one tick $tick_us us = $bound_us us"

# clat_us FIO-JSON STAT: fio's read completion latency STAT (max, or
# percentile["50.000000"]), in whole us, the largest over its jobs.
clat_us() {
	jq "[.jobs[].read.clat_ns.$2] | max / 1000 | floor" "$1"
}
# Nothing lost or hung first, the latency bounds last, so that a missed
# bound does not hide the other results.
over=""
for m in 0 1; do
	for c in competitor busy; do
		ctl=$out/out/irq$m/psync@$c
		d=$out/out/irq$m/pvsync2-hipri@$c
		what="busy_irq=$m $c"
		ios=$(fio_ios "$d/fio.json")
		errs=$(jq '[.jobs[].error] | add' "$d/fio.json")
		[ "$errs" = 0 ] || fail "$what: fio error $errs"
		[ "$ios" -gt 10 ] || fail "$what: only $ios I/Os completed"
		waits=$(poll_stat_delta "$d" task_waits)
		# Idle loop, fallback timer, or the waiter's one look before sleeping.
		found=$(($(poll_stat_delta "$d" idle_completions) + $(poll_stat_delta "$d" timer_completions) + $(poll_stat_delta "$d" task_completions)))
		tw=$(poll_stat_delta "$d" timer_waits) tc=$(poll_stat_delta "$d" timer_completions)
		if [ $m = 0 ]; then
			[ "$found" -ge "$ios" ] || fail "$what: $found polled completions for $ios I/Os"
			[ "$tw" -gt 0 ] || fail "$what: the fallback timer did not run (timer_waits $tw)"
			[ "$tc" -gt 0 ] || fail "$what: no completion found after a timer wake-up (timer_completions $tc)"
		else
			# The hog is always runnable beside fio: its I/O goes by interrupt.
			[ "$waits" -le $((ios / 10)) ] ||
				fail "$what: $waits polled waits for $ios I/Os, expected at most 1 in 10"
		fi
		max_us=$(clat_us "$d/fio.json" max)
		p99_us=$(clat_us "$d/fio.json" 'percentile["99.000000"]')
		p50_us=$(clat_us "$d/fio.json" 'percentile["50.000000"]')
		ctl_max_us=$(clat_us "$ctl/fio.json" max)
		ctl_p99_us=$(clat_us "$ctl/fio.json" 'percentile["99.000000"]')
		ctl_p50_us=$(clat_us "$ctl/fio.json" 'percentile["50.000000"]')
		echo "$what: $ios I/Os, 0 errors, polled waits $waits, timer wake-ups $tw, timer completions $tc, idle completions $(poll_stat_delta "$d" idle_completions), found before sleeping $(poll_stat_delta "$d" task_completions); clat p50 $p50_us us, p99 $p99_us us, max $max_us us; psync control p50 $ctl_p50_us us, p99 $ctl_p99_us us, max $ctl_max_us us"
		[ "$max_us" -le $((hung_s * 1000000)) ] ||
			fail "$what: an I/O took $max_us us, longer than the hung-task timeout of $hung_s s"
		if [ $m = 0 ]; then
			[ "$max_us" -le "$bound_us" ] ||
				over="$over
$what: max $max_us us, p99 $p99_us us > the polled fallback's bound $bound_us us (psync control max $ctl_max_us us)"
		else
			[ "$max_us" -le $((ctl_max_us + bound_us)) ] ||
				over="$over
$what: max $max_us us > the psync control's max $ctl_max_us us + $bound_us us"
		fi
	done
done

read -r _ t0 t1 <"$out/kill.txt"
kill_ms=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", (b - a) * 1000 }')
echo "SIGKILL: fio ended after $kill_ms ms (/proc/uptime, 10 ms resolution)"
[ "$kill_ms" -le $kill_bound_ms ] || fail "SIGKILL took $kill_ms ms, more than $kill_bound_ms ms"
inflight=$(awk '$1 == "polled_inflight" { s += $2 } END { print s + 0 }' "$out/kill-poll-stats.txt")
[ "$inflight" = 0 ] || fail "$inflight polled requests still in flight after the kill"
echo "ok - no I/O lost, failed or hung with a busy CPU; SIGKILL in $kill_ms ms"
if [ -n "$over" ]; then
	echo "measured: a bound did not hold on this platform:$over"
else
	echo "measured: worst latencies within the bounds (polled: $bound_us us; busy_irq: the psync control's max + $bound_us us)"
fi
