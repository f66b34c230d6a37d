# SPDX-License-Identifier: GPL-2.0
# Helpers for tests. Exit codes: 0 pass, 1 fail, 77 skip (liburing/automake).
# shellcheck shell=bash
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

TEST_NAME=$(basename "$0" .sh)
TEST_DIR=$BUILD_DIR/tests/$TEST_NAME

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

skip() {
	echo "SKIP: $*" >&2
	exit 77
}

# expect_fail DESCRIPTION PATTERN CMD...: CMD must exit non-zero and print
# PATTERN (an extended regex) on stderr or stdout.
expect_fail() {
	local what=$1 pattern=$2 out rc=0
	shift 2
	out=$("$@" 2>&1) || rc=$?
	[ $rc != 0 ] || fail "$what: exited 0, expected an error; output: $out"
	grep -qE -- "$pattern" <<<"$out" || fail "$what: message does not match /$pattern/: $out"
	echo "ok - $what -> exit $rc: $(head -n1 <<<"$out")"
}

# guest_job VARIANT [guest-run options...] < JOBSCRIPT: boot VARIANT with the
# job on stdin; the boot folder is $TEST_DIR/boot. Returns guest-run's status.
guest_job() {
	local variant=$1
	shift
	rm -rf "${TEST_DIR:?}/boot"
	mkdir -p "$TEST_DIR/boot/share/workloads"
	cp "$PB_ROOT"/workloads/*.fio "$PB_ROOT"/workloads/*.uring "$TEST_DIR/boot/share/workloads/"
	cat >"$TEST_DIR/boot/share/job.sh"
	"$PB_ROOT/scripts/guest-run.sh" --timeout "${GUEST_TIMEOUT:-240}" "$@" "$variant" "$TEST_DIR/boot"
}

# Where a guest job's files land on the host.
guest_out() { echo "$TEST_DIR/boot/share"; }

# reliability_case CASE VARIANT...: one reliability case
# (tests/reliability/CASE.sh) at its quick size on the release kernels of
# VARIANT...; prints the rows and fails the test unless each passed.
reliability_case() {
	local c=$1 v args=() rc=0
	shift
	for v in "$@"; do
		[ -f "$(variant_obj "$v")/pollbench-build.env" ] || fail "$v is not built"
		args+=(--variant "$v")
	done
	rm -rf "${TEST_DIR:?}"
	mkdir -p "$(dirname "$TEST_DIR")"
	"$PB_ROOT/scripts/reliability.sh" --quick --no-doc --out "$TEST_DIR" --case "$c" "${args[@]}" || rc=$?
	[ -f "$TEST_DIR/results.tsv" ] || fail "$c: scripts/reliability.sh wrote no results (exit $rc)"
	awk -F'\t' '{ printf "%-9s %-8s %-22s %-9s %s | %s\n", $1, $2, $3, $4, substr($5, 1, 120), $7 }' "$TEST_DIR/results.tsv"
	for v in "$@"; do
		awk -F'\t' -v v="$v" -v c="$c" '$1 == v && $2 == "release" && $3 == c && $4 == "pass" { ok = 1 } END { exit !ok }' "$TEST_DIR/results.tsv" ||
			fail "$v: case $c did not pass (logs: $TEST_DIR/$v-release-*/share/rel/out/$c/log)"
	done
	[ $rc = 0 ] || fail "$c: a boot or case failed (results: $TEST_DIR/results.tsv)"
}

# kprobe_hits FILE EVENT: hits of a kprobe event in a kprobe_profile copy.
kprobe_hits() {
	awk -v e="pb_$2" '$1 == e { print $2; found = 1 } END { if (!found) print -1 }' "$1"
}

# irq_total FILE-BEFORE FILE-AFTER PATTERN: interrupts on lines matching
# PATTERN (e.g. nvme0q1), summed over CPUs, after minus before.
irq_delta() {
	local sum_b sum_a
	sum_b=$(irq_sum "$1" "$3")
	sum_a=$(irq_sum "$2" "$3")
	echo $((sum_a - sum_b))
}
irq_sum() {
	awk -v p="$2" '$NF ~ p { for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) s += $i; else break } END { print s + 0 }' "$1"
}

# poll_stat_delta CELL-DIR COUNTER: a poll_stats counter summed over the
# hardware queues, from the cell's poll-stats-after.txt minus
# poll-stats-before.txt (guest/window.sh).
poll_stat_delta() {
	awk -v c="$2" '$2 == c { if (FILENAME ~ /after/) s += $3; else s -= $3 } END { print s + 0 }' \
		"$1/poll-stats-before.txt" "$1/poll-stats-after.txt"
}

# window_delta CELL-DIR KEY: after minus before of KEY in a cell's
# window-{before,after}.txt (guest/window.sh), e.g. dev_ios.
window_delta() {
	echo $(( $(awk -v k="$2" '$1 == k { print $2 }' "$1/window-after.txt") - $(awk -v k="$2" '$1 == k { print $2 }' "$1/window-before.txt") ))
}

# fio_ios FIO-JSON: total completed I/Os of all jobs.
fio_ios() {
	jq '[.jobs[] | .read.total_ios + .write.total_ios] | add' "$1"
}

# test_full: true under `make test-full` (PB_TEST_FULL=1). The long tests
# run a representative subset in `make test`, named in their headers, and
# every variant and flavour they know in the full run.
test_full() {
	[ "${PB_TEST_FULL:-0}" = 1 ]
}

# built_variants: the variants that have patches (baseline always), in order;
# PB_TEST_VARIANTS="a b" narrows the guest tests to those.
built_variants() {
	local v
	for v in ${PB_TEST_VARIANTS:-$PB_VARIANTS}; do
		variant_has_patches "$v" && echo "$v"
	done
}

