#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: the hybrid kernel sleeps, then polls: pvsync2 hipri QD1 on
# QEMU NVMe and on a 200 us null_blk disk, with queue/io_poll_delay fixed,
# 0 (adaptive) and -1; the poll accounting shows timer sleeps and task polls
# where a sleep is due and no sleep at -1, the estimator took one sample per
# polled I/O in adaptive mode and none in the others (no QUEUE_FLAG_STATS on
# either device) and estimates the device
# time, not the oversleep; fio verify=crc32c passes with every I/O sleeping
# first; the default is -1, and bad values get -EINVAL with the setting
# unchanged.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
variant_has_patches hybrid || skip "the hybrid series has no patches"
[ -f "$(variant_obj hybrid)/pollbench-build.env" ] || fail "hybrid is not built"

guest_job hybrid <<'EOT' || fail "boot failed: $(cat "$TEST_DIR/boot/status")"
set -u
out=/share/out
mkdir -p $out
knob=/sys/block/nvme0n1/queue/io_poll_delay
cat $knob >$out/default.txt

# Bad values: each write must fail and leave 25 in place; good ones stick.
echo 25 >$knob || exit 1
for v in -2 -1000 1000001 99999999999 abc 12abc ""; do
	err=$( (echo "$v" >$knob) 2>&1) && rc=0 || rc=$?
	echo "[$v] rc=$rc now=$(cat $knob) err=$err" >>$out/bad.txt
done
for v in 1000000 0 -1; do
	(echo "$v" >$knob) 2>/dev/null && rc=0 || rc=$?
	echo "[$v] rc=$rc now=$(cat $knob)" >>$out/good.txt
done

# snap DEV FILE: "file counter value" of every hctx of DEV.
snap() {
	for f in /sys/kernel/debug/block/$1/hctx*/poll_stats \
		/sys/kernel/debug/block/$1/hctx*/poll_hybrid; do
		[ -f "$f" ] && sed "s|^|${f##*/} |" "$f"
	done >"$2"
	return 0
}
# run DEV TAG DELAY: 3 s of pvsync2 hipri QD1 at io_poll_delay DELAY.
run() {
	echo "$3" >/sys/block/$1/queue/io_poll_delay || return 1
	snap "$1" $out/$2.before
	PB_DEV=/dev/$1 PB_RUNTIME=3 PB_RAMP=0 taskset -c 1 fio --output-format=json \
		--output=$out/$2.json /share/workloads/randread-4k-qd1-pvsync2-hipri.fio \
		>$out/$2.log 2>&1 || return 1
	snap "$1" $out/$2.after
}
run nvme0n1 nvme.fixed20 20 || exit 1
run nvme0n1 nvme.adaptive 0 || exit 1
run nvme0n1 nvme.classic -1 || exit 1
# Integrity with every wait sleeping, then polling: 32 MiB written in
# 4-64 KiB blocks with crc32c headers and read back.
echo 20 >$knob || exit 1
snap nvme0n1 $out/verify.before
fio --name=verify --filename=/dev/nvme0n1 --direct=1 --size=32m --bsrange=4k-64k \
	--rw=randwrite --ioengine=pvsync2 --hipri=1 --verify=crc32c --verify_fatal=1 \
	--do_verify=1 --output-format=json --output=$out/verify.json >$out/verify.log 2>&1 || exit 1
snap nvme0n1 $out/verify.after

/pb/nullb.sh up 200 || exit 1
run nullb0 nullb.fixed50 50 || exit 1
run nullb0 nullb.adaptive 0 || exit 1
/pb/nullb.sh down || exit 1
EOT
o=$(guest_out)/out

# Knob: default -1; bad values -EINVAL and unchanged; good values stick.
[ "$(cat "$o/default.txt")" = -1 ] || fail "io_poll_delay defaults to '$(cat "$o/default.txt")', not -1"
n=0
while IFS= read -r line; do
	[[ $line =~ rc=[1-9].*now=25\ err=.*Invalid\ argument ]] ||
		fail "bad value not refused with EINVAL and left unchanged: $line"
	n=$((n + 1))
done <"$o/bad.txt"
[ $n = 7 ] || fail "only $n of 7 bad values tried"
for v in 1000000 0 -1; do
	grep -qxF -- "[$v] rc=0 now=$v" "$o/good.txt" || fail "good value $v: $(cat "$o/good.txt")"
done
echo "ok - default -1; -2 -1000 1000001 99999999999 abc 12abc and an empty line: EINVAL, value unchanged; 1000000 0 -1 accepted"

# sum TAG.PHASE COUNTER: a counter summed over the hardware queues.
sum() { awk -v k="$2" '$2 == k { s += $3 } END { printf "%.0f\n", s }' "$o/$1"; }
d() { echo $(($(sum "$1.after" "$2") - $(sum "$1.before" "$2"))); }

