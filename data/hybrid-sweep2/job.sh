#!/bin/sh
# Guest job (hybrid kernel): the estimator over time. A sampler records
# poll_stats and poll_hybrid every 0.5 s, labelled with the phase the host
# writes to /share/phase. Runs: nullb-200us at a fixed 50 us and adaptive
# (does the estimate creep up?), then NVMe adaptive while the host changes
# the disk's latency with QEMU I/O throttling (step response).
set -u
out=/share/out
mkdir -p $out
uname -r >$out/uname.txt
nb=/sys/kernel/config/nullb/nullb0
RT=${RT:-12}
for _ in $(seq 50); do [ -b /dev/nvme0n1 ] && break; sleep 0.1; done
sampler() { # DEV FILE
	while [ ! -f /tmp/stop ]; do
		t=$(cut -d' ' -f1 /proc/uptime)
		ph=$(cat /share/phase 2>/dev/null || echo none)
		for f in /sys/kernel/debug/block/$1/hctx*/poll_stats /sys/kernel/debug/block/$1/hctx*/poll_hybrid; do
			[ -f "$f" ] && grep -E '^(timer_sleeps|timer_sleep_ns|timer_oversleep_ns|task_polls|task_waits|task_poll_ns|samples|oversleep_ns|declined|read_4096_)' "$f" |
				sed "s|^|$t $ph ${f##*/} |"
		done
		sleep 0.5
	done >>"$2"
}
run() { # DEV TAG DELAY RUNTIME
	echo "$3" >/sys/block/$1/queue/io_poll_delay || return 1
	rm -f /tmp/stop
	sampler "$1" $out/$2.samples &
	sp=$!
	echo "$2 start $(cut -d' ' -f1 /proc/uptime)" >>$out/marks.txt
	touch /share/go-$2
	taskset -c 1 fio --name=t --filename=/dev/$1 --direct=1 --rw=randread --bs=4k --size=512m \
		--ioengine=pvsync2 --hipri=1 --time_based --runtime="$4" \
		--output-format=json --output=$out/$2.json >/dev/null 2>&1
	touch /tmp/stop
	wait $sp
	echo "$2 end $(cut -d' ' -f1 /proc/uptime)" >>$out/marks.txt
}
mkdir $nb
for kv in queue_mode=2 submit_queues=1 poll_queues=1 irqmode=2 completion_nsec=200000 \
	blocksize=4096 size=1024 memory_backed=0 power=1; do
	echo "${kv#*=}" >"$nb/${kv%%=*}"
done
for _ in $(seq 50); do [ -b /dev/nullb0 ] && break; sleep 0.1; done
run nullb0 nullb200.fixed50 50 "$RT"
run nullb0 nullb200.adaptive 0 "$RT"
run nullb0 nullb200.fixed150 150 "$RT"
echo 0 >$nb/power
rmdir $nb
run nvme0n1 nvme.step 0 $((3 * RT))
run nvme0n1 nvme.stepfixed30 30 $((3 * RT))
echo "job done"
