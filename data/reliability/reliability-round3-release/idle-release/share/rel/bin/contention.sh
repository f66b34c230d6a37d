#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Description: contention: a polling fio (pvsync2 hipri=1, QD1 4 KiB random
# read and write) pinned to CPU1 beside a CPU-bound hog on CPU1 at the same
# nice level, beside one at nice -10 (higher priority), and with a hog on
# every CPU (on idle with blk_poll.busy_irq=0, so that the I/O stays
# polled): every I/O completes within the variant's bound (bounds.env),
# fio sees no error, no NVMe command times out, nothing stays in flight.
# The hung-task detector runs at 10 s (run-cases.sh); the host fails the case
# on any report.
. "$REL_DIR/lib.sh"
wait_dev || finish
if [ "$REL_MODE" = full ]; then rt=20 rws="randread randwrite"; else rt=2 rws=randread; fi
bound=$(bound_us "$REL_VARIANT" "$REL_FLAVOUR")
count bound_us "$bound"
ncpu=$(nproc)
to0=$(nvme_timeouts)
# The idle kernel sends I/O submitted beside a runnable hog to the
# interrupt (blk_poll.busy_irq); keep it polled here, since the fallback
# timer is what must not hang. tests/guest/idle-busy-cpu-bounded.sh runs
# both modes.
idle_param_set busy_irq 0
for cond in same-prio higher-prio all-busy; do
	for rw in $rws; do
		name=$cond-$rw
		p0=$(pstat polls)
		# shellcheck disable=SC2086
		taskset -c 1 fio --output-format=json --output="$REL_OUT/$name.json" \
			--name="$name" --filename=$DEV --direct=1 $POLLED --rw=$rw --bs=4k \
			--iodepth=1 --size=512m --time_based=1 --runtime=$((rt + 2)) >"$REL_OUT/$name.log" 2>&1 &
		fp=$!
		# The load joins once fio does I/O and stays to its end.
		wait_ios 20
		pids=""
		case $cond in
		same-prio) pids=$(hog 1 $((rt + 30)) 0 "$REL_OUT/$name-hog.txt") ;;
		higher-prio) pids=$(hog 1 $((rt + 30)) -10 "$REL_OUT/$name-hog.txt") ;;
		all-busy)
			c=0
			while [ $c -lt "$ncpu" ]; do
				pids="$pids $(hog $c $((rt + 30)) 0 "$REL_OUT/$name-hog$c.txt")"
				c=$((c + 1))
			done
			;;
		esac
		wait $fp
		rc=$?
		polls=$(($(pstat polls) - p0))
		for p in $pids; do kill -TERM "$p" 2>/dev/null; wait "$p"; done
		ios=$(fio_ios "$name")
		add ios_completed "$ios"
		add fio_runs 1
		if [ $rc != 0 ] || [ "$(fio_errors "$name")" != 0 ] || [ "$ios" -le 0 ]; then
			bad "$name: fio exit $rc, $ios I/Os: $(tail -n 3 "$REL_OUT/$name.log")"
		fi
		check_bound "$name" "$bound" "$name ($ios I/Os, $polls polls)"
		if is_polling && [ "$polls" -le 0 ]; then
			bad "$name: no poll counted: fio was not polling"
		fi
		drained "$name"
	done
done
idle_param_set busy_irq Y
to=$(($(nvme_timeouts) - to0))
count nvme_timeouts "$to"
[ "$to" = 0 ] || bad "$to NVMe command timeout(s) logged: $(dmesg | grep -m3 timeout)"
finish
