#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: guest kernels are built with CONFIG_JUMP_LABEL, as every
# distribution's are, so a static key's switch patches live kernel text
# (text_poke_bp()) while the other vCPU runs it. Under each timing model
# (icount, and the wall-clock realtime guests, which run single-threaded
# TCG for this reason: docs/methodology.md, "Static keys and TCG"), a
# guest flips the scheduler's schedstats key (hot scheduler paths, on both
# vCPUs) as fast as it can while fio reads, interrupt-driven and polled,
# and the idle design's own key goes on and off between the polled bursts.
# The boot must end cleanly (no oops: an int3 left in a stale translation
# is one) with every fio run done.
# Runs on the idle design (its key is flipped by the I/O too), or baseline
# where idle is not under test.
# Timeout: 900
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
variants=$(built_variants)
v=idle
grep -qx $v <<<"$variants" || v=baseline
[ -f "$(variant_obj $v)/arch/x86/boot/bzImage" ] || fail "$v is not built"
grep -qx 'CONFIG_JUMP_LABEL=y' "$(variant_obj $v)/.config" || fail "$v is built without CONFIG_JUMP_LABEL"
for timing in icount realtime; do
	GUEST_TIMEOUT=400 guest_job $v --timing $timing <<'EOT' || fail "$v ($timing): boot failed: $(cat "$TEST_DIR/boot/status")"
k=/proc/sys/kernel/sched_schedstats
[ -w $k ] || exit 3
(
	n=0
	while [ ! -f /tmp/stop ]; do
		echo 1 >$k && echo 0 >$k && n=$((n + 2))
	done
	echo $n >/share/flips
) &
rc=0
for i in 1 2 3; do
	for w in psync pvsync2-hipri; do
		fio --name=r$i-$w --filename=/dev/nvme0n1 --direct=1 --rw=randread --bs=4k \
			--size=64m --number_ios=500 \
			$([ $w = psync ] && echo --ioengine=psync || echo --ioengine=pvsync2 --hipri=1) \
			--output-format=json --output=/share/fio-$i-$w.json || rc=1
	done
	# The idle design's key goes off a second after its last polled wait.
	sleep 1.5
done
touch /tmp/stop
wait
exit $rc
EOT
	out=$(guest_out)
	flips=$(cat "$out/flips")
	ios=$(cat "$out"/fio-*.json | jq -s '[.[].jobs[] | .read.total_ios] | add')
	thread=$(grep -o 'thread=[a-z]*' "$TEST_DIR/boot/qemu-command" || echo "thread=single (icount)")
	echo "ok - $v, $timing ($thread): $flips schedstats key switches during $ios reads, boot clean"
	[ "$flips" -gt 50 ] || fail "$v ($timing): only $flips key switches"
	[ "$ios" = 3000 ] || fail "$v ($timing): $ios of 3000 reads"
done
