#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Description: privilege: an unprivileged user (nobody, uid 65534, given
# read-write access to the disk as a "disk" group would) can opt its own I/O
# into polling (pvsync2 hipri=1: it polls on the polling kernels), cannot
# change any knob (each write fails with "Permission denied", the value stays),
# cannot raise its own priority, and, polling beside a CPU-bound competitor on
# the same CPU at the same nice level, leaves the competitor at least
# PRIV_FAIR_MIN of that CPU.
. "$REL_DIR/lib.sh"
wait_dev || finish
PRIV_FAIR_MIN=0.40
count fair_share_min "$PRIV_FAIR_MIN"
# runas CMD: run the shell command CMD as nobody.
runas() { su -s /bin/sh nobody -c "$1"; }
uid=$(runas 'id -u' 2>&1)
[ "$uid" = 65534 ] || skip_case "cannot run a command as nobody with busybox su: '$uid'"
chmod 0666 $DEV
if [ "$REL_MODE" = full ]; then rt=10; else rt=3; fi
q=/sys/block/$DISK/queue

# 1. Its own I/O, polled.
p0=$(pstat polls)
runas "cd /tmp && fio --output-format=json --output=/tmp/user-polled.json --name=user \
	--filename=$DEV --direct=1 $POLLED --rw=randread --bs=4k --iodepth=1 \
	--size=256m --time_based=1 --runtime=$rt" >"$REL_OUT/user-polled.log" 2>&1
rc=$?
cp /tmp/user-polled.json "$REL_OUT/" 2>/dev/null
polls=$(($(pstat polls) - p0))
ios=$(fio_ios user-polled)
count user_ios "$ios"
count user_polls "$polls"
[ $rc = 0 ] && [ "$ios" -gt 0 ] || bad "fio as nobody: exit $rc, $ios I/Os: $(tail -n 3 "$REL_OUT/user-polled.log")"
if is_polling; then
	[ "$polls" -gt 0 ] && say "ok - nobody's pvsync2 hipri I/O was polled: $ios I/Os, $polls polls" ||
		bad "nobody's pvsync2 hipri I/O was not polled ($polls polls)"
else
	say "ok - nobody did $ios I/Os (this kernel does not poll sync I/O)"
fi

# 2. Knobs: root-only.
knobs="$q/io_poll $q/io_poll_delay"
for f in /sys/module/blk_poll/parameters/*; do [ -f "$f" ] && knobs="$knobs $f"; done
for f in /sys/kernel/debug/block/$DISK/hctx*/poll_stats; do [ -f "$f" ] && knobs="$knobs $f"; done
for f in $knobs; do
	before=$(cat "$f")
	case $f in
	*/io_poll) v=0 ;; */io_poll_delay) v=7 ;; */idle_remote | */busy_irq) v=N ;; */poll_stats) v=0 ;; *) v=500 ;;
	esac
	err=$(runas "printf '%s\n' $v >$f" 2>&1)
	after=$(cat "$f")
	add knob_writes_tried 1
	case $err in
	*"Permission denied"* | *"Operation not permitted"*) add knob_writes_refused 1 ;;
	*) bad "nobody wrote $v to $f: expected 'Permission denied', got '${err:-success}'" ;;
	esac
	case $f in
	*/poll_stats) ;; # counters move with other I/O; a refused write cannot reset them
	*) [ "$before" = "$after" ] || bad "$f changed from '$before' to '$after' after nobody's write" ;;
	esac
done
say "knobs: $(awk '$1 == "knob_writes_refused" { print $2 }' "$REL_OUT/counts") of $(awk '$1 == "knob_writes_tried" { print $2 }' "$REL_OUT/counts") writes by nobody refused"

# 3. No priority boost.
err=$(runas 'renice -n -10 -p $$' 2>&1) && bad "nobody raised its own priority: $err"
add boost_refused 1

# 4. Fair share against a competitor on the same CPU, same nice level.
hp=$(hog 1 $((rt + 30)) 0 "$REL_OUT/competitor.txt")
sleep 0.2
runas "cd /tmp && taskset -c 1 fio --output-format=json --output=/tmp/user-contended.json \
	--name=user --filename=$DEV --direct=1 $POLLED --rw=randread --bs=4k \
	--iodepth=1 --size=256m --time_based=1 --runtime=$rt" >"$REL_OUT/user-contended.log" 2>&1
rc=$?
kill -TERM "$hp"
# The hog was started in a command substitution: not our child; wait for
# the report it writes on SIGTERM.
for _ in $(seq 100); do grep -q '^cpu_share' "$REL_OUT/competitor.txt" 2>/dev/null && break; sleep 0.1; done
cp /tmp/user-contended.json "$REL_OUT/" 2>/dev/null
share=$(awk '$1 == "cpu_share" { print $2 }' "$REL_OUT/competitor.txt")
count competitor_cpu_share "${share:-0}"
count user_ios_contended "$(fio_ios user-contended)"
[ $rc = 0 ] || bad "contended fio as nobody: exit $rc"
if awk -v s="${share:-0}" -v m=$PRIV_FAIR_MIN 'BEGIN { exit !(s >= m) }'; then
	say "ok - the competitor kept ${share} of CPU1 beside nobody's polling fio (min $PRIV_FAIR_MIN)"
else
	bad "the competitor got only ${share:-?} of CPU1 beside nobody's polling fio (min $PRIV_FAIR_MIN)"
fi
chmod 0600 $DEV
finish
