#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: every workload has a Description line; a fio job file uses
# the runner's device variable and parses with fio; a .uring file's
# options= line is one that guest/tools/uring-lat accepts; every matrix
# names existing workloads.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio not installed"
need_tool gcc make
rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR"
n=0
for f in "$PB_ROOT"/workloads/*.fio; do
	head -n1 "$f" | grep -q '^; Description: ' || fail "$f: first line is not '; Description: ...'"
	grep -q '^filename=\${PB_DEV}$' "$f" || fail "$f: does not use filename=\${PB_DEV}"
	PB_DEV=/dev/null PB_RUNTIME=1 PB_RAMP=0 PB_TIME_BASED=1 PB_IOS=0 fio --parse-only "$f" >/dev/null 2>&1 ||
		fail "$f: fio --parse-only rejects it"
	n=$((n + 1))
done
# uring-lat with the file's options on a device that does not exist must
# get as far as opening it: exit 1 "No such file", not 2 (bad usage).
make -s -C "$PB_ROOT/guest/tools" OUT="$TEST_DIR" CC=gcc "$TEST_DIR/uring-lat"
for f in "$PB_ROOT"/workloads/*.uring; do
	[ -e "$f" ] || continue
	head -n1 "$f" | grep -q '^; Description: ' || fail "$f: first line is not '; Description: ...'"
	[ "$(grep -c '^options=' "$f")" = 1 ] || fail "$f: needs exactly one options= line"
	opts=$(sed -n 's/^options=//p' "$f")
	rc=0
	# shellcheck disable=SC2086 # the options are words
	"$TEST_DIR/uring-lat" $opts -n 1 "$TEST_DIR/no-such-device" 2>"$TEST_DIR/err" || rc=$?
	[ $rc = 1 ] && grep -q 'No such file' "$TEST_DIR/err" ||
		fail "$f: uring-lat rejects options '$opts' (exit $rc: $(cat "$TEST_DIR/err"))"
	n=$((n + 1))
done
for m in "$PB_ROOT"/matrix/*.matrix; do
	for w in $(awk '$1 == "workloads" { $1 = ""; print }' "$m"); do
		[ -f "$PB_ROOT/workloads/$w.fio" ] || [ -f "$PB_ROOT/workloads/$w.uring" ] ||
			fail "$m names missing workload $w"
	done
done
echo "ok - $n workloads"
rm -rf "$TEST_DIR"
