#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: (pollbench/001) a polled read larger than the queue's
# max_sectors is split, and the split loses REQ_POLLED: it completes by
# interrupt, so its waiter must sleep, not poll. On every kernel that polls
# synchronous I/O, booted with threadirqs, a SCHED_FIFO 60 reader on CPU1
# (above the FIFO 50 interrupt threads) reads 1 MiB with pvsync2 hipri=1
# (one bio, always split at 512 KiB): every read completes, and no context
# polls any hardware queue meanwhile. A waiter that spun instead could
# starve the interrupt thread that completes it, for ever. 4 MiB reads
# (several bios, some split) must complete too, without a poll: I/O of
# several bios is never polled (when v2 polled it for a bio that stayed
# polled, the hybrid kernel's reader hung). A 4 KiB polled read in the
# same boot still polls.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
variants=()
for v in $(built_variants); do
	polling_variant "$v" && variants+=("$v")
done
[ ${#variants[@]} -gt 0 ] || skip "no kernel that polls synchronous I/O is under test"

for v in "${variants[@]}"; do
	[ -f "$(variant_obj "$v")/pollbench-build.env" ] || fail "$v is not built"
	guest_job "$v" --append threadirqs <<'EOT' || fail "$v: boot failed (a spinning waiter hangs it): $(cat "$TEST_DIR/boot/status")"
set -u
out=/share/out
mkdir -p $out
d=nvme0n1
cat /sys/block/$d/queue/max_sectors_kb >$out/max_sectors_kb
# polls: every poll of every hardware queue, by any context, so far.
polls() {
	cat /sys/kernel/debug/block/$d/hctx*/poll_stats |
		awk '$1 ~ /_polls$/ { s += $2 } END { print s + 0 }'
}
for bs in 1m 4m; do
	polls >$out/polls-$bs-0
	timeout -s KILL 120 chrt -f 60 taskset -c 1 fio --name=split \
		--filename=/dev/$d --direct=1 --ioengine=pvsync2 --hipri=1 \
		--rw=randread --bs=$bs --size=512m --number_ios=40 \
		--output-format=json --output=$out/split-$bs.json >$out/split-$bs.log 2>&1 ||
		echo "fio bs=$bs failed: rc $?" >>$out/errors
	polls >$out/polls-$bs-1
done
polls >$out/polls-1
taskset -c 1 fio --name=small --filename=/dev/$d --direct=1 \
	--ioengine=pvsync2 --hipri=1 --rw=randread --bs=4k --size=512m \
	--number_ios=200 --output-format=json --output=$out/small.json \
	>$out/small.log 2>&1 || echo "fio bs=4k failed" >>$out/errors
polls >$out/polls-2
EOT
	out=$(guest_out)/out
	[ ! -s "$out/errors" ] || fail "$v: $(cat "$out/errors")"
	max_kb=$(cat "$out/max_sectors_kb")
	[ "$max_kb" -lt 1024 ] || fail "$v: max_sectors_kb is $max_kb: a 1 MiB read would not be split"
	for bs in 1m 4m; do
		n=$(fio_ios "$out/split-$bs.json")
		[ "$n" = 40 ] || fail "$v: $n of 40 $bs reads completed"
	done
	split_polls=$(($(cat "$out/polls-1m-1") - $(cat "$out/polls-1m-0")))
	multi_polls=$(($(cat "$out/polls-4m-1") - $(cat "$out/polls-4m-0")))
	small_polls=$(($(cat "$out/polls-2") - $(cat "$out/polls-1")))
	echo "$v: max_sectors_kb $max_kb; 40 x 1 MiB split reads: $split_polls polls; 40 x 4 MiB reads: $multi_polls polls; 200 x 4 KiB polled reads: $small_polls polls"
	[ "$split_polls" = 0 ] || fail "$v: $split_polls polls while only split (interrupt-driven) reads were in flight: the waiter polled"
	[ "$multi_polls" = 0 ] || fail "$v: $multi_polls polls for reads of several bios, which are not polled"
	[ "$small_polls" -ge 200 ] || fail "$v: only $small_polls polls for 200 polled 4 KiB reads: the counters do not count"
done
echo "ok - split polled reads sleep until their interrupt on: ${variants[*]}"
