#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Description: controller reset: reset_controller through sysfs, repeatedly,
# during polled I/O with crc32c verify (pvsync2 hipri=1, two jobs). I/O may
# fail with an error while the controller resets, but never hangs (every fio
# run ends), never reads back wrong data (no verify failure in any run), and
# after the resets a fresh polled write-and-verify run passes.
. "$REL_DIR/lib.sh"
wait_dev || finish
ctrl=/sys/class/nvme/nvme0
[ -f $ctrl/reset_controller ] || skip_case "no $ctrl/reset_controller"
if [ "$REL_MODE" = full ]; then resets=10 size=64m; else resets=2 size=8m; fi
to0=$(nvme_timeouts)
name=verify-during-reset
# shellcheck disable=SC2086
fio_loop_start $name --filename=$DEV --direct=1 $POLLED --rw=randwrite \
	--bsrange=4k-64k --iodepth=1 --numjobs=2 --size=$size --offset_increment=$size \
	--verify=crc32c --verify_fatal=1 --do_verify=1
sleep 1
for i in $(seq $resets); do
	if ! echo 1 >$ctrl/reset_controller; then
		bad "reset $i: write to reset_controller failed"
		break
	fi
	add resets_done 1
	t0=$(now_cs)
	while [ "$(cat $ctrl/state)" != live ] && [ $(($(now_cs) - t0)) -lt 3000 ]; do sleep 0.1; done
	[ "$(cat $ctrl/state)" = live ] || bad "reset $i: controller state '$(cat $ctrl/state)' 30 s later"
	sleep 1
done
fio_loop_stop $name 300
count ios_during_resets "$LOOP_IOS"
count fio_runs_during_resets "$LOOP_RUNS"
count fio_runs_with_error "$LOOP_FAILED"
count verify_failures "$LOOP_MISMATCH"
say "during $resets resets: $LOOP_RUNS fio runs, $LOOP_FAILED ended with an error, $LOOP_IOS I/Os"
[ "$LOOP_MISMATCH" = 0 ] || bad "$LOOP_MISMATCH run(s) read back wrong data: see $name-*.log"
drained $name
name=verify-after-reset
p0=$(pstat polls)
# shellcheck disable=SC2086
fio_run $name --name=$name --filename=$DEV --direct=1 $POLLED --rw=randwrite \
	--bsrange=4k-64k --iodepth=1 --numjobs=2 --size=$size --offset_increment=$size \
	--verify=crc32c --verify_fatal=1 --do_verify=1
rc=$?
polls=$(pdelta polls "$p0")
ios=$(fio_ios $name)
count ios_verified_after "$ios"
if [ $rc != 0 ] || [ "$(fio_errors $name)" != 0 ]; then
	bad "$name: fio exit $rc: $(tail -n 3 "$REL_OUT/$name.log")"
else
	say "ok - after the resets $ios polled I/Os written and verified ($polls polls)"
fi
is_polling && [ "$polls" -le 0 ] && bad "$name: no poll counted after the resets"
drained $name
count nvme_timeouts $(($(nvme_timeouts) - to0))
finish
