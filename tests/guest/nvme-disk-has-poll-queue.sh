#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: each variant's kernel boots (uname -r names the variant), the
# emulated NVMe disk appears, and nvme-pci set up exactly one poll queue.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
for v in $(built_variants); do
	guest_job "$v" <<'EOT' || fail "$v: boot failed: $(cat "$TEST_DIR/boot/status")"
uname -r >/share/uname
cat /sys/block/nvme0n1/size >/share/size
dmesg | grep -o '[0-9]*/[0-9]*/[0-9]* default/read/poll queues' >/share/queues
EOT
	out=$(guest_out)
	grep -qx -- ".*-pollbench-$v" "$out/uname" || fail "$v: uname -r is '$(cat "$out/uname")'"
	[ "$(cat "$out/size")" -gt 0 ] || fail "$v: nvme0n1 has no size"
	grep -q '/1 default/read/poll queues' "$out/queues" || fail "$v: queues: '$(cat "$out/queues")'"
	echo "ok - $v boots as $(cat "$out/uname"); queues $(cat "$out/queues")"
done
