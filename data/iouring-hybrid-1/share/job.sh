# Hand-written guest job (scripts/guest-run.sh --timing icount iouring-hybrid):
# upstream's io_uring hybrid IOPOLL against classic IOPOLL with
# guest/tools/uring-lat, QD1 4 KiB random reads, 4000 a run, pinned to
# vCPU 1, on null_blk poll queues of 10, 50 and 200 us. No kprobes.
nullb=/sys/kernel/config/nullb/nullb0
mkdir -p /share/out
for us in 10 50 200; do
	mkdir $nullb || exit 1
	for kv in queue_mode=2 submit_queues=1 poll_queues=1 irqmode=2 completion_nsec=$((us * 1000)) \
		blocksize=4096 size=1024 memory_backed=0 power=1; do
		echo "${kv#*=}" >"$nullb/${kv%%=*}" || exit 1
	done
	for _ in $(seq 50); do [ -b /dev/nullb0 ] && break; sleep 0.1; done
	for mode in classic hybrid; do
		flag=""
		[ $mode = hybrid ] && flag=-H
		taskset -c 1 uring-lat -n 4000 $flag -j $mode-${us}us -o /tmp/$mode-${us}us.json /dev/nullb0 || exit 1
	done
	echo 0 >$nullb/power
	rmdir $nullb
done
cp /tmp/*.json /share/out/
