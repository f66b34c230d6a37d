#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Count hits on the interrupt and poll paths with kprobe events, as proof of
# which path completed the I/O (6.12 itself has no poll counters). The trace
# buffer stays off: only kprobe_profile's hit counts are used. Each hit costs
# a trap, so benchmarks leave this off and tests turn it on.
t=/sys/kernel/tracing
[ -d "$t" ] || exit 1
echo 0 >"$t/tracing_on"
for fn in nvme_irq nvme_poll bio_poll blk_mq_poll submit_bio_wait blk_io_schedule \
	"$@"; do
	grep -q " $fn\$" /proc/kallsyms || continue
	echo "p:pb_$fn $fn" >>"$t/kprobe_events" 2>/dev/null || continue
	echo 1 >"$t/events/kprobes/pb_$fn/enable"
done
cat "$t/kprobe_profile"
