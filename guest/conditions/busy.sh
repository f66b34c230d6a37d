# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034,SC2154 # shares variables with guest/cell.sh
# Condition busy: a cpuhog on every vCPU (fio's latency under full
# contention, and the hogs' summed rate). Stopped with SIGTERM when fio ends.
cond_start() {
	c=0
	while [ "$c" -lt "$ncpu" ]; do
		cpuhog -c "$c" -t "$limit" -o "$out/busy-cpu$c.txt" &
		cond_pids="$cond_pids $!"
		c=$((c + 1))
	done
}
cond_stop() {
	cond_kill TERM
}
