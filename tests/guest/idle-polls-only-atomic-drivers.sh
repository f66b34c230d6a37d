#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: (pollbench/005) the idle kernel's idle task polls only
# queues whose driver's ->poll() never sleeps (BLK_MQ_F_POLL_ATOMIC): a
# memory-backed null_blk disk, whose poll allocates pages, shows no
# POLL_ATOMIC in its hctx flags, and its polled pvsync2 hipri writes
# complete by interrupt with no poll of any context counted; a disk
# without memory backing shows the flag and its polled reads are found by
# the idle loop (the control that the counters see idle polls at all; the
# waiter's poll window, blk_poll.idle_spin_us, is off for it).
# A kernel report on the console fails the boot (guest-run.sh); the
# release kernel has no DEBUG_ATOMIC_SLEEP to report a sleep in the idle
# task, the debug flavour's flush-on-poll-queue case does.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
v=idle
grep -qx $v <<<"$(built_variants)" || skip "idle is not among the variants under test"
[ -f "$(variant_obj $v)/arch/x86/boot/bzImage" ] || fail "$v is not built"

guest_job $v <<'EOT' || fail "$v: boot failed: $(cat "$TEST_DIR/boot/status")"
# plain: /dev/nullb0, not memory backed, 10 us; mem: memory backed, 10 us.
/pb/nullb.sh up 10 || exit 1
mem=/sys/kernel/config/nullb/nullbmem
mkdir $mem || exit 1
for kv in queue_mode=2 submit_queues=1 poll_queues=1 irqmode=2 \
	completion_nsec=10000 blocksize=4096 size=64 memory_backed=1 power=1; do
	echo "${kv#*=}" >"$mem/${kv%%=*}" || exit 1
done
for _ in $(seq 50); do [ -b /dev/nullbmem ] && break; sleep 0.1; done
[ -b /dev/nullbmem ] || exit 1
snap() {
	for f in /sys/kernel/debug/block/nullb*/hctx*/"$1"; do
		sed "s|^|${f#/sys/kernel/debug/block/} |" "$f"
	done >"/share/$2"
}
snap flags flags.txt
# Keep the I/O polled even if another task is runnable on its CPU, and
# leave every poll to the idle loop (no poll window before the first sleep).
echo 0 >/sys/module/blk_poll/parameters/busy_irq || exit 1
echo 0 >/sys/module/blk_poll/parameters/idle_spin_us || exit 1
io() {
	taskset -c 1 fio --name="$1" --filename="$2" --direct=1 --ioengine=pvsync2 \
		--hipri=1 --rw="$3" --bs=4k --size=32m --number_ios=500 \
		--output-format=json --output="/share/$1.json" || exit 1
}
snap poll_stats poll-stats-0.txt
io mem /dev/nullbmem randwrite
snap poll_stats poll-stats-1.txt
io plain /dev/nullb0 randread
snap poll_stats poll-stats-2.txt
EOT
out=$(guest_out)

# flag DISK: the hctx flags line of DISK's poll queue (hctx1).
flags_of() { awk -v d="$1/hctx1/flags" '$1 == d' "$out/flags.txt"; }
grep -q POLL_ATOMIC <<<"$(flags_of nullb0)" || fail "nullb0 (not memory backed): no POLL_ATOMIC in '$(flags_of nullb0)'"
! grep -q POLL_ATOMIC <<<"$(flags_of nullbmem)" || fail "nullbmem (memory backed): POLL_ATOMIC in '$(flags_of nullbmem)'"
echo "ok - hctx flags: nullb0 '$(flags_of nullb0 | cut -d' ' -f2-)', nullbmem '$(flags_of nullbmem | cut -d' ' -f2-)'"

# polls DISK FROM TO COUNTER: COUNTER over DISK's hardware queues, TO - FROM.
polls() {
	awk -v d="$1" -v c="$4" -v f="$out/poll-stats-$2.txt" '
		$1 ~ "^" d "/hctx[0-9]+/poll_stats$" && $2 == c { s += (FILENAME == f ? -$3 : $3) }
		END { print s + 0 }' "$out/poll-stats-$2.txt" "$out/poll-stats-$3.txt"
}

ios=$(fio_ios "$out/mem.json")
[ "$ios" = 500 ] || fail "nullbmem: $ios of 500 polled writes completed"
for c in task_polls idle_polls timer_polls; do
	n=$(polls nullbmem 0 1 $c)
	[ "$n" = 0 ] || fail "nullbmem: $c rose by $n; a queue whose poll may sleep must not be polled"
done
echo "ok - nullbmem: 500 polled writes, no poll of any context"

ios=$(fio_ios "$out/plain.json")
[ "$ios" = 500 ] || fail "nullb0: $ios of 500 polled reads completed"
n=$(polls nullb0 1 2 idle_polls)
[ "$n" -gt 0 ] || fail "nullb0: no idle poll during 500 polled reads: the control sees no idle polling"
echo "ok - nullb0: 500 polled reads, idle polls $n, idle completions $(polls nullb0 1 2 idle_completions)"
