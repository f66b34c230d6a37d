#!/bin/sh
# Sweep of the idle variant's knobs within one boot (fio pvsync2 hipri, QD1 4k randread on CPU1)
export PB_RUNTIME=3 PB_RAMP=1 PB_CPU=1
P=/sys/module/blk_poll/parameters
W=/share/workloads/randread-4k-qd1-pvsync2-hipri.fio
set_p() { echo $1 > $P/fallback_us; echo $2 > $P/idle_budget_us; echo $3 > $P/idle_remote; }
cell() { name=$1 cond=$2; shift 2; set_p "$@"; /pb/cell.sh $W $cond /share/out/$name-$cond; }
for rep in 1 2; do
/pb/cell.sh /share/workloads/randread-4k-qd1-psync.fio alone /share/out/psync-r$rep-alone
cell d-r$rep alone 100 200 Y
cell b50-r$rep alone 100 50 Y
cell b2000-r$rep alone 100 2000 Y
cell b0-r$rep alone 100 0 Y
cell t50b0-r$rep alone 50 0 Y
cell d-r$rep competitor 100 200 Y
cell nr-r$rep competitor 100 200 N
cell t50-r$rep competitor 50 200 Y
cell t200-r$rep competitor 200 200 Y
cell d-r$rep busy 100 200 Y
cell t50-r$rep busy 50 200 Y
cell t200-r$rep busy 200 200 Y
/pb/cell.sh /share/workloads/randread-4k-qd1-psync.fio competitor /share/out/psync-r$rep-competitor
/pb/cell.sh /share/workloads/randread-4k-qd1-psync.fio busy /share/out/psync-r$rep-busy
done
# bad values must be rejected
for v in 0 9 1000001 abc -1; do echo $v > $P/fallback_us 2>/dev/null && echo "BAD: fallback_us accepted $v"; done
for v in 1000001 abc -1; do echo $v > $P/idle_budget_us 2>/dev/null && echo "BAD: idle_budget_us accepted $v"; done
cat $P/*
