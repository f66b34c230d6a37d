# SPDX-License-Identifier: GPL-2.0
# Guest-side helpers of the reliability cases (busybox sh), sourced by every
# case script. The driver (run-cases.sh) sets REL_DIR (where the scripts are),
# REL_OUT (this case's output folder), REL_MODE (quick|full), REL_VARIANT.
# A case prints what it checks, records its counts with `count KEY VALUE`
# (REL_OUT/counts, one "key value" a line) and exits 0 pass, 1 fail, 77 skip.
# shellcheck shell=sh
# shellcheck disable=SC3043,SC2034

: "${REL_DIR:=/share/rel/bin}" "${REL_OUT:=/tmp/rel}" "${REL_MODE:=quick}" "${REL_VARIANT:=unknown}"
. "$REL_DIR/bounds.env"
DEV=/dev/nvme0n1
DISK=nvme0n1
mkdir -p "$REL_OUT"
REL_FAILS=0

say() { echo "$*"; }
bad() {
	echo "FAIL: $*"
	REL_FAILS=$((REL_FAILS + 1))
}
skip_case() {
	echo "SKIP: $*"
	echo "$*" >"$REL_OUT/skip-reason"
	exit 77
}
# finish: exit with the case's verdict.
finish() {
	if [ "$REL_FAILS" = 0 ]; then
		echo "case passed"
		exit 0
	fi
	echo "case failed: $REL_FAILS check(s)"
	exit 1
}

# count KEY VALUE: set a count (the last value of a key wins); add KEY N adds.
count() {
	touch "$REL_OUT/counts"
	grep -v "^$1 " "$REL_OUT/counts" >"$REL_OUT/counts.new" || true
	echo "$1 $2" >>"$REL_OUT/counts.new"
	mv "$REL_OUT/counts.new" "$REL_OUT/counts"
}
add() {
	local old
	old=$(awk -v k="$1" '$1 == k { print $2 }' "$REL_OUT/counts" 2>/dev/null)
	count "$1" $((${old:-0} + $2))
}

# is_polling: this variant polls synchronous RWF_HIPRI I/O. The idle
# design does not on PREEMPT_RT (the rt flavour): its idle task cannot take
# sleeping locks, so there synchronous I/O completes by interrupt.
is_polling() {
	case $REL_VARIANT:$REL_FLAVOUR in
	idle:rt) return 1 ;;
	inline:* | idle:* | hybrid:*) return 0 ;;
	*) return 1 ;;
	esac
}

# idle_param_set NAME VALUE: on the idle kernel, write VALUE to
# blk_poll.NAME (the other kernels have no such parameters). Cases about a
# polled waiter under contention set busy_irq to 0, so that their I/O stays
# polled; cases about what the idle loop finds set idle_spin_us to 0, so that
# the waiter leaves every poll to it (the default since idle v8); busy_irq
# goes back to its default (Y) after.
# A 0 goes into the counts, which then say how the case ran.
idle_param_set() {
	local k=/sys/module/blk_poll/parameters/$1
	[ -f "$k" ] || return 0
	echo "$2" >"$k" || bad "cannot write $2 to $k"
	[ "$2" != 0 ] || count "$1" 0
}

wait_dev() {
	for _ in $(seq 100); do [ -b "$DEV" ] && return 0; sleep 0.1; done
	bad "$DEV did not appear"
	return 1
}

# set_poll_queues N: reset the NVMe controller to N poll queues
# (nvme.poll_queues takes effect at a reset) and wait until it is live
# and the disk is back; false if it does not come back in 30 s.
set_poll_queues() {
	local ctrl=/sys/class/nvme/nvme0 t0
	echo "$1" >/sys/module/nvme/parameters/poll_queues || return 1
	echo 1 >$ctrl/reset_controller || return 1
	t0=$(now_cs)
	while [ "$(cat $ctrl/state)" != live ] && [ $(($(now_cs) - t0)) -lt 3000 ]; do sleep 0.1; done
	[ "$(cat $ctrl/state)" = live ] && wait_dev
}

# now_cs: guest uptime in centiseconds.
now_cs() {
	local up
	read -r up _ </proc/uptime
	echo "${up%.*}${up#*.}"
}

