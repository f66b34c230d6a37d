#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Description: bad input: every knob the series add, and queue/io_poll, is
# written with bad values (negative, out of range, huge, non-numeric, empty,
# overlong, trailing junk) while polled I/O runs: each write must fail with
# -EINVAL ("Invalid argument") and leave the value unchanged; a valid value
# must still be accepted afterwards (for queue/io_poll, any decimal up to
# 4294967295, as before 5.x). Knobs: queue/io_poll, queue/io_poll_delay on
# the hybrid kernel (elsewhere it must stay upstream's: any write accepted,
# reads -1), debugfs hctx*/poll_stats (only 0 resets), and on the idle kernel
# /sys/module/blk_poll/parameters/{fallback_us,idle_budget_us,idle_remote,
# busy_irq,idle_spin_us}.
# (The harness's own scripts with bad arguments, missing tools and a full
# disk are covered on the host by tests/unit/bad-input-clear-errors.sh.)
. "$REL_DIR/lib.sh"
wait_dev || finish
q=/sys/block/$DISK/queue
case $REL_VARIANT in
baseline | baseline-nullb | iouring-hybrid)
	# Upstream's block layer (the reference kernels add only a null_blk
	# fix or io_uring's hybrid IOPOLL): record what it does, then skip.
	err=$(write_knob $q/io_poll 2)
	echo "$REL_VARIANT io_poll=2: '${err:-accepted}', reads $(cat $q/io_poll)" >"$REL_OUT/baseline-io_poll.txt"
	skip_case "$REL_VARIANT has upstream 6.12's queue/io_poll, which ignores writes (logs a message), and none of the series' knobs"
	;;
esac
long=$(long_value 9 300)
# try FILE VALUE...: each VALUE must get EINVAL.
try() {
	f=$1
	shift
	for v in "$@"; do
		before=$(cat "$f")
		err=$(write_knob "$f" "$v")
		after=$(cat "$f")
		add bad_values_tried 1
		case $err in
		*"Invalid argument"*) add einval 1 ;;
		*) bad "$(basename "$f") <- '$(echo "$v" | cut -c1-24)': expected 'Invalid argument', got '${err:-success}'"
			add not_einval 1 ;;
		esac
		if [ "$(basename "$f")" = poll_stats ]; then
			# Counters only grow under I/O; a reset would drop them.
			b=$(echo "$before" | awk '$1 ~ /_waits$/ { s += $2 } END { print s + 0 }')
			a=$(awk '$1 ~ /_waits$/ { s += $2 } END { print s + 0 }' "$f")
			[ "$a" -ge "$b" ] || bad "poll_stats <- '$v' reset the counters ($b -> $a)"
		elif [ "$before" != "$after" ]; then
			bad "$(basename "$f") <- '$(echo "$v" | cut -c1-24)' changed it from '$before' to '$after'"
		fi
	done
}
# valid FILE VALUE: VALUE is accepted and read back; the old value restored.
valid() {
	old=$(cat "$1")
	err=$(write_knob "$1" "$2")
	[ -z "$err" ] && [ "$(cat "$1")" = "$2" ] || bad "$(basename "$1") <- '$2' (valid): '$err', reads '$(cat "$1")'"
	err=$(write_knob "$1" "$old")
	[ -z "$err" ] || bad "$(basename "$1"): restoring '$old' failed: $err"
	add valid_values_accepted 1
}

# Polled I/O runs in the background the whole time.
name=io-during-bad-writes
# shellcheck disable=SC2086
fio_loop_start $name --filename=$DEV --direct=1 $POLLED --rw=randread --bs=4k \
	--iodepth=1 --size=256m --time_based=1 --runtime=2
sleep 1
for f in $q/io_poll $q/io_poll_delay; do
	[ -f $f ] || bad "$f missing"
done
try $q/io_poll -1 4294967296 99999999999999999999 abc "" "$long" 1abc " " 0x1
valid $q/io_poll 0
valid $q/io_poll 1
# The historic ABI: any decimal up to UINT_MAX is accepted, non-zero is on.
for v in 2 4294967295; do
	echo 0 >$q/io_poll
	err=$(write_knob $q/io_poll $v)
	[ -z "$err" ] && [ "$(cat $q/io_poll)" = 1 ] || bad "io_poll <- '$v' (historic ABI: on): '$err', reads '$(cat $q/io_poll)'"
	add valid_values_accepted 1
done
echo 1 >$q/io_poll
if [ "$REL_VARIANT" = hybrid ]; then
	try $q/io_poll_delay -2 -2147483649 1000001 2147483648 99999999999999999999 abc "" "$long" 5x 1.5
	valid $q/io_poll_delay 50
	valid $q/io_poll_delay -1
else
	# Only the hybrid series stores it; elsewhere upstream's ABI stays.
	for v in 50 abc -2; do
		err=$(write_knob $q/io_poll_delay "$v")
		[ -z "$err" ] && [ "$(cat $q/io_poll_delay)" = -1 ] ||
			bad "io_poll_delay <- '$v' (upstream: accepted, reads -1): '$err', reads '$(cat $q/io_poll_delay)'"
		add valid_values_accepted 1
	done
fi
if has_poll_stats; then
	# One queue's file: every hctx's poll_stats has the same store.
	try /sys/kernel/debug/block/$DISK/hctx0/poll_stats 1 -1 4294967296 abc "" "$long"
else
	bad "no poll_stats in debugfs"
fi
m=/sys/module/blk_poll/parameters
if [ "$REL_VARIANT" = idle ]; then
	[ -d $m ] || bad "$m missing on the idle kernel"
	try $m/fallback_us 0 9 1000001 -1 4294967296 99999999999999999999 abc "" "$long" 100us
	valid $m/fallback_us 200
	try $m/idle_budget_us -1 1000001 4294967296 abc "" "$long" 5x
	valid $m/idle_budget_us 0
	try $m/idle_remote 2 -1 abc "" "$long" maybe
	valid $m/idle_remote N
	valid $m/idle_remote Y
	try $m/busy_irq 2 -1 abc "" "$long" maybe
	valid $m/busy_irq N
	valid $m/busy_irq Y
	try $m/idle_spin_us -1 1001 4294967296 abc "" "$long" 50us
	valid $m/idle_spin_us 0
	valid $m/idle_spin_us 50
elif [ -d $m ]; then
	say "note: $m exists on $REL_VARIANT: $(ls $m)"
fi
fio_loop_stop $name 120
count ios_during "$LOOP_IOS"
[ "$LOOP_FAILED" = 0 ] || bad "the background polled fio failed ($LOOP_FAILED of $LOOP_RUNS runs)"
drained $name
add not_einval 0
finish
