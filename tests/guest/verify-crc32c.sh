#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: data integrity on every variant: fio writes 64 MiB in mixed
# block sizes with crc32c headers and verifies every block (verify_fatal),
# interrupt-driven (psync), polled sync (pvsync2 hipri) and io_uring IOPOLL.
set -euo pipefail
# 64 MiB keeps make test short; the volume (GiB per variant) is the full
# reliability form's integrity case (make reliability).
# Three write-and-verify passes under TCG: allow for a slow host.
export GUEST_TIMEOUT=${GUEST_TIMEOUT:-900}
. "$(dirname "$0")/../lib.sh"
for v in $(built_variants); do
	guest_job "$v" <<'EOT' || fail "$v: boot failed: $(cat "$TEST_DIR/boot/status")"
export PB_DEV=/dev/nvme0n1
rc=0
for e in psync pvsync2-hipri iouring-hipri; do
	fio --output-format=json --output=/share/verify-$e.json /share/workloads/verify-crc32c-$e.fio || rc=1
done
exit $rc
EOT
	for e in psync pvsync2-hipri iouring-hipri; do
		f=$(guest_out)/verify-$e.json
		errs=$(jq '[.jobs[].error] | add' "$f")
		ios=$(jq '[.jobs[] | .read.total_ios + .write.total_ios] | add' "$f")
		[ "$errs" = 0 ] || fail "$v $e: fio error $errs"
		[ "$ios" -gt 1000 ] || fail "$v $e: only $ios I/Os verified"
		echo "ok - $v $e: $ios I/Os written and verified, no mismatch"
	done
done
