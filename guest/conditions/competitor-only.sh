# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034,SC2154 # shares variables with guest/cell.sh
# Condition competitor-only: the competitor's rate alone on fio's vCPU,
# the reference for its loss; no fio runs (cond_no_io). It runs as long as
# a whole fio job, or PB_COMPETITOR_SECONDS when jobs are a fixed number
# of I/Os.
cond_no_io=1
cond_start() {
	cpuhog -c "$PB_CPU" -t "${PB_COMPETITOR_SECONDS:-$((PB_RUNTIME + PB_RAMP))}" -o "$out/competitor.txt"
}
cond_stop() { :; }
