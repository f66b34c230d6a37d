# Guest job (data/idle-wake-1): why does the idle design's timer-woken
# waiter get its CPU late beside a hog? Idle kernel, cpuhog on vCPU1,
# `fio --thread` (psync or pvsync2 hipri, QD1 4 KiB randread) on vCPU1
# for 3 s per sub-run, sched_wakeup/sched_switch of fio traced, poll_stats
# of nvme0n1 before/after. Conditions (one sched feature off at a time, or
# a 100 us custom slice for fio via /share/setslice), engines interleaved,
# two rounds; then one sub-run per engine sampling /sys/kernel/debug/sched/debug.
for _ in $(seq 50); do [ -b /dev/nvme0n1 ] && break; sleep 0.1; done
export PB_DEV=/dev/nvme0n1 PB_RUNTIME=3 PB_RAMP=0
t=/sys/kernel/tracing
f=/sys/kernel/debug/sched/features
uname -r >/share/uname.txt
cat $f >/share/features-before.txt
cat /sys/kernel/debug/sched/base_slice_ns >/share/base_slice_ns.txt
echo 8192 >$t/buffer_size_kb
echo 'comm == "fio"' >$t/events/sched/sched_wakeup/filter
echo 'next_comm == "fio" || prev_comm == "fio"' >$t/events/sched/sched_switch/filter
echo 1 >$t/events/sched/sched_wakeup/enable
echo 1 >$t/events/sched/sched_switch/enable
pstats() { for s in /sys/kernel/debug/block/nvme0n1/hctx*/poll_stats; do sed "s|^|${s#/sys/kernel/debug/block/} |" "$s"; done; }
sub() { # round cond engine [dbg]
	r=$1 c=$2 w=$3 d=/share/out/$1-$2-$3
	mkdir -p "$d"
	pre=""
	case $c in
	base) ;;
	slice100) pre="/share/setslice 100000" ;;
	*) echo "$c" >$f || return 1 ;;
	esac
	echo 0 >$t/tracing_on
	echo >$t/trace
	cpuhog -c 1 -t 60 -o "$d/hog.txt" &
	hog=$!
	sleep 1
	pstats >"$d/poll-stats-before.txt"
	smp=""
	if [ -n "${4:-}" ]; then
		# shellcheck disable=SC2016
		taskset -c 0 sh -c 'for i in $(seq 25); do echo "== sample $i $(cat /proc/uptime)"; grep -E "^cpu#|avg_vruntime|zero_vruntime|min_vruntime|nr_running|h_nr_running| fio | cpuhog " /sys/kernel/debug/sched/debug; sleep 0.1; done' >"$d/sched-debug.txt" &
		smp=$!
	fi
	echo 1 >$t/tracing_on
	# shellcheck disable=SC2086
	taskset -c 1 $pre fio --thread --output-format=json --output="$d/fio.json" /share/workloads/randread-4k-qd1-$w.fio
	echo 0 >$t/tracing_on
	[ -z "$smp" ] || wait "$smp"
	pstats >"$d/poll-stats-after.txt"
	kill -TERM "$hog"; wait "$hog"
	cat $t/trace | gzip >"$d/trace.txt.gz"
	case $c in base|slice100) ;; *) echo "${c#NO_}" >$f ;; esac
	echo "$(cat /proc/uptime) done $r $c $w"
}
for r in a b; do
	engines="pvsync2-hipri psync"
	[ $r = b ] && engines="psync pvsync2-hipri"
	for c in base NO_DELAY_DEQUEUE NO_PLACE_LAG slice100; do
		for w in $engines; do
			sub "$r" "$c" "$w"
		done
	done
done
sub dbg base pvsync2-hipri 1
sub dbg base psync 1
cat $f >/share/features-after.txt
