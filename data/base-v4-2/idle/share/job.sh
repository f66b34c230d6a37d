set -u
export PB_RUNTIME=5 PB_RAMP=0 PB_IOS=1000 PB_CPU=1 PB_PERF=0
cat /sys/module/blk_poll/parameters/idle_spin_us >/share/idle_spin_us 2>/dev/null
for us in 1 2 5 10 20 50 100; do
	for w in psync pvsync2-hipri; do
		c=$w-$us
		PB_DEVICE=nullb-${us}us /pb/cell.sh /share/workloads/randread-4k-qd1-$w.fio alone /share/out/$c
		echo $? >/share/out/$c/rc
	done
done
