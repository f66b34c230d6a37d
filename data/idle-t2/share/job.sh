#!/bin/sh
export PB_RUNTIME=3 PB_RAMP=1 PB_CPU=1
P=/sys/module/blk_poll/parameters
W=/share/workloads/randread-4k-qd1-pvsync2-hipri.fio
cell() { name=$1 cond=$2; echo $3 > $P/fallback_us; echo $4 > $P/idle_budget_us; /pb/cell.sh $W $cond /share/out/$name-$cond; }
for rep in 1 2; do
/pb/cell.sh /share/workloads/randread-4k-qd1-psync.fio alone /share/out/psync-r$rep-alone
cell d-r$rep alone 100 200
cell b2000-r$rep alone 100 2000
cell b2000t1000-r$rep alone 1000 2000
cell b0-r$rep alone 100 0
done
