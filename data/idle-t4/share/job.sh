#!/bin/sh
D=/sys/kernel/debug/block/nvme0n1
mount -t debugfs none /sys/kernel/debug 2>/dev/null
uname -r
ls /sys/module/blk_poll/parameters/ && cat /sys/module/blk_poll/parameters/*
run() {
  name=$1; shift
  for h in $D/hctx*; do echo 0 > $h/poll_stats; done
  grep nvme0q /proc/interrupts > /share/irq-before-$name
  taskset -c 1 fio --name=$name --filename=/dev/nvme0n1 --direct=1 --rw=randread --bs=4k --ioengine=pvsync2 --hipri=1 --time_based --runtime=3 --size=1g --output-format=json "$@" > /share/fio-$name.json
  grep nvme0q /proc/interrupts > /share/irq-after-$name
  for h in $D/hctx*; do echo "== $h"; grep -v ' 0$' $h/poll_stats; done > /share/stats-$name
  echo "--- $name"; grep -E '"(total_ios|ctx)"' /share/fio-$name.json | head -3; cat /share/stats-$name
}
run alone
cpuhog & H1=$!; taskset -p -c 1 $H1 >/dev/null
run competitor
cpuhog & H0=$!; taskset -p -c 0 $H0 >/dev/null
run busy
kill $H1 $H0
run verify --rw=randwrite --verify=crc32c --do_verify=1 --size=64m --time_based=0 --runtime=0 --verify_fatal=1
echo verify-rc=$?
taskset -c 1 fio --name=sig --filename=/dev/nvme0n1 --direct=1 --rw=randread --bs=4k --ioengine=pvsync2 --hipri=1 --time_based --runtime=30 > /dev/null & F=$!
sleep 2; t0=$(date +%s.%N 2>/dev/null || date +%s); kill -INT $F; wait $F; echo "sigint rc=$? t0=$t0 t1=$(date +%s.%N 2>/dev/null)"
taskset -c 1 fio --name=sig --filename=/dev/nvme0n1 --direct=1 --rw=randread --bs=4k --ioengine=pvsync2 --hipri=1 --time_based --runtime=30 > /dev/null & F=$!
sleep 2; kill -KILL $F; wait $F; echo "sigkill rc=$? t1=$(date +%s.%N 2>/dev/null)"
for v in 0 9 1000001 abc -1; do echo $v > /sys/module/blk_poll/parameters/fallback_us 2>/dev/null && echo "BAD fallback_us accepted $v"; done; for v in 1000001 abc -1; do echo $v > /sys/module/blk_poll/parameters/idle_budget_us 2>/dev/null && echo "BAD budget accepted $v"; done; cat /sys/module/blk_poll/parameters/*; grep -E "polled_inflight" /sys/kernel/debug/block/nvme0n1/hctx2/poll_stats; dmesg | grep -iE "warn|bug|hung|lockdep" | head
