#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The null_blk disk of a cell or test: nullb.sh up US [POLL_QUEUES [SUBMIT_QUEUES]] | down
# up: create /dev/nullb0 through configfs, blk-mq with SUBMIT_QUEUES submit
# queues and POLL_QUEUES poll queues (default 1 each), 4 KiB blocks, 1 GiB, not memory
# backed, every request completing US microseconds after submission
# (irqmode 2: from a timer; the base series makes polled requests honour
# that too), and wait until the device node exists.
# down: power it off and remove it (nothing to do if there is none).
# Exit status 0, or 1 with the reason on stderr.
set -u
nullb=/sys/kernel/config/nullb/nullb0
dev=/dev/nullb0

die() {
	echo "nullb.sh: $*" >&2
	exit 1
}

case ${1:-} in
up)
	us=${2:-}
	pq=${3:-1}
	sq=${4:-1}
	case $us in '' | *[!0-9]* | 0*) die "up: US must be a positive integer, got '$us'" ;; esac
	case $pq in '' | *[!0-9]* | 0*) die "up: POLL_QUEUES must be a positive integer, got '$pq'" ;; esac
	case $sq in '' | *[!0-9]* | 0*) die "up: SUBMIT_QUEUES must be a positive integer, got '$sq'" ;; esac
	[ ! -e "$nullb" ] || die "up: $nullb exists already"
	mkdir "$nullb" || die "up: cannot create $nullb (null_blk loaded, configfs mounted?)"
	# queue_mode 2 is blk-mq, irqmode 2 completes from a timer.
	for kv in queue_mode=2 submit_queues=$sq poll_queues=$pq irqmode=2 \
		completion_nsec=$((us * 1000)) blocksize=4096 size=1024 \
		memory_backed=0 power=1; do
		echo "${kv#*=}" >"$nullb/${kv%%=*}" || die "up: writing ${kv#*=} to $nullb/${kv%%=*} failed"
	done
	# null_blk quietly caps the queues (poll queues at its poll_queues
	# module parameter): read back what the device got.
	for kv in submit_queues=$sq poll_queues=$pq; do
		got=$(cat "$nullb/${kv%%=*}")
		[ "$got" = "${kv#*=}" ] || die "up: asked for ${kv#*=} ${kv%%=*}, got $got (boot with null_blk.poll_queues=N for N poll queues)"
	done
	for _ in $(seq 50); do [ -b "$dev" ] && exit 0; sleep 0.1; done
	die "up: $dev did not appear"
	;;
down)
	[ -d "$nullb" ] || exit 0
	echo 0 >"$nullb/power" || die "down: cannot power $nullb off"
	rmdir "$nullb" || die "down: cannot remove $nullb"
	;;
*)
	die "usage: nullb.sh up US [POLL_QUEUES [SUBMIT_QUEUES]] | down"
	;;
esac
