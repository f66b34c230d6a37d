#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: (pollbench/001) a polled read larger than the queue's
# max_sectors is split, and the split loses REQ_POLLED: it completes by
# interrupt, so its waiter must sleep, not poll. The reliability case
# split-bio-fifo (tests/reliability/split-bio-fifo.sh, booted with
# threadirqs) at its quick size on every kernel that polls synchronous I/O:
# a SCHED_FIFO 60 reader on CPU1 reads 40 x 1 MiB (one bio, always split)
# and 40 x 4 MiB (several bios, never polled), every read completes and no
# context polls meanwhile; 4 KiB polled reads in the same boot still poll.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
variants=()
for v in $(built_variants); do
	polling_variant "$v" && variants+=("$v")
done
[ ${#variants[@]} -gt 0 ] || skip "no kernel that polls synchronous I/O is under test"
reliability_case split-bio-fifo "${variants[@]}"
echo "ok - split polled reads sleep until their interrupt on: ${variants[*]}"
