# Guest job (data/idle-wake-1, run6): the waiter's EEVDF lag at each
# wake-up and the path of remote wake-ups. As job.sh (idle kernel, cpuhog
# on vCPU1, `fio --thread` QD1 4 KiB randread on vCPU1, 3 s per sub-run,
# default sched features and blk_poll knobs), psync and pvsync2 hipri
# alternating, four rounds, with more events traced:
#   kprobe pb/pe  place_entity(cfs_rq, se, flags): se, se->vlag (+0x78),
#                 flags (ENQUEUE_WAKEUP = 1) - the lag a woken entity is
#                 placed with (offsets read from this kernel's
#                 disassembly of place_entity: vlag 0x78, vruntime 0x70);
#   kprobe pb/rq  requeue_delayed_entity(se): a wake-up of a task that
#                 DELAY_DEQUEUE kept queued (no placement unless lag > 0);
#   kprobe pb/de  dequeue_entities(rq, se, flags), in the sleeping task's
#                 context: maps se to the task;
#   ipi:ipi_send_cpu (cpu 1) and irq_vectors:reschedule_entry: the IPI of
#                 a remote wake-up and its arrival.
for _ in $(seq 50); do [ -b /dev/nvme0n1 ] && break; sleep 0.1; done
export PB_DEV=/dev/nvme0n1 PB_RUNTIME=3 PB_RAMP=0
t=/sys/kernel/tracing
uname -r >/share/uname.txt
cat /sys/kernel/debug/sched/features >/share/features-before.txt
echo 8192 >$t/buffer_size_kb
{
	echo 'p:pb/pe place_entity se=%si:x64 vlag=+0x78(%si):s64 fl=%dx:x32'
	echo 'p:pb/rq requeue_delayed_entity se=%di:x64 vlag=+0x78(%di):s64'
	echo 'p:pb/de dequeue_entities se=%si:x64 fl=%dx:x32'
} >$t/kprobe_events || exit 1
echo 'comm == "fio"' >$t/events/pb/de/filter
echo 'comm == "fio"' >$t/events/sched/sched_wakeup/filter
echo 'next_comm == "fio" || prev_comm == "fio"' >$t/events/sched/sched_switch/filter
echo 'cpu == 1' >$t/events/ipi/ipi_send_cpu/filter
for e in pb/pe pb/rq pb/de sched/sched_wakeup sched/sched_switch ipi/ipi_send_cpu irq_vectors/reschedule_entry; do
	echo 1 >$t/events/$e/enable || exit 1
done
pstats() { for s in /sys/kernel/debug/block/nvme0n1/hctx*/poll_stats; do sed "s|^|${s#/sys/kernel/debug/block/} |" "$s"; done; }
sub() { # round engine
	d=/share/out/$1-base-$2
	mkdir -p "$d"
	echo 0 >$t/tracing_on
	echo >$t/trace
	cpuhog -c 1 -t 60 -o "$d/hog.txt" &
	hog=$!
	sleep 1
	pstats >"$d/poll-stats-before.txt"
	echo 1 >$t/tracing_on
	taskset -c 1 fio --thread --output-format=json --output="$d/fio.json" /share/workloads/randread-4k-qd1-"$2".fio
	echo 0 >$t/tracing_on
	pstats >"$d/poll-stats-after.txt"
	kill -TERM "$hog"; wait "$hog"
	cat $t/trace | gzip >"$d/trace.txt.gz"
	echo "$(cat /proc/uptime) done $1 $2"
}
for r in a b c d; do
	case $r in
	a|c) sub $r pvsync2-hipri; sub $r psync ;;
	*) sub $r psync; sub $r pvsync2-hipri ;;
	esac
done