# Poll accounting, summed over the disk's hardware queues:
# pstat COUNTER (e.g. polled_inflight, task_polls; "polls" sums all contexts).
pstat() {
	local f
	for f in /sys/kernel/debug/block/$DISK/hctx*/poll_stats; do
		[ -f "$f" ] && cat "$f"
	done | awk -v k="$1" '$1 == k || (k ~ /^(polls|polls_found|completions|waits|yields|sleeps)$/ && $1 ~ "_" k "$") { s += $2 } END { print s + 0 }'
}
has_poll_stats() { [ -f "/sys/kernel/debug/block/$DISK/hctx0/poll_stats" ]; }

# drained WHAT: nothing of the disk is in flight (block layer inflight counts
# and, with the base series, the polled-in-flight gauge); waits up to 5 s.
drained() {
	local r w p i
	for _ in $(seq 50); do
		read -r r w <"/sys/block/$DISK/inflight"
		p=0
		has_poll_stats && p=$(pstat polled_inflight)
		[ "$r" = 0 ] && [ "$w" = 0 ] && [ "$p" = 0 ] && return 0
		sleep 0.1
	done
	bad "$1: still in flight after 5 s: reads $r writes $w polled $p"
	return 1
}

# fio_run NAME FIO-ARGS...: fio with JSON output to REL_OUT/NAME.json.
fio_run() {
	local name=$1
	shift
	fio --output-format=json --output="$REL_OUT/$name.json" "$@" >"$REL_OUT/$name.log" 2>&1
}
# fio_sum NAME KEY: sum of every numeric "KEY" : N in NAME.json.
fio_sum() {
	awk -v k="\"$2\"" '$1 == k && $2 == ":" { gsub(/,/, "", $3); s += $3 } END { printf "%d\n", s }' "$REL_OUT/$1.json" 2>/dev/null || echo 0
}
# fio_ios NAME: completed I/Os (reads + writes + trims) of every job.
fio_ios() { fio_sum "$1" total_ios; }
# fio_lat_max_us NAME: the longest total latency of any I/O, in us.
fio_lat_max_us() {
	awk '/"lat_ns" : \{/ { inlat = 1; next }
		inlat && $1 == "\"max\"" { gsub(/,/, "", $3); if ($3 + 0 > m) m = $3 + 0; inlat = 0 }
		/\}/ { inlat = 0 }
		END { printf "%d\n", m / 1000 }' "$REL_OUT/$1.json" 2>/dev/null || echo 0
}
# fio_errors NAME: sum of the jobs' error fields (0 when none).
fio_errors() { fio_sum "$1" error; }
# fio_verify_mismatch NAME: fio reported a verify failure (not an I/O error).
fio_verify_mismatch() {
	grep -qiE 'verify.*(fail|bad)|bad magic|crc32c.*(wanted|mismatch)' "$REL_OUT/$1.log" 2>/dev/null
}

# check_bound NAME BOUND_US WHAT: every I/O of NAME finished within BOUND_US.
check_bound() {
	local max
	max=$(fio_lat_max_us "$1")
	add lat_max_us_"$1" "$max"
	if [ "$max" -le "$2" ]; then
		say "ok - $3: longest I/O $max us <= bound $2 us"
	else
		bad "$3: longest I/O $max us > bound $2 us"
	fi
}

# polled fio options (pvsync2 hipri=1) and interrupt-driven ones (psync).
POLLED="--ioengine=pvsync2 --hipri=1"
IRQ="--ioengine=psync"

# hog CPU SECONDS NICE OUT: start a CPU-bound competitor, echo its pid.
hog() {
	cpuhog -c "$1" -t "$2" -o "$4" >/dev/null 2>&1 &
	local pid=$!
	[ "$3" = 0 ] || renice -n "$3" -p "$pid" >/dev/null
	echo "$pid"
}

# nvme_timeouts: how many NVMe command timeouts the kernel has logged (a
# polled request nobody polled ends in the timeout handler after 30 s).
nvme_timeouts() {
	dmesg | grep -cE 'nvme.*(I/O tag|I/O [0-9]+).*timeout|timeout, completion polled|timeout, reset controller' || true
}

