# Wake-up to run delay of fio on its vCPU with a cpuhog beside it:
# idle kernel, pvsync2 hipri (polled: idle loop or fallback timer) and
# psync (interrupt), both with cpuhog on vCPU1.
for _ in $(seq 50); do [ -b /dev/nvme0n1 ] && break; sleep 0.1; done
export PB_DEV=/dev/nvme0n1 PB_RUNTIME=3 PB_RAMP=0
t=/sys/kernel/tracing
echo 8192 >$t/buffer_size_kb
for w in pvsync2-hipri psync; do
	echo 0 >$t/tracing_on
	echo >$t/trace
	echo 'comm == "fio"' >$t/events/sched/sched_wakeup/filter
	echo 'next_comm == "fio" || prev_comm == "fio"' >$t/events/sched/sched_switch/filter
	echo 1 >$t/events/sched/sched_wakeup/enable
	echo 1 >$t/events/sched/sched_switch/enable
	cpuhog -c 1 -t 60 -o /share/hog-$w.txt &
	hog=$!
	sleep 1
	echo 1 >$t/tracing_on
	taskset -c 1 fio --thread --output-format=json --output=/share/fio-$w.json /share/workloads/randread-4k-qd1-$w.fio
	echo 0 >$t/tracing_on
	kill -TERM $hog; wait $hog
	cat $t/trace >/share/trace-$w.txt
	cat $t/per_cpu/cpu1/stats >/share/trace-stats-$w.txt
done
