#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: upstream's io_uring hybrid IOPOLL, backported (the
# iouring-hybrid kernel), really sleeps and then polls: on a 50 us null_blk
# poll queue (instruction-count time) guest/tools/uring-lat's hybrid mode
# makes fewer polls per read than classic IOPOLL (at most 90%: it sleeps
# half of the shortest poll time it has seen, measured 84%), every read still
# takes the device's time, and on a kernel without the feature the tool
# says "not supported by this kernel" (exit 3) instead of measuring. A
# time-based cell (guest/cell.sh with ios 0, runtime 1 s after a 1 s ramp,
# as the realtime matrix runs uring-lat) counts in its window exactly the
# reads uring-lat timed.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
for v in iouring-hybrid baseline-nullb; do
	[ -f "$(variant_obj "$v")/pollbench-build.env" ] || skip "$v is not built"
done
# Both guest jobs start with a 50 us null_blk disk with one poll queue.
nullb_setup='
/pb/nullb.sh up 50 || exit 1
'
job="$nullb_setup"'
/pb/kprobes.sh >/dev/null
mkdir -p /share/out
for mode in classic hybrid; do
	flag=""
	[ $mode = hybrid ] && flag=-H
	cat /sys/kernel/tracing/kprobe_profile >/share/out/$mode-kprobes-before.txt
	taskset -c 1 uring-lat -n 2000 $flag -j $mode -o /share/out/$mode.json /dev/nullb0
	echo $? >/share/out/$mode.rc
	cat /sys/kernel/tracing/kprobe_profile >/share/out/$mode-kprobes-after.txt
done
'
guest_job iouring-hybrid --timing icount <<<"$job" || fail "iouring-hybrid: boot failed: $(cat "$TEST_DIR/boot/status")"
out=$(guest_out)/out
for mode in classic hybrid; do
	[ "$(cat "$out/$mode.rc")" = 0 ] || fail "$mode: uring-lat exited $(cat "$out/$mode.rc")"
	ios=$(jq '.jobs[0].read.total_ios' "$out/$mode.json")
	min=$(jq '.jobs[0].read.lat_ns.min' "$out/$mode.json")
	[ "$ios" = 2000 ] || fail "$mode: $ios reads, expected 2000"
	[ "$min" -ge 50000 ] || fail "$mode: a read took $min ns, less than the device's 50 us"
	polls=$(( $(kprobe_hits "$out/$mode-kprobes-after.txt" blk_mq_poll) - $(kprobe_hits "$out/$mode-kprobes-before.txt" blk_mq_poll) ))
	declare "polls_$mode=$polls"
	echo "$mode: $ios reads, $polls polls ($((polls / ios)) per read), mean $(jq '.jobs[0].read.lat_ns.mean | floor' "$out/$mode.json") ns, min $min ns"
done
# shellcheck disable=SC2154 # set by declare above
[ "$polls_hybrid" -gt 0 ] || fail "hybrid made no polls"
# shellcheck disable=SC2154
[ $((polls_hybrid * 10)) -le $((polls_classic * 9)) ] ||
	fail "hybrid polled $polls_hybrid times against classic's $polls_classic: it did not sleep first"
echo "ok - hybrid IOPOLL polls $polls_hybrid times for 2000 reads, classic $polls_classic"

# A kernel without the feature: reported, not measured; and before it, a
# time-based cell, which sets up and tears down its own disk.
job='
PB_IOS=0 PB_RUNTIME=1 PB_RAMP=1 PB_DEVICE=nullb-10us \
	/pb/cell.sh /share/workloads/randread-4k-qd1-uring-iopoll.uring alone /share/timed
echo $? >/share/timed.rc
'"$nullb_setup"'
uring-lat -n 10 -H -o /tmp/x.json /dev/nullb0 2>/share/hybrid.err
echo $? >/share/hybrid.rc
'
guest_job baseline-nullb --timing icount <<<"$job" || fail "baseline-nullb: boot failed: $(cat "$TEST_DIR/boot/status")"
[ "$(cat "$(guest_out)/hybrid.rc")" = 3 ] || fail "uring-lat -H on baseline-nullb exited $(cat "$(guest_out)/hybrid.rc"), expected 3"
grep -q "not supported by this kernel" "$(guest_out)/hybrid.err" || fail "no 'not supported by this kernel': $(cat "$(guest_out)/hybrid.err")"
echo "ok - baseline-nullb: $(cat "$(guest_out)/hybrid.err")"
t=$(guest_out)/timed
[ "$(cat "$(guest_out)/timed.rc")" = 0 ] || fail "time-based cell exited $(cat "$(guest_out)/timed.rc"): $(cat "$t/error.txt" 2>/dev/null)"
timed=$(jq '.jobs[0].read.total_ios' "$t/fio.json")
dev=$(window_delta "$t" dev_ios)
[ "$timed" -gt 100 ] || fail "time-based cell: only $timed timed reads in 1 s"
[ "$dev" = "$timed" ] || fail "time-based cell: $dev device reads in the window, $timed timed: the ramp leaked in"
echo "ok - time-based uring-lat cell: $timed timed reads, $dev device reads in the window"
