set -u
export PB_RUNTIME=5 PB_RAMP=0 PB_IOS=1000 PB_CPU=1 PB_PERF=0
for cond in alone competitor busy; do
	for us in 2 10; do
		for w in psync pvsync2-hipri; do
			c=$w-$us-$cond
			PB_DEVICE=nullb-${us}us /pb/cell.sh /share/workloads/randread-4k-qd1-$w.fio $cond /share/out/$c
			echo $? >/share/out/$c/rc
		done
	done
done
