#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: what instruction-count time does with several vCPUs. QEMU
# keeps one guest clock and advances it by every instruction any vCPU
# executes, and one TCG thread runs the vCPUs in turn, so busy vCPUs do
# not run in parallel in guest time. Two measurements:
# 1. an 8-vCPU guest has one CPU's worth of time in all: one cpuhog alone
#    for 1 s, then a cpuhog on each of the 8 vCPUs for 1 s; their summed
#    work rate must be about one hog's (0.8x-1.25x; 8 CPUs would give 8x);
# 2. a busy vCPU delays the others' wake-ups: on 2 vCPUs, 4000 psync reads
#    of a 10 us null_blk disk on vCPU1, alone and then with a cpuhog on
#    vCPU0; the hog must stretch the p50 by more than 5x (a machine with
#    two CPUs: about 1x).
# Every multi-vCPU result on instruction-count time is read with this
# (docs/methodology.md, "Several vCPUs on one clock"); the test fails if a
# QEMU with per-vCPU time ever makes that reading wrong.
# Timeout: 900
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
v=baseline
[ -f "$(variant_obj $v)/arch/x86/boot/bzImage" ] || fail "$v is not built"
GUEST_TIMEOUT=400 guest_job $v --timing icount --smp 8 <<'EOT' || fail "$v: 8-vCPU boot failed: $(cat "$TEST_DIR/boot/status")"
cpuhog -c 0 -t 1 -o /share/one.txt || exit 1
c=0
while [ $c -lt 8 ]; do
	cpuhog -c $c -t 1 -o /share/all-$c.txt &
	c=$((c + 1))
done
wait
EOT
out=$(guest_out)
rate() { awk '$1 == "units_per_sec" { print $2 }' "$@"; }
one=$(rate "$out/one.txt")
[ -n "$one" ] || fail "the lone cpuhog reported no rate"
[ "$(cat "$out"/all-*.txt | grep -c '^units_per_sec ')" = 8 ] || fail "not all 8 cpuhogs reported"
sum=$(rate "$out"/all-*.txt | awk '{ s += $1 } END { printf "%.0f", s }')
ratio=$(awk -v s="$sum" -v o="$one" 'BEGIN { printf "%.3f", s / o }')
echo "ok - icount, 8 vCPUs: one cpuhog $one units/s; 8 at once $sum units/s in all ($ratio x one)"
awk -v r="$ratio" 'BEGIN { exit !(r >= 0.8 && r <= 1.25) }' ||
	fail "8 busy vCPUs did $ratio x the work of one: the guest clock no longer sums the vCPUs' instructions (update docs/methodology.md)"

GUEST_TIMEOUT=400 guest_job $v --timing icount --smp 2 <<'EOT' || fail "$v: 2-vCPU boot failed: $(cat "$TEST_DIR/boot/status")"
/pb/nullb.sh up 10 || exit 1
reads() {
	taskset -c 1 fio --name=r --filename=/dev/nullb0 --direct=1 --rw=randread --bs=4k \
		--size=512m --number_ios=4000 --ioengine=psync --output-format=json --output="/share/$1.json"
}
reads alone || exit 1
cpuhog -c 0 -t 60 -o /share/hog.txt &
hog=$!
reads hog0 || exit 1
kill -TERM $hog
wait $hog
/pb/nullb.sh down
EOT
p50() { jq '.jobs[0].read.clat_ns.percentile["50.000000"]' "$(guest_out)/$1.json"; }
alone=$(p50 alone) hog=$(p50 hog0)
ratio=$(awk -v a="$alone" -v h="$hog" 'BEGIN { printf "%.1f", h / a }')
echo "ok - icount, 2 vCPUs: psync p50 on vCPU1 $alone ns alone, $hog ns with vCPU0 busy (${ratio}x)"
awk -v r="$ratio" 'BEGIN { exit !(r > 5) }' ||
	fail "a busy vCPU0 stretched vCPU1's p50 only ${ratio}x: the vCPUs' turns no longer delay each other (update docs/methodology.md)"