# fio_loop_start NAME FIO-ARGS...: run fio again and again in the background
# (NAME-1, NAME-2, ...) until fio_loop_stop NAME; sets LOOP_PID.
fio_loop_start() {
	local name=$1
	shift
	rm -f "$REL_OUT/$name.stop"
	(
		n=0
		while [ ! -f "$REL_OUT/$name.stop" ]; do
			n=$((n + 1))
			fio_run "$name-$n" --name="$name" "$@"
			echo "$n $?" >>"$REL_OUT/$name.runs"
		done
	) &
	LOOP_PID=$!
}
# fio_loop_stop NAME LIMIT_S: let the current run finish (at most LIMIT_S
# seconds); then LOOP_RUNS, LOOP_FAILED (runs with a non-zero exit),
# LOOP_IOS, LOOP_ERRORS, LOOP_MISMATCH (runs with a verify failure),
# LOOP_LAT_MAX_US are set.
fio_loop_stop() {
	local name=$1 t0 f l
	touch "$REL_OUT/$name.stop"
	t0=$(now_cs)
	while kill -0 "$LOOP_PID" 2>/dev/null && [ $(($(now_cs) - t0)) -lt $(($2 * 100)) ]; do
		sleep 0.2
	done
	if kill -0 "$LOOP_PID" 2>/dev/null; then
		bad "$name: the fio run did not end within $2 s"
		for p in $(pidof fio); do kill -KILL "$p"; done
	fi
	wait "$LOOP_PID"
	LOOP_RUNS=$(wc -l <"$REL_OUT/$name.runs")
	LOOP_FAILED=$(awk '$2 != 0' "$REL_OUT/$name.runs" | wc -l)
	LOOP_IOS=0 LOOP_ERRORS=0 LOOP_MISMATCH=0 LOOP_LAT_MAX_US=0
	for f in "$REL_OUT/$name"-*.json; do
		[ -f "$f" ] || continue
		f=$(basename "$f" .json)
		LOOP_IOS=$((LOOP_IOS + $(fio_ios "$f")))
		LOOP_ERRORS=$((LOOP_ERRORS + $(fio_errors "$f")))
		fio_verify_mismatch "$f" && LOOP_MISMATCH=$((LOOP_MISMATCH + 1))
		l=$(fio_lat_max_us "$f")
		[ "$l" -gt "$LOOP_LAT_MAX_US" ] && LOOP_LAT_MAX_US=$l
	done
	return 0
}

# write_knob FILE VALUE: write VALUE and a newline in one write(2) (dd: the
# shell's printf does not report the errno); prints dd's error message,
# e.g. "... Invalid argument", or nothing on success.
write_knob() {
	printf '%s\n' "$2" | dd of="$1" bs=4096 2>&1 >/dev/null | grep -v -e 'records in' -e 'records out' -e 'bytes.*copied'
}
# long_value C N: the character C repeated N times.
long_value() {
	awk -v c="$1" -v n="$2" 'BEGIN { while (i++ < n) printf "%s", c; print "" }'
}

# wait_ios N: wait until the disk has completed N more I/Os (at most 30 s);
# sets IOS_SEEN. Loads are started once fio does I/O: fio's own start-up
# beside a hog would cost tens of seconds on a loaded TCG host.
wait_ios() {
	local r0 w0 r1 w1 i=0
	read -r r0 _ _ _ w0 _ <"/sys/block/$DISK/stat"
	IOS_SEEN=0
	while [ $i -lt 300 ]; do
		read -r r1 _ _ _ w1 _ <"/sys/block/$DISK/stat"
		IOS_SEEN=$((r1 + w1 - r0 - w0))
		[ $IOS_SEEN -ge "$1" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# pdelta COUNTER BEFORE: how much COUNTER grew since BEFORE. A controller
# reset re-creates the hardware queues and with them the counters; then
# the count since the restart is the growth.
pdelta() {
	local now
	now=$(pstat "$1")
	if [ "$now" -ge "$2" ]; then echo $((now - $2)); else echo "$now"; fi
}