for tag in nvme.fixed20 nvme.adaptive nvme.classic nullb.fixed50 nullb.adaptive; do
	ios=$(fio_ios "$o/$tag.json")
	sleeps=$(d $tag timer_sleeps) slept=$(d $tag timer_sleep_ns) over=$(d $tag timer_oversleep_ns)
	polls=$(d $tag task_polls) found=$(d $tag task_completions) waits=$(d $tag task_waits)
	samples=$(d $tag samples) declined=$(d $tag declined)
	late=$(d $tag read_4096_late) early=$(d $tag read_4096_early)
	est=$(sum "$tag.after" read_4096_est_ns) wake=$(sum "$tag.after" read_4096_wake_64ths)
	echo "$tag: ios=$ios waits=$waits sleeps=$sleeps slept_ns=$slept oversleep_ns=$over" \
		"polls=$polls found=$found samples=$samples declined=$declined est_ns=$est" \
		"late=$late early=$early wake_64ths=$wake" \
		"mean_oversleep_us=$((over / (sleeps > 0 ? sleeps : 1) / 1000))"
	[ "$ios" -gt 100 ] || fail "$tag: only $ios I/Os"
	# Every polled I/O is waited for and found by a task poll; in adaptive
	# mode it gives the estimator one sample (fio's count and the kernel's
	# may differ by the I/O in flight at the end), in the other modes none
	# (since hybrid v7 only adaptive mode pays for the estimator).
	[ $((waits - ios)) -ge -2 ] && [ $((waits - ios)) -le 2 ] || fail "$tag: $waits waits for $ios I/Os"
	[ "$found" -ge $((ios - 2)) ] || fail "$tag: task polls found $found completions for $ios I/Os"
	[ "$polls" -ge "$found" ] || fail "$tag: $polls polls found $found completions"
	if [[ $tag == *.adaptive ]]; then
		[ $((samples - ios)) -ge -2 ] && [ $((samples - ios)) -le 2 ] ||
			fail "$tag: the estimator took $samples samples for $ios polled I/Os"
	else
		[ "$samples" = 0 ] || fail "$tag: the estimator took $samples samples outside adaptive mode"
	fi
	case $tag in
	*.fixed*)
		us=${tag#*.fixed}
		# Every wait sleeps exactly the fixed delay, then polls.
		[ "$sleeps" = "$waits" ] || fail "$tag: $sleeps sleeps for $waits waits"
		# Each is counted late or early (the sleep fraction stays put).
		[ $((late + early)) = "$sleeps" ] || fail "$tag: $late late + $early early wake-ups for $sleeps sleeps"
		[ "$slept" = $((sleeps * us * 1000)) ] || fail "$tag: asked for $slept ns in $sleeps sleeps of $us us"
		[ "$over" -gt 0 ] || fail "$tag: no oversleep measured in $sleeps sleeps"
		;;
	*.adaptive)
		# It sleeps where the estimate allows, or takes the 1 us probe sleeps
		# (one per 64 declined waits) when the guest timer's lateness rules
		# sleeping out; either way it sleeps and polls.
		[ "$sleeps" -ge 1 ] || fail "$tag: adaptive mode never slept ($declined declined)"
		[ "$sleeps" -ge $((declined / 64)) ] || fail "$tag: $sleeps sleeps for $declined declined waits"
		# Every adaptive sleep (none here ends by a signal) tells the
		# estimator whether it woke after the completion.
		[ $((late + early)) = "$sleeps" ] || fail "$tag: $late late + $early early wake-ups for $sleeps sleeps"
		[ "$wake" -ge 0 ] && [ "$wake" -le 56 ] || fail "$tag: sleep fraction $wake/64 out of 0..56"
		;;
	*.classic)
		[ "$sleeps" = 0 ] || fail "$tag: $sleeps sleeps at io_poll_delay=-1"
		[ "$declined" = 0 ] || fail "$tag: $declined adaptive decisions at io_poll_delay=-1"
		[ $((late + early)) = 0 ] || fail "$tag: wake-up feedback at io_poll_delay=-1"
		;;
	esac
	[[ $tag != *.adaptive ]] || [ "$est" -gt 0 ] || fail "$tag: no read_4096 estimate"
done

vios=$(fio_ios "$o/verify.json")
verrs=$(jq '[.jobs[].error] | add' "$o/verify.json")
vsleeps=$(d verify timer_sleeps) vwaits=$(d verify task_waits)
echo "verify at 20 us: $vios I/Os, error $verrs, $vsleeps sleeps, $vwaits waits"
[ "$verrs" = 0 ] || fail "verify=crc32c at io_poll_delay=20: fio error $verrs"
[ "$vios" -gt 500 ] || fail "verify=crc32c: only $vios I/Os"
[ "$vsleeps" -gt 0 ] && [ "$vsleeps" = "$vwaits" ] ||
	fail "verify=crc32c: $vsleeps sleeps for $vwaits polled waits"

# Not fooled by the oversleep: on the 200 us device, after the adaptive
# sleeps (each waking late or early), the estimate is the device time, not
# the waiter's completion time (which includes the oversleep). The fixed
# 50 us run before it taught the estimator nothing.
[ "$(sum nullb.fixed50.after read_4096_est_ns)" = "$(sum nullb.fixed50.before read_4096_est_ns)" ] ||
	fail "nullb-200us: the estimate moved during the fixed-delay run"
est=$(sum nullb.adaptive.after read_4096_est_ns)
clat=$(jq '.jobs[0].read.clat_ns.mean | floor' "$o/nullb.adaptive.json")
echo "nullb-200us adaptive: estimate $est ns, fio mean completion $clat ns"
[ "$est" -ge 150000 ] && [ "$est" -le 300000 ] ||
	fail "nullb-200us: estimate $est ns is not the 200 us device time"
echo "ok - sleeps and polls where due, none at -1, one estimator sample per polled I/O in adaptive mode, none in the others"
