#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: every workload has a Description line, uses the runner's
# device variable, and parses with fio; every matrix names existing ones.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio not installed"
n=0
for f in "$PB_ROOT"/workloads/*.fio; do
	head -n1 "$f" | grep -q '^; Description: ' || fail "$f: first line is not '; Description: ...'"
	grep -q '^filename=\${PB_DEV}$' "$f" || fail "$f: does not use filename=\${PB_DEV}"
	PB_DEV=/dev/null PB_RUNTIME=1 PB_RAMP=0 PB_TIME_BASED=1 PB_IOS=0 fio --parse-only "$f" >/dev/null 2>&1 ||
		fail "$f: fio --parse-only rejects it"
	n=$((n + 1))
done
for m in "$PB_ROOT"/matrix/*.matrix; do
	for w in $(awk '$1 == "workloads" { $1 = ""; print }' "$m"); do
		[ -f "$PB_ROOT/workloads/$w.fio" ] || fail "$m names missing workload $w"
	done
done
echo "ok - $n workloads"
