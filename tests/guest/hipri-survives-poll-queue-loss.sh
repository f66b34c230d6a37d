#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: RWF_HIPRI stays a hint when the poll queues go away. 6.12
# ignored it for synchronous I/O; with the base series a sync read checks
# that its queue can poll (bdev_poll_sync()) and then submits it polled.
# If a controller reset drops the poll queues in between, submit_bio()
# ends the bio with BLK_STS_NOTSUPP, and the read failed with EOPNOTSUPP.
# Two readers (guest/tools/hipri-read, every errno counted) read with
# preadv2(RWF_HIPRI) while the NVMe controller is reset again and again,
# alternately to no poll queue (nvme.poll_queues=0) and back to one. No
# read may fail with EOPNOTSUPP (errno 95); the polling designs' kernels
# must still poll between the resets. The fix is the base's: make test
# runs it on inline, make test-full on every variant.
# Timeout: 1500
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
resets=${PB_RESETS:-8}
# Odd resets drop the poll queues, even ones restore one: end on a restore.
[ $((resets % 2)) = 0 ] && [ "$resets" -gt 0 ] || fail "PB_RESETS must be a positive even number, got $resets"
if test_full; then variants=$(built_variants); else variants=inline; fi
for v in $variants; do
	[ -f "$(variant_obj "$v")/arch/x86/boot/bzImage" ] || fail "$v is not built"
	GUEST_TIMEOUT=400 guest_job "$v" <<EOT || fail "$v: boot failed: $(cat "$TEST_DIR/boot/status")"
ctrl=/sys/class/nvme/nvme0
pq=/sys/module/nvme/parameters/poll_queues
[ -w \$pq ] || exit 3
cat /sys/kernel/debug/block/nvme0n1/hctx*/poll_stats >/share/poll-stats-before.txt 2>/dev/null || true
# Readers in one-second runs until the resets are over, however long
# they take on a loaded host.
for r in 0 1; do
	(while [ ! -f /tmp/stop ]; do hipri-read /dev/nvme0n1 1; done >/share/reads-\$r.txt) &
done
sleep 1
for i in \$(seq $resets); do
	echo \$((i % 2 == 1 ? 0 : 1)) >\$pq
	echo 1 >\$ctrl/reset_controller || exit 4
	t=0
	while [ "\$(cat \$ctrl/state)" != live ] && [ \$t -lt 300 ]; do sleep 0.1; t=\$((t + 1)); done
	[ "\$(cat \$ctrl/state)" = live ] || exit 5
	sleep 1
done
touch /tmp/stop
wait
# The last reset restored one poll queue: polled reads must poll again.
hipri-read /dev/nvme0n1 1 >/share/reads-final.txt
cat /sys/kernel/debug/block/nvme0n1/hctx*/poll_stats >/share/poll-stats-after.txt 2>/dev/null || true
echo 1 >\$pq
dmesg | grep -o 'nvme nvme0: [0-9]*/[0-9]*/[0-9]* default/read/poll queues' >/share/queue-maps.txt || true
EOT
	out=$(guest_out)
	reads=$(cat "$out"/reads-[01].txt | awk '$1 == "reads" { s += $2 } END { print s + 0 }')
	notsupp=$(cat "$out"/reads-*.txt | awk '$1 == "errno" && $2 == 95 { s += $3 } END { print s + 0 }')
	other=$(cat "$out"/reads-*.txt | awk '$1 == "errno" && $2 != 95 { printf "%s errno %s x%s", sep, $2, $3; sep = "," }')
	maps=$(sort -u "$out/queue-maps.txt" | sed 's/nvme nvme0: //; s/ default\/read\/poll queues//' | tr '\n' ' ')
	echo "$v: $reads polled reads during $resets resets (queue maps seen: $maps); EOPNOTSUPP $notsupp${other:+; other errors:$other}"
	[ "$reads" -gt 100 ] || fail "$v: only $reads reads"
	grep -q '/0 default' "$out/queue-maps.txt" || fail "$v: no reset dropped the poll queues (maps: $maps)"
	# The counters restart with the hctxs of each reset: "after" counts
	# the reads since the last one, which left a poll queue.
	found=$(awk '$1 ~ /_completions$/ { s += $2 } END { print s + 0 }' "$out/poll-stats-after.txt")
	if polling_variant "$v"; then
		[ "$found" -gt 0 ] || fail "$v: no completion found by polling after the last reset"
	fi
	[ "$notsupp" = 0 ] || fail "$v: $notsupp RWF_HIPRI reads failed with EOPNOTSUPP when the poll queues went away"
done
echo "ok - no RWF_HIPRI read failed with EOPNOTSUPP across resets that drop the poll queues"
