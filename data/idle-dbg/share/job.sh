#!/bin/sh
mount -t debugfs none /sys/kernel/debug 2>/dev/null
echo 5 > /proc/sys/kernel/hung_task_timeout_secs 2>/dev/null
uname -r
F="--filename=/dev/nvme0n1 --direct=1 --bs=4k --ioengine=pvsync2 --hipri=1 --size=1g --thread"
taskset -c 1 fio --name=alone $F --rw=randread --time_based --runtime=3 --output-format=terse | cut -d';' -f6-8
cpuhog & H1=$!; taskset -p -c 1 $H1 >/dev/null
taskset -c 1 fio --name=comp $F --rw=randread --time_based --runtime=3 --output-format=terse | cut -d';' -f6-8
cpuhog & H0=$!; taskset -p -c 0 $H0 >/dev/null
taskset -c 1 fio --name=busy $F --rw=randread --time_based --runtime=3 --output-format=terse | cut -d';' -f6-8
kill $H1 $H0
taskset -c 1 fio --name=verify $F --rw=randwrite --verify=crc32c --do_verify=1 --size=32m --verify_fatal=1 > /share/verify.txt 2>&1; echo verify-rc=$?
for sig in INT KILL; do
  taskset -c 1 fio --name=sig $F --rw=randread --time_based --runtime=30 > /dev/null 2>&1 & P=$!
  sleep 2; t0=$(cut -d' ' -f1 /proc/uptime); kill -$sig $P; wait $P; rc=$?; t1=$(cut -d' ' -f1 /proc/uptime)
  echo "SIG$sig: rc=$rc took $t0 -> $t1"
done
sleep 1; grep polled_inflight /sys/kernel/debug/block/nvme0n1/hctx2/poll_stats
dmesg | grep -E "WARNING|BUG|lockdep|circular|inconsistent|hung|blocked for" | head
echo dbg-done
