#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: each variant's kernel boots (uname -r names the variant) with
# the emulated NVMe disk and exactly one poll queue, and which path completes
# the I/O is proven with kprobe hit counts and
# /proc/interrupts: io_uring hipri polls with no NVMe interrupts; psync never
# polls and takes an interrupt per I/O; pvsync2 hipri polls only on the
# polling variants (upstream 6.12 ignores RWF_HIPRI on sync I/O). The idle
# variant runs these with blk_poll.busy_irq=0, since by default it sends
# I/O submitted while another task is runnable on its CPU to the
# interrupt; a last cell checks that default: polled,
# with at most 1 I/O in 4 taking an interrupt (measured: 4.1% in
# data/default-3, 9.7% in this test while a CI run loaded the host).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

# path_counts DIR: set ios, polls (nvme_poll kprobe hits) and irqs (NVMe
# queue interrupts) of the cell in DIR.
path_counts() {
	ios=$(fio_ios "$1/fio.json")
	polls=$(( $(kprobe_hits "$1/kprobes.txt" nvme_poll) - $(kprobe_hits "$1/kprobes-before.txt" nvme_poll) ))
	irqs=$(irq_delta "$1/interrupts-before.txt" "$1/interrupts-after.txt" '^nvme0q[1-9]')
}
for v in $(built_variants); do
	guest_job "$v" <<'EOT' || fail "$v: boot failed: $(cat "$TEST_DIR/boot/status")"
uname -r >/share/uname
cat /sys/block/nvme0n1/size >/share/size
dmesg | grep -o '[0-9]*/[0-9]*/[0-9]* default/read/poll queues' >/share/queues
export PB_RUNTIME=3 PB_RAMP=0 PB_CPU=1
/pb/kprobes.sh >/share/kprobes-setup.txt
busy_irq=/sys/module/blk_poll/parameters/busy_irq
if [ -f $busy_irq ]; then echo 0 >$busy_irq || exit 1; fi
for w in randread-4k-qd1-psync randread-4k-qd1-pvsync2-hipri randread-4k-qd1-iouring-hipri; do
	/pb/cell.sh /share/workloads/$w.fio alone /share/out/$w || exit 1
done
if [ -f $busy_irq ]; then
	echo 1 >$busy_irq || exit 1
	/pb/cell.sh /share/workloads/randread-4k-qd1-pvsync2-hipri.fio alone /share/out/busy_irq || exit 1
fi
EOT
	out=$(guest_out)
	grep -qx -- ".*-pollbench-$v" "$out/uname" || fail "$v: uname -r is '$(cat "$out/uname")'"
	[ "$(cat "$out/size")" -gt 0 ] || fail "$v: nvme0n1 has no size"
	grep -q '/1 default/read/poll queues' "$out/queues" || fail "$v: queues: '$(cat "$out/queues")'"
	echo "ok - $v boots as $(cat "$out/uname"); queues $(cat "$out/queues")"
	for w in psync pvsync2-hipri iouring-hipri; do
		path_counts "$(guest_out)/out/randread-4k-qd1-$w"
		echo "$v $w: ios=$ios nvme_poll=$polls nvme_irqs=$irqs"
		[ "$ios" -gt 100 ] || fail "$v $w: only $ios I/Os"
		expect_poll=0
		[ $w = iouring-hipri ] && expect_poll=1
		[ $w = pvsync2-hipri ] && polling_variant "$v" && expect_poll=1
		if [ $expect_poll = 1 ]; then
			[ "$polls" -ge "$ios" ] || fail "$v $w: $polls polls for $ios I/Os: it did not poll"
			[ "$irqs" -le $((ios / 100)) ] || fail "$v $w: $irqs NVMe interrupts for $ios polled I/Os"
		else
			[ "$polls" = 0 ] || fail "$v $w: $polls polls, expected none"
			[ "$irqs" -ge $((ios * 9 / 10)) ] || fail "$v $w: $irqs interrupts for $ios I/Os"
		fi
	done
	[ "$v" = idle ] || continue
	# The default: polled, except I/O submitted beside a runnable task.
	path_counts "$(guest_out)/out/busy_irq"
	echo "$v pvsync2-hipri, busy_irq=1: ios=$ios nvme_poll=$polls nvme_irqs=$irqs"
	[ "$ios" -gt 100 ] || fail "$v busy_irq=1: only $ios I/Os"
	[ "$polls" -ge $((ios * 9 / 10)) ] || fail "$v busy_irq=1: $polls polls for $ios I/Os: it did not poll"
	[ "$irqs" -le $((ios / 4)) ] || fail "$v busy_irq=1: $irqs NVMe interrupts for $ios I/Os, expected at most 1 in 4"
done
