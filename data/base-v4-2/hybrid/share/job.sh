set -u
export PB_RUNTIME=10 PB_RAMP=0 PB_IOS=4000 PB_CPU=1 PB_PERF=0
for us in 10 50; do
	for d in -1 0; do
		c=d$d-$us
		PB_QUEUE="io_poll_delay=$d" PB_DEVICE=nullb-${us}us /pb/cell.sh /share/workloads/randread-4k-qd1-pvsync2-hipri.fio alone /share/out/$c
		echo $? >/share/out/$c/rc
	done
done
