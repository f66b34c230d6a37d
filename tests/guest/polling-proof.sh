#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: which path completes the I/O, proven with kprobe hit counts and
# /proc/interrupts: io_uring hipri polls with no NVMe interrupts; psync never
# polls and takes an interrupt per I/O; pvsync2 hipri polls only on the
# polling variants (upstream 6.12 ignores RWF_HIPRI on sync I/O).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
for v in $(built_variants); do
	guest_job "$v" <<'EOT' || fail "$v: boot failed: $(cat "$TEST_DIR/boot/status")"
export PB_RUNTIME=3 PB_RAMP=0 PB_CPU=1
/pb/kprobes.sh >/share/kprobes-setup.txt
for w in randread-4k-qd1-psync randread-4k-qd1-pvsync2-hipri randread-4k-qd1-iouring-hipri; do
	/pb/cell.sh /share/workloads/$w.fio alone /share/out/$w || exit 1
done
EOT
	for w in psync pvsync2-hipri iouring-hipri; do
		d=$(guest_out)/out/randread-4k-qd1-$w
		ios=$(fio_ios "$d/fio.json")
		polls=$(( $(kprobe_hits "$d/kprobes.txt" nvme_poll) - $(kprobe_hits "$d/kprobes-before.txt" nvme_poll) ))
		irqs=$(irq_delta "$d/interrupts-before.txt" "$d/interrupts-after.txt" '^nvme0q[1-9]')
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
done
