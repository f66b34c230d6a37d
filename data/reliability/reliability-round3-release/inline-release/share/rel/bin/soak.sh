#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Description: soak: a long mixed run (REL_SOAK_S seconds: 600 in the full
# form, 30 in the quick one): polled writes with crc32c verify as they go
# (verify_backlog), interrupt-driven writes with verify, polled random reads
# and io_uring IOPOLL reads at QD4, all at once, with a CPU-bound hog on CPU1
# for half of the time. No error, no mismatch, nothing left in flight, and
# stable memory: after the run (caches dropped) unreclaimable slab grew by
# less than 8 MiB and MemAvailable fell by less than 32 MiB.
. "$REL_DIR/lib.sh"
wait_dev || finish
: "${REL_SOAK_S:=30}"
count soak_seconds "$REL_SOAK_S"
mem() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
sync
echo 3 >/proc/sys/vm/drop_caches
su0=$(mem SUnreclaim) ma0=$(mem MemAvailable)
to0=$(nvme_timeouts)
hp=$(hog 1 $((REL_SOAK_S / 2)) 0 "$REL_OUT/hog.txt")
name=soak
# shellcheck disable=SC2086
fio --output-format=json --output="$REL_OUT/$name.json" --filename=$DEV --direct=1 \
	--time_based=1 --runtime="$REL_SOAK_S" --iodepth=1 \
	--name=polled-verify $POLLED --rw=randwrite --bsrange=4k-64k --offset=0 --size=256m \
	--verify=crc32c --verify_fatal=1 --verify_backlog=64 \
	--name=irq-verify $IRQ --rw=randwrite --bsrange=4k-64k --offset=1g --size=256m \
	--verify=crc32c --verify_fatal=1 --verify_backlog=64 \
	--name=polled-read $POLLED --rw=randread --bs=4k --offset=2g --size=512m \
	--name=iouring-read --ioengine=io_uring --hipri=1 --iodepth=4 --rw=randread --bs=4k \
	--offset=3g --size=512m >"$REL_OUT/$name.log" 2>&1 &
fp=$!
while kill -0 $fp 2>/dev/null; do
	echo "$(now_cs) $(mem MemAvailable) $(mem SUnreclaim)" >>"$REL_OUT/meminfo.txt"
	sleep 5
done
wait $fp
rc=$?
kill -TERM "$hp" 2>/dev/null
wait "$hp"
ios=$(fio_ios $name)
count ios_completed "$ios"
if [ $rc != 0 ] || [ "$(fio_errors $name)" != 0 ] || fio_verify_mismatch $name; then
	bad "fio exit $rc, error $(fio_errors $name): $(tail -n 3 "$REL_OUT/$name.log")"
else
	say "ok - ${REL_SOAK_S} s mixed run: $ios I/Os, no error, no mismatch"
fi
drained $name
sync
echo 3 >/proc/sys/vm/drop_caches
su1=$(mem SUnreclaim) ma1=$(mem MemAvailable)
count sunreclaim_growth_kib $((su1 - su0))
count memavailable_drop_kib $((ma0 - ma1))
[ $((su1 - su0)) -lt 8192 ] || bad "unreclaimable slab grew by $((su1 - su0)) KiB"
[ $((ma0 - ma1)) -lt 32768 ] || bad "MemAvailable fell by $((ma0 - ma1)) KiB"
say "memory: SUnreclaim $su0 -> $su1 KiB, MemAvailable $ma0 -> $ma1 KiB"
to=$(($(nvme_timeouts) - to0))
count nvme_timeouts "$to"
[ "$to" = 0 ] || bad "$to NVMe command timeout(s) logged"
finish
