# Does RUN_TO_PARITY keep the woken idle-design waiter off its CPU?
# idle kernel, cpuhog on vCPU1, fio --thread on vCPU1 for 3 s per run,
# sched_wakeup/sched_switch of fio traced; sched feature toggled per run.
for _ in $(seq 50); do [ -b /dev/nvme0n1 ] && break; sleep 0.1; done
export PB_DEV=/dev/nvme0n1 PB_RUNTIME=3 PB_RAMP=0
t=/sys/kernel/tracing
f=/sys/kernel/debug/sched/features
echo 8192 >$t/buffer_size_kb
cat $f >/share/features-before.txt
for run in pvsync2-hipri:RUN_TO_PARITY pvsync2-hipri:NO_RUN_TO_PARITY psync:NO_RUN_TO_PARITY psync:RUN_TO_PARITY; do
	w=${run%%:*} feat=${run#*:}
	echo $feat >$f || exit 1
	echo 0 >$t/tracing_on
	echo >$t/trace
	echo 'comm == "fio"' >$t/events/sched/sched_wakeup/filter
	echo 'next_comm == "fio" || prev_comm == "fio"' >$t/events/sched/sched_switch/filter
	echo 1 >$t/events/sched/sched_wakeup/enable
	echo 1 >$t/events/sched/sched_switch/enable
	cpuhog -c 1 -t 60 -o /share/hog-$w-$feat.txt &
	hog=$!
	sleep 1
	echo 1 >$t/tracing_on
	taskset -c 1 fio --thread --output-format=json --output=/share/fio-$w-$feat.json /share/workloads/randread-4k-qd1-$w.fio
	echo 0 >$t/tracing_on
	kill -TERM $hog; wait $hog
	cat $t/trace >/share/trace-$w-$feat.txt
done
echo RUN_TO_PARITY >$f
