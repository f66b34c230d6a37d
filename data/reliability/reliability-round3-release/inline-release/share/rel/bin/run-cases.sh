#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Description: guest-side driver of the reliability suite: runs each case
# named on the command line in one boot, with a marker in /dev/kmsg before
# and after it (the host judges splats per case between the markers), the
# hung-task detector at a short timeout, and a time limit per case.
# Environment: REL_VARIANT, REL_FLAVOUR, REL_MODE (quick|full), REL_SOAK_S.
# Writes /share/rel/out/<case>/{log,rc,counts}.
export REL_DIR=/share/rel/bin
: "${REL_MODE:=quick}" "${REL_FLAVOUR:=release}" "${REL_VARIANT:=unknown}"
export REL_MODE REL_FLAVOUR REL_VARIANT
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
# A task in D state for 10 s is reported (default 120 s); the host fails the
# case on "blocked for more than".
echo 10 >/proc/sys/kernel/hung_task_timeout_secs
echo 1 >/proc/sys/kernel/hung_task_all_cpu_backtrace 2>/dev/null
uname -r >/share/rel/out/uname
rc_all=0
for c in "$@"; do
	out=/share/rel/out/$c
	mkdir -p "$out"
	limit=${REL_CASE_LIMIT:-900}
	echo "pollbench-reliability: case $c start" >/dev/kmsg
	start=$(cut -d' ' -f1 /proc/uptime)
	REL_OUT=$out timeout -s KILL "$limit" sh "$REL_DIR/$c.sh" >"$out/log" 2>&1
	rc=$?
	end=$(cut -d' ' -f1 /proc/uptime)
	[ $rc = 137 ] && echo "FAIL: case did not finish within ${limit}s" >>"$out/log"
	echo $rc >"$out/rc"
	echo "$start $end" >"$out/uptime"
	dmesg >"$out/dmesg.txt"
	echo "pollbench-reliability: case $c end rc=$rc" >/dev/kmsg
	sync
	case $rc in 0 | 77) ;; *) rc_all=1 ;; esac
done
exit $rc_all
