#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC3043 # busybox ash has local
# Description: privilege: an unprivileged user (nobody, uid 65534, given
# read-write access to the disk as a "disk" group would) can opt its own I/O
# into polling (pvsync2 hipri=1: it polls on the polling kernels), cannot
# change any knob (each write fails with "Permission denied", the value stays),
# cannot raise its own priority, and, polling beside a CPU-bound competitor on
# the same CPU at the same nice level, leaves the competitor at least
# PRIV_FAIR_MIN of the CPU time the two of them get. Both are measured over
# one window inside fio's run (each thread's exec time from
# /proc/*/task/*/schedstat); what neither got (interrupt threads and
# timers, which take CPU first on PREEMPT_RT) is recorded beside them.
. "$REL_DIR/lib.sh"
wait_dev || finish
PRIV_FAIR_MIN=0.40
count fair_share_min "$PRIV_FAIR_MIN"
# runas CMD: run the shell command CMD as nobody.
runas() { su -s /bin/sh nobody -c "$1"; }
uid=$(runas 'id -u' 2>&1)
[ "$uid" = 65534 ] || skip_case "cannot run a command as nobody with busybox su: '$uid'"
chmod 0666 $DEV
if [ "$REL_MODE" = full ]; then rt=10 crt=16 win=6; else rt=3 crt=7 win=2; fi
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
# thread_times DIR...: "tid exec_ns last_cpu comm" of the threads whose
# /proc/PID/task/TID folders are given (stat's 39th
# field is the CPU it last ran on; comm may hold spaces, so it comes last
# and the fields after the ")" are counted).
# Shell builtins only: a fork per thread would stretch the window.
thread_times() {
	local t ns line comm
	for t in "$@"; do
		{ read -r ns _ <"$t/schedstat" && read -r line <"$t/stat"; } 2>/dev/null || continue
		comm=${line#*\(}
		comm=${comm%\)*}
		# shellcheck disable=SC2086 # split stat's fields
		set -- ${line##*\) }
		shift 36
		echo "${t##*/} $ns $1 $comm"
	done
}
# nobody_fio: the pids of nobody's fio processes (fio forks one per job).
# The uid comes from status: su's children are not dumpable, so their /proc
# folders belong to root.
nobody_fio() {
	local d c
	for d in /proc/[0-9]*; do
		read -r c <"$d/comm" 2>/dev/null || continue
		[ "$c" = fio ] || continue
		[ "$(status_field "${d#/proc/}" Uid)" = 65534 ] && echo "${d#/proc/}"
	done
}
# status_field PID KEY: the first value of KEY in /proc/PID/status.
status_field() {
	local k v
	while read -r k v _; do
		[ "$k" = "$2:" ] && echo "$v" && return
	done <"/proc/$1/status" 2>/dev/null
}
hp=$(hog 1 $((crt + 30)) 0 "$REL_OUT/competitor.txt")
sleep 0.2
runas "cd /tmp && taskset -c 1 fio --output-format=json --output=/tmp/user-contended.json \
	--name=user --filename=$DEV --direct=1 $POLLED --rw=randread --bs=4k \
	--iodepth=1 --size=256m --time_based=1 --runtime=$crt" >"$REL_OUT/user-contended.log" 2>&1 &
fp=$!
# The window opens once fio's job process runs (main and job: two fio
# processes) and a second has passed; the sampler runs on CPU 0 and writes
# to tmpfs (the share's interrupt thread runs on CPU 1). A snapshot
# of every thread takes a second or two under TCG, so each end of the
# window is the middle of its snapshot; fio runs crt s, long enough for
# the wait, both snapshots and the window.
n=0
while [ "$(nobody_fio | wc -l)" -lt 2 ] && [ $n -lt 200 ]; do sleep 0.1; n=$((n + 1)); done
sleep 1
fios=$(nobody_fio | tr '\n' ' ')
taskset -p -c 0 $$ >/dev/null
w=$(mktemp -d /tmp/window.XXXXXX)
owned=$(for p in $hp $fios; do echo /proc/"$p"/task/[0-9]*; done)
# fio's job processes: those whose parent is fio's main process.
job_pids=$(for p in $fios; do
	case " $fios " in *" $(status_field "$p" PPid) "*) echo "$p" ;; esac
done | tr '\n' ' ')
for t in $owned; do p=${t#/proc/}; echo "${t##*/} ${p%%/*}"; done >"$w/owners"
# The hog's and fio's threads are read between two clock readings (a few
# files: exact to the clock's 10 ms); everyone else's after, for the list.
read -r a _ </proc/uptime
# shellcheck disable=SC2086 # one folder a word
thread_times $owned >"$w/owned-0"
read -r b _ </proc/uptime
thread_times /proc/[0-9]*/task/[0-9]* >"$w/threads-0"
sleep "$win"
read -r c _ </proc/uptime
# shellcheck disable=SC2086
thread_times $owned >"$w/owned-1"
read -r d _ </proc/uptime
thread_times /proc/[0-9]*/task/[0-9]* >"$w/threads-1"
cp "$w"/* "$REL_OUT/"
still=$(nobody_fio | wc -l)
wait "$fp"
rc=$?
kill -TERM "$hp"
# The hog was started in a command substitution: not our child; its report
# on SIGTERM (competitor.txt, kept as raw data) says it has left CPU 1.
for _ in $(seq 100); do grep -q '^cpu_share' "$REL_OUT/competitor.txt" 2>/dev/null && break; sleep 0.1; done
cp /tmp/user-contended.json "$REL_OUT/" 2>/dev/null
[ $rc = 0 ] || bad "contended fio as nobody: exit $rc"
[ -n "$fios" ] && [ -n "$job_pids" ] && [ "$still" -ge 2 ] || bad "fio's job was not running through the window (pids at the start: '${fios:-none}', fio processes at the end: $still)"
# Over the window: the hog's and fio's CPU time, their shares of CPU 1,
# the hog's share against fio's job process alone (fio's main process and
# helper thread left out), and the threads that took the rest (by their
# share, cpu1-others.txt: those that last ran on CPU 1, from the two full
# snapshots).
ns=$(awk -v a="$a" -v b="$b" -v c="$c" -v d="$d" 'BEGIN { printf "%.0f", ((c + d) - (a + b)) / 2 * 1e9 }')
awk -v hog="$hp" -v jobs="$job_pids" -v ns="$ns" '
	BEGIN { n = split(jobs, js, " "); for (i = 1; i <= n; i++) job[js[i]] = 1 }
	FILENAME ~ /owners$/ { pid[$1] = $2; next }
	FILENAME ~ /owned-0$/ { t0[$1] = $2; next }
	$1 in t0 { x = $2 - t0[$1]; if (pid[$1] == hog) h += x; else { f += x; if (pid[$1] in job) j += x } }
	END { printf "%.4f %.4f %.4f %.4f %.2f %.4f\n", h / ns, f / ns, 1 - (h + f) / ns, (h + f) ? h / (h + f) : 0, ns / 1e9, (h + j) ? h / (h + j) : 0 }
	' "$REL_OUT/owners" "$REL_OUT/owned-0" "$REL_OUT/owned-1" >"$REL_OUT/window"
awk -v ns="$ns" '
	FILENAME ~ /owners$/ { own[$1] = 1; next }
	FILENAME ~ /threads-0$/ { t0[$1] = $2; next }
	!($1 in own) && $3 == 1 { x = $2 - ($1 in t0 ? t0[$1] : 0); c = $4; for (i = 5; i <= NF; i++) c = c "_" $i; o[c] += x }
	END { for (c in o) if (o[c] > 0) printf "%s %.4f\n", c, o[c] / ns }
	' "$REL_OUT/owners" "$REL_OUT/threads-0" "$REL_OUT/threads-1" | sort -k2 -rn >"$REL_OUT/cpu1-others.txt"
read -r share user_share other_share fair window_s job_ratio <"$REL_OUT/window"
count competitor_cpu_share "$share"
count user_cpu_share "$user_share"
count other_cpu_share "$other_share"
count competitor_fair_ratio "$fair"
count competitor_job_ratio "$job_ratio"
count window_s "$window_s"
count user_ios_contended "$(fio_ios user-contended)"
say "CPU1 over ${window_s} s inside fio's run: competitor $share, nobody's fio $user_share, others $other_share (top: $(head -n 3 "$REL_OUT/cpu1-others.txt" | tr '\n' ' '))"
if awk -v s="$fair" -v m=$PRIV_FAIR_MIN 'BEGIN { exit !(s >= m) }'; then
	say "ok - the competitor got $fair of the CPU1 time it and nobody's polling fio got (min $PRIV_FAIR_MIN)"
else
	bad "the competitor got only $fair of the CPU1 time it and nobody's polling fio got (min $PRIV_FAIR_MIN)"
fi
chmod 0600 $DEV
finish
