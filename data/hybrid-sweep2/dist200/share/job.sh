#!/bin/sh
# Guest job for dist.sh: the NVMe disk throttled by the host for the whole
# boot; pvsync2 hipri QD1 at io_poll_delay -1 (the device-time distribution
# as classic polling sees it) and 0 (what the estimator makes of it).
set -u
out=/share/out
mkdir -p $out
for _ in $(seq 50); do [ -b /dev/nvme0n1 ] && break; sleep 0.1; done
for d in -1 0; do
	echo "$d" >/sys/block/nvme0n1/queue/io_poll_delay
	taskset -c 1 fio --name=t --filename=/dev/nvme0n1 --direct=1 --rw=randread --bs=4k --size=512m \
		--ioengine=pvsync2 --hipri=1 --time_based --runtime=8 \
		--percentile_list=1:5:10:25:50:75:90:99 \
		--output-format=json --output=$out/delay$d.json >/dev/null 2>&1
	for f in /sys/kernel/debug/block/nvme0n1/hctx*/poll_hybrid; do
		[ -f "$f" ] && sed "s|^|${f#/sys/kernel/debug/block/} |" "$f"
	done >$out/delay$d.hybrid
done
echo "job done"
