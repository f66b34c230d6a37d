#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: every workload has a Description line; a fio job file uses
# the runner's device variable and parses with fio; a .uring file's
# options= line is one that guest/tools/uring-lat accepts; every matrix
# names existing workloads (a scale workload's template, workloads/*-rN*,
# parses with its numbers filled in).
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
	PB_DEV=/dev/null PB_RUNTIME=1 PB_RAMP=0 PB_TIME_BASED=1 PB_IOS=0 PB_READERS=3 PB_DEPTH=2 PB_CPUSET=0-1 \
		fio --parse-only "$f" >/dev/null 2>&1 ||
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
# shellcheck source=scripts/matrix.sh
. "$PB_ROOT/scripts/matrix.sh"
for m in "$PB_ROOT"/matrix/*.matrix; do
	for w in $(awk '$1 == "workloads" { $1 = ""; print }' "$m"); do
		workload_file "$w" >/dev/null || fail "$m names missing workload $w"
	done
done
# A scale name resolves to its template, with its numbers; others to none.
[ "$(workload_file randread-4k-r12pin-psync)" = "$PB_ROOT/workloads/randread-4k-rNpin-psync.fio" ] ||
	fail "randread-4k-r12pin-psync does not resolve to its template"
[ "$(workload_env randread-4k-r4q16-iouring-hipri)" = "PB_READERS=4 PB_DEPTH=16" ] ||
	fail "randread-4k-r4q16-iouring-hipri: wrong numbers '$(workload_env randread-4k-r4q16-iouring-hipri)'"
[ "$(workload_file randread-4k-r2-iouring-hipri)" = "$PB_ROOT/workloads/randread-4k-rNqD-iouring-hipri.fio" ] ||
	fail "randread-4k-r2-iouring-hipri does not fall back to the template with a depth"
[ -z "$(workload_env randread-4k-qd1-psync)" ] || fail "a plain workload got scale numbers"
! workload_file randread-4k-r8-nosuchengine >/dev/null || fail "a scale name with no template resolved"
echo "ok - $n workloads"
rm -rf "$TEST_DIR"
