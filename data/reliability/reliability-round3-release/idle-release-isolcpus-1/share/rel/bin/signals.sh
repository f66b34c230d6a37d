#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Description: signals: SIGINT, SIGTERM and SIGKILL to a polling fio
# (pvsync2 hipri=1, QD1 4 KiB random reads and writes; as processes and with
# --thread) once it has done 50 I/Os, repeatedly: fio ends within SIGNAL_END_CS,
# no fio is left behind, and the queue drains (block inflight 0, poll
# accounting's polled_inflight 0). The full form sends 102 signals (17
# rounds); each signal's longest end time is counted so that a polling
# kernel's can be read beside baseline's: fio's own orderly exit on SIGINT
# takes time under TCG. Hung tasks are judged on the host.
. "$REL_DIR/lib.sh"
wait_dev || finish
if [ "$REL_MODE" = full ]; then reps=17; else reps=1; fi
limit=$SIGNAL_END_CS
# shellcheck disable=SC2154 # set in bounds.env
[ "$REL_FLAVOUR" = debug ] && limit=$SIGNAL_END_CS_debug
count end_bound_cs "$limit"
maxdt=0
for rep in $(seq $reps); do
	for sig in INT TERM KILL; do
		for mode in process thread; do
			name=$sig-$mode-$rep
			t=""
			[ $mode = thread ] && t=--thread
			# shellcheck disable=SC2086
			fio --name="$name" --filename=$DEV --direct=1 $POLLED $t \
				--rw=randrw --bs=4k --iodepth=1 --numjobs=2 --size=256m \
				--time_based=1 --runtime=120 >"$REL_OUT/$name.log" 2>&1 &
			pid=$!
			# Signal it once it has done I/O (polled on a polling kernel).
			p0=$(pstat polls)
			wait_ios 50
			polls=$(($(pstat polls) - p0))
			t0=$(now_cs)
			kill -$sig $pid
			add signals_sent 1
			add signals_sent_$sig 1
			# fio's children/threads get it from fio's own handler;
			# SIGKILL goes to the whole group of fio processes.
			[ $sig = KILL ] && for p in $(pidof fio); do kill -KILL "$p" 2>/dev/null; done
			while kill -0 $pid 2>/dev/null; do
				[ $(($(now_cs) - t0)) -gt $((limit * 4)) ] && break
				sleep 0.02
			done
			wait $pid 2>/dev/null
			# pidof reports processes; a thread-mode fio is one process.
			for _ in $(seq 100); do [ -z "$(pidof fio)" ] && break; sleep 0.05; done
			dt=$(($(now_cs) - t0))
			add ios_before_signal "$IOS_SEEN"
			if [ -n "$(pidof fio)" ]; then
				bad "$name: fio still running $dt cs after SIG$sig: $(pidof fio)"
			elif [ $dt -gt "$limit" ]; then
				bad "$name: fio took $dt cs to end after SIG$sig (bound $limit cs)"
			else
				say "ok - $name: ended $dt cs after SIG$sig ($IOS_SEEN I/Os, $polls polls before it)"
			fi
			[ "$dt" -gt "$maxdt" ] && maxdt=$dt
			count end_max_cs "$maxdt"
			m=0
			eval "m=\${max_$sig:-0}"
			[ "$dt" -le "$m" ] || eval "max_$sig=$dt"
			eval "count end_max_cs_$sig \$max_$sig"
			if is_polling && [ "$polls" -le 0 ]; then
				bad "$name: no poll counted before the signal: fio was not polling"
			fi
			drained "$name"
		done
	done
done
finish
