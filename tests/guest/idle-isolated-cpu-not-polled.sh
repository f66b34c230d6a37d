#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: (pollbench/003) the idle design keeps isolated CPUs
# isolated. Booted with isolcpus=1, with blk_poll.busy_irq=0 so that I/O
# beside a hog stays polled: (a) fio and a CPU-bound hog on the isolated
# CPU1: CPU0's idle loop, idle the whole time, must not poll for CPU1's
# waiter, so no completion is found by an idle loop; (b) fio and a hog on
# CPU0: the isolated CPU1, idle, must not poll for CPU0's waiter either;
# (c) fio alone on CPU1: its own idle loop still polls for its own waiter.
# In (a) and (b) the waiters' fallback timers find the completions.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
v=idle
grep -qx $v <<<"$(built_variants)" || skip "idle is not among the variants under test"
[ -f "$(variant_obj $v)/pollbench-build.env" ] || fail "$v is not built"

guest_job $v --append isolcpus=1 <<'EOT' || fail "$v: boot failed: $(cat "$TEST_DIR/boot/status")"
set -u
out=/share/out
mkdir -p $out
d=nvme0n1
cat /sys/devices/system/cpu/isolated >$out/isolated
echo 0 >/sys/module/blk_poll/parameters/busy_irq || exit 1
# stat KEY: a poll_stats counter summed over the hardware queues.
stat() {
	cat /sys/kernel/debug/block/$d/hctx*/poll_stats |
		awk -v k="$1" '$1 == k { s += $2 } END { print s + 0 }'
}
# phase NAME CPU HOG: 2000 polled reads on CPU, beside a hog there if HOG.
phase() {
	hog=
	if [ "$3" = 1 ]; then
		cpuhog -c "$2" -t 120 -o $out/$1-hog.txt &
		hog=$!
		sleep 0.5
	fi
	echo "$(stat idle_completions) $(stat timer_completions) $(stat task_completions)" >$out/$1-before
	taskset -c "$2" fio --name=$1 --filename=/dev/$d --direct=1 \
		--ioengine=pvsync2 --hipri=1 --rw=randread --bs=4k --size=512m \
		--number_ios=2000 --output-format=json --output=$out/$1.json \
		>$out/$1.log 2>&1 || echo "fio $1 failed" >>$out/errors
	echo "$(stat idle_completions) $(stat timer_completions) $(stat task_completions)" >$out/$1-after
	[ -z "$hog" ] || kill -TERM $hog
	wait
}
phase isolated-busy 1 1
phase housekeeping-busy 0 1
phase isolated-alone 1 0
EOT
out=$(guest_out)/out
[ ! -s "$out/errors" ] || fail "$(cat "$out/errors")"
[ "$(cat "$out/isolated")" = 1 ] || fail "CPU1 is not isolated: /sys/devices/system/cpu/isolated reads '$(cat "$out/isolated")'"
# delta PHASE FIELD: completions found by idle (1), timer (2), task (3).
delta() {
	local b a
	b=$(cut -d' ' -f"$2" "$out/$1-before")
	a=$(cut -d' ' -f"$2" "$out/$1-after")
	echo $((a - b))
}
for p in isolated-busy housekeeping-busy isolated-alone; do
	n=$(fio_ios "$out/$p.json")
	[ "$n" = 2000 ] || fail "$p: $n of 2000 reads completed"
	echo "$p: completions found by idle loops $(delta $p 1), by timers $(delta $p 2), by the task $(delta $p 3)"
done
[ "$(delta isolated-busy 1)" = 0 ] ||
	fail "isolated-busy: an idle loop found $(delta isolated-busy 1) completions of the isolated CPU's waiter"
[ "$(delta housekeeping-busy 1)" = 0 ] ||
	fail "housekeeping-busy: an idle loop (the isolated CPU's) found $(delta housekeeping-busy 1) completions of CPU0's waiter"
[ "$(delta isolated-busy 2)" -gt 0 ] || fail "isolated-busy: no completion found by a timer: who found them?"
# The look before sleeping finds many completions on a fast emulated NVMe
# (1574 of 2000 in one boot): ask only that the idle loop found some.
[ "$(delta isolated-alone 1)" -ge 50 ] ||
	fail "isolated-alone: the isolated CPU's idle loop found only $(delta isolated-alone 1) of its own waiter's 2000 completions"
echo "ok - no idle loop polls across an isolated CPU; the isolated CPU polls for its own waiters"
