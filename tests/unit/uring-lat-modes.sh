#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: guest/tools/uring-lat takes exactly one of a read count
# (-n) or a run time (-t), rejects the rest as bad usage (exit 2), and on
# a host file (interrupt-driven, -I) runs for the time asked after a ramp
# that stays outside its -B/-A window and out of its latencies.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
need_tool gcc make jq
rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR"
make -s -C "$PB_ROOT/guest/tools" OUT="$TEST_DIR" CC=gcc "$TEST_DIR/uring-lat"
ul=$TEST_DIR/uring-lat
img=$TEST_DIR/disk.img
dd if=/dev/zero of="$img" bs=1M count=8 status=none

# usage DESCRIPTION PATTERN ARGS...: uring-lat ARGS must exit 2 (bad usage)
# and say PATTERN.
usage() {
	local what=$1 pattern=$2 rc=0
	shift 2
	"$ul" "$@" "$img" >/dev/null 2>"$TEST_DIR/err" || rc=$?
	[ $rc = 2 ] || fail "$what: exit $rc, expected 2: $(cat "$TEST_DIR/err")"
	grep -qE -- "$pattern" "$TEST_DIR/err" || fail "$what: message does not match /$pattern/: $(cat "$TEST_DIR/err")"
	echo "ok - $what -> exit 2: $(head -n1 "$TEST_DIR/err")"
}
usage "neither -n nor -t" "give the reads to time \\(-n IOS\\) or the seconds \\(-t SECONDS\\)" -I
usage "-n and -t" "-n and -t exclude each other" -I -n 10 -t 1
usage "-t 0" "-t: not a valid number here: '0'" -I -t 0
usage "-t not a number" "-t: not a valid number here: '1s'" -I -t 1s
usage "-r not whole seconds" "-r: not a valid number here: '0.5'" -I -t 1 -r 0.5
usage "-r negative" "-r: not a valid number here: '-1'" -I -n 10 -r -1

# A run time with a ramp: the hooks log when they ran, on the clock of
# date(1), which the tool's CLOCK_MONOTONIC durations are checked against.
rc=0
start=$(date +%s%N)
"$ul" -I -q 2 -t 1 -r 1 -o "$TEST_DIR/t.json" \
	-B "date +%s%N >$TEST_DIR/before" -A "date +%s%N >$TEST_DIR/after" "$img" 2>"$TEST_DIR/err" || rc=$?
# No io_uring or O_DIRECT on this host: only the option checks ran.
[ $rc != 3 ] || skip "uring-lat cannot read $img here: $(cat "$TEST_DIR/err")"
[ $rc = 0 ] || fail "-t 1 -r 1: exit $rc: $(cat "$TEST_DIR/err")"
j=$TEST_DIR/t.json
ios=$(jq '.jobs[0].read.total_ios' "$j")
ramp_ios=$(jq '.jobs[0].uring_lat.ramp_ios' "$j")
wall=$(jq '.jobs[0].uring_lat.wall_ns' "$j")
ramp_ns=$(jq '.jobs[0].uring_lat.ramp_ns' "$j")
before=$(cat "$TEST_DIR/before") after=$(cat "$TEST_DIR/after")
[ "$ios" -gt 0 ] && [ "$ramp_ios" -gt 0 ] || fail "-t 1 -r 1: $ios timed reads, $ramp_ios in the ramp"
[ "$(jq '.jobs[0].read.lat_ns.N' "$j")" = "$ios" ] || fail "-t 1 -r 1: lat_ns.N is not total_ios ($ios)"
# Each part ends at its first completion after 1 s (a loaded host's
# reads can take a while: the bound only catches a deadline ignored).
[ "$wall" -ge 1000000000 ] && [ "$wall" -lt 6000000000 ] || fail "-t 1: timed for $wall ns"
[ "$ramp_ns" -ge 1000000000 ] && [ "$ramp_ns" -lt 6000000000 ] || fail "-r 1: ramp of $ramp_ns ns"
# -B runs after the ramp, -A after the timed reads.
[ $((before - start)) -ge 1000000000 ] || fail "-B ran $((before - start)) ns after the start, inside the 1 s ramp"
[ $((after - before)) -ge "$wall" ] || fail "-A ran $((after - before)) ns after -B, less than the $wall ns timed"
echo "ok - -t 1 -r 1: $ios reads timed over $wall ns, $ramp_ios in a ramp of $ramp_ns ns before -B"

# A read count with a ramp of reads, four in flight: exactly as asked.
"$ul" -I -q 4 -n 300 -r 50 -o "$TEST_DIR/n.json" "$img" || fail "-n 300 -r 50 failed"
[ "$(jq -c '[.jobs[0].read.total_ios, .jobs[0].read.lat_ns.N, .jobs[0].uring_lat.ramp_ios]' "$TEST_DIR/n.json")" = "[300,300,50]" ] ||
	fail "-n 300 -r 50: $(jq -c '[.jobs[0].read.total_ios, .jobs[0].read.lat_ns.N, .jobs[0].uring_lat.ramp_ios]' "$TEST_DIR/n.json")"
echo "ok - -n 300 -r 50 -q 4: 300 reads timed after 50"
rm -rf "$TEST_DIR"
