# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034,SC2154 # shares variables with guest/cell.sh
# Condition competitor: a CPU-bound cpuhog on fio's vCPU at the same nice
# level; its work rate against competitor-only's is the fairness cost.
# It runs exactly as long as fio: started with a generous limit, stopped
# (SIGTERM: it then reports) as soon as fio ends.
cond_start() {
	cpuhog -c "$PB_CPU" -t "$limit" -o "$out/competitor.txt" &
	cond_pids=$!
}
cond_stop() {
	cond_kill TERM
}
