# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034,SC2154 # shares variables with guest/cell.sh
# Condition cyclictest: a SCHED_FIFO 95 cyclictest on fio's vCPU, a 1 us
# histogram up to 10 ms: how long fio's I/O path keeps a real-time task
# waiting. Stopped with SIGINT when fio ends, so it reports.
cond_start() {
	cyclictest -m -q -p 95 -a "$PB_CPU" -t 1 -i "${PB_CYCLICTEST_INTERVAL:-500}" -h 10000 \
		-D "$limit" >"$out/cyclictest.txt" 2>"$out/cyclictest.err" &
	cond_pids=$!
}
cond_stop() {
	cond_kill INT
}
