# Guest job (data/idle-wake-1, run4/run5): a 100 us custom slice for fio
# (/share/setslice, sched_attr.sched_runtime) with and without
# blk_poll.idle_remote, pvsync2 hipri and psync, three rounds in rotating
# order. Otherwise as job.sh: idle kernel, cpuhog on vCPU1, `fio --thread`
# QD1 4 KiB randread on vCPU1 for 3 s per sub-run, sched_wakeup/sched_switch
# of fio traced, poll_stats of nvme0n1 before/after.
# A condition is a '+'-joined list of: base, slice100, noremote.
for _ in $(seq 50); do [ -b /dev/nvme0n1 ] && break; sleep 0.1; done
export PB_DEV=/dev/nvme0n1 PB_RUNTIME=3 PB_RAMP=0
t=/sys/kernel/tracing
rem=/sys/module/blk_poll/parameters/idle_remote
uname -r >/share/uname.txt
cat /sys/kernel/debug/sched/features >/share/features-before.txt
cat /sys/kernel/debug/sched/base_slice_ns >/share/base_slice_ns.txt
echo 8192 >$t/buffer_size_kb
echo 'comm == "fio"' >$t/events/sched/sched_wakeup/filter
echo 'next_comm == "fio" || prev_comm == "fio"' >$t/events/sched/sched_switch/filter
echo 1 >$t/events/sched/sched_wakeup/enable
echo 1 >$t/events/sched/sched_switch/enable
pstats() { for s in /sys/kernel/debug/block/nvme0n1/hctx*/poll_stats; do sed "s|^|${s#/sys/kernel/debug/block/} |" "$s"; done; }
sub() { # round cond engine
	d=/share/out/$1-$(echo "$2" | tr + -)-$3
	mkdir -p "$d"
	pre=""
	case +$2+ in *+slice100+*) pre="/share/setslice 100000" ;; esac
	case +$2+ in *+noremote+*) echo N >$rem || return 1 ;; esac
	echo 0 >$t/tracing_on
	echo >$t/trace
	cpuhog -c 1 -t 60 -o "$d/hog.txt" &
	hog=$!
	sleep 1
	pstats >"$d/poll-stats-before.txt"
	echo 1 >$t/tracing_on
	# shellcheck disable=SC2086
	taskset -c 1 $pre fio --thread --output-format=json --output="$d/fio.json" /share/workloads/randread-4k-qd1-"$3".fio
	echo 0 >$t/tracing_on
	pstats >"$d/poll-stats-after.txt"
	kill -TERM "$hog"; wait "$hog"
	cat $t/trace | gzip >"$d/trace.txt.gz"
	echo Y >$rem
	echo "$(cat /proc/uptime) done $1 $2 $3"
}
plan="base:pvsync2-hipri slice100:pvsync2-hipri noremote:pvsync2-hipri slice100+noremote:pvsync2-hipri base:psync slice100:psync"
for r in a b c; do
	for p in $plan; do
		sub "$r" "${p%%:*}" "${p#*:}"
	done
	# rotate the order: the first two sub-runs go last
	# shellcheck disable=SC2086
	set -- $plan
	plan="$3 $4 $5 $6 $1 $2"
done
cat $rem >/share/idle_remote-after.txt
