#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest side of a pollbench LAVA job: it runs inside the pollbench
# guest (busybox sh) under LAVA's test shell, never on the host.
# scripts/lava-jobs.sh writes it to /share/lava-guest.sh beside bench.sh's
# job.sh and the workloads, and runs
#   sh /share/lava-guest.sh SPLAT-REGEX CELL...
# It runs /share/job.sh as the guest's init does for bench.sh, then tells
# LAVA: test case "job" (job.sh's status), one test case per CELL (pass:
# status 0 and a result file, what bench.sh checks before keeping a cell),
# and "kernel-log" (nothing in the kernel log matches SPLAT-REGEX, bench's
# PB_SPLAT_RE). The console is the one way out of a LAVA guest, so each
# cell's raw files, then job.sh's output, follow there as
#   pollbench-tar-begin NAME
#   base64 of a gzipped tar of /share/out/CELL/ (NAME CELL) or job.out (NAME job)
#   pollbench-tar-end NAME SHA256-OF-THE-GZIPPED-TAR
# for the importer. They are printed after the last cell: no console
# output falls inside a measured window.
splat=$1
shift
# The share's place; tests/unit/lava-jobs.sh runs this on the host.
share=${PB_SHARE:-/share}

verdict() {
	if [ "$1" = 0 ]; then echo pass; else echo fail; fi
}

# emit NAME DIR ENTRY: ENTRY of DIR as a framed, checksummed tar on the console.
emit() {
	tar -C "$2" -czf "$share/emit.tar.gz" "$3" || return 0
	echo "pollbench-tar-begin $1"
	base64 "$share/emit.tar.gz"
	echo "pollbench-tar-end $1 $(sha256sum "$share/emit.tar.gz" | cut -d' ' -f1)"
	rm -f "$share/emit.tar.gz"
}

rc=0
sh "$share/job.sh" >"$share/job.out" 2>&1 || rc=$?
lava-test-case job --result "$(verdict $rc)"
for c in "$@"; do
	out=$share/out/$c
	result=$out/fio.json
	case $c in *@competitor-only*) result=$out/competitor.txt ;; esac
	ok=1
	if [ "$(cat "$out/rc" 2>/dev/null)" = 0 ] && [ -s "$result" ]; then ok=0; fi
	lava-test-case "$c" --result "$(verdict $ok)"
	[ ! -d "$out" ] || emit "$c" "$share/out" "$c"
done
emit job "$share" job.out
found=$(dmesg | grep -E "$splat" | head -n 5)
if [ -n "$found" ]; then
	echo "pollbench: the kernel log has: $found"
	lava-test-case kernel-log --result fail
else
	lava-test-case kernel-log --result pass
fi
exit 0
