#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: the idle variant loses and hangs no polled I/O when its CPU
# never idles: pvsync2 hipri QD1 with a cpuhog on fio's vCPU, and with a
# hog on every vCPU, completes every I/O without error, the fallback timer
# finds completions (timer_* poll_stats rise), no completion takes longer
# than the hung-task timeout (5 s) and the detector stays silent, and
# SIGKILL ends a polling fio within 2 s while the hog runs.
# The design bound docs/idle.md gives (fallback_us + the EEVDF slice + one
# tick, 2.5 ms) is reported against the measured worst case, not asserted:
# under TCG on a 2-core host it did not hold in 4 of 5 runs (the woken
# waiter waits for its CPU; docs/idle.md, "Under a busy CPU").
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
for c in competitor busy; do
	for w in psync pvsync2-hipri; do
		/pb/cell.sh /share/workloads/randread-4k-qd1-$w.fio $c /share/out/$w@$c || exit 1
	done
done
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

pdelta() {
	awk -v c="$2" '$2 == c { if (FILENAME ~ /after/) s += $3; else s -= $3 } END { print s + 0 }' \
		"$1/poll-stats-before.txt" "$1/poll-stats-after.txt"
}
# Nothing lost or hung first, the latency bound last, so that a missed
# bound does not hide the other results.
over=""
for c in competitor busy; do
	ctl=$out/out/psync@$c
	d=$out/out/pvsync2-hipri@$c
	ios=$(fio_ios "$d/fio.json")
	errs=$(jq '[.jobs[].error] | add' "$d/fio.json")
	[ "$errs" = 0 ] || fail "$c: fio error $errs"
	[ "$ios" -gt 10 ] || fail "$c: only $ios I/Os completed"
	# Idle loop, fallback timer, or the waiter's one look before sleeping.
	found=$(($(pdelta "$d" idle_completions) + $(pdelta "$d" timer_completions) + $(pdelta "$d" task_completions)))
	[ "$found" -ge "$ios" ] || fail "$c: $found polled completions for $ios I/Os"
	tw=$(pdelta "$d" timer_waits) tc=$(pdelta "$d" timer_completions)
	[ "$tw" -gt 0 ] || fail "$c: the fallback timer did not run (timer_waits $tw)"
	[ "$tc" -gt 0 ] || fail "$c: no completion found after a timer wake-up (timer_completions $tc)"
	max_us=$(jq '[.jobs[].read.clat_ns.max] | max / 1000 | floor' "$d/fio.json")
	p99_us=$(jq '[.jobs[].read.clat_ns.percentile["99.000000"]] | max / 1000 | floor' "$d/fio.json")
	ctl_max_us=$(jq '[.jobs[].read.clat_ns.max] | max / 1000 | floor' "$ctl/fio.json")
	echo "$c: $ios I/Os, 0 errors, timer wake-ups $tw, timer completions $tc, idle completions $(pdelta "$d" idle_completions), found before sleeping $(pdelta "$d" task_completions); clat p99 $p99_us us, max $max_us us; psync control max $ctl_max_us us"
	[ "$max_us" -le $((hung_s * 1000000)) ] ||
		fail "$c: an I/O took $max_us us, longer than the hung-task timeout of $hung_s s"
	[ "$max_us" -le "$bound_us" ] ||
		over="$over
$c: max $max_us us, p99 $p99_us us > design bound $bound_us us (psync control max $ctl_max_us us)"
done

read -r _ t0 t1 <"$out/kill.txt"
kill_ms=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", (b - a) * 1000 }')
echo "SIGKILL: fio ended after $kill_ms ms (/proc/uptime, 10 ms resolution)"
[ "$kill_ms" -le $kill_bound_ms ] || fail "SIGKILL took $kill_ms ms, more than $kill_bound_ms ms"
inflight=$(awk '$1 == "polled_inflight" { s += $2 } END { print s + 0 }' "$out/kill-poll-stats.txt")
[ "$inflight" = 0 ] || fail "$inflight polled requests still in flight after the kill"
echo "ok: no I/O lost, failed or hung with a busy CPU; SIGKILL in $kill_ms ms"
if [ -n "$over" ]; then
	echo "measured: the design bound did not hold on this platform:$over"
else
	echo "measured: worst latencies within the design bound of $bound_us us"
fi
