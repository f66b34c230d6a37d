#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run pollbench's tests: tests/run.sh [--unit-only] [NAME-GLOB...]
# PB_TEST_FULL=1 (make test-full) runs the long tests on every variant and
# flavour; by default they run on the subset their headers name.
# Unit tests (tests/unit, analysis) run on the host; guest tests
# (tests/guest) and series checks (tests/kernel) first build the kernels.
# Each test: 0 pass, 1 fail, 77 skip; it is killed after its folder's
# `settings` timeout (kselftest style: timeout=SECONDS), or its own
# "# Timeout: SECONDS" header line, and then fails. A test that boots
# another kernel flavour names it ("# Kernels: hybrid:kunit"); it is built
# before the guest tests, as a test of its own. Output is TAP (ok /
# not ok lines, a plan at the end); logs in build/test-logs/. Last line:
# "N passed, N failed, N skipped".
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

unit_only=0
globs=()
for a in "$@"; do
	case $a in
	--unit-only) unit_only=1 ;;
	-*) die "unknown option '$a'" ;;
	*) globs+=("$a") ;;
	esac
done
# Every name given must select some test: a typo among several names
# would otherwise pass unnoticed, after hours of the others.
known=$(
	for t in "$PB_ROOT"/tests/unit/*.sh "$PB_ROOT"/tests/kernel/*.sh "$PB_ROOT"/tests/guest/*.sh; do
		basename "$t" .sh
	done
	printf '%s\n' analysis-unit disk-space build-guest-image 'build-kernel-*'
)
for g in ${globs[@]+"${globs[@]}"}; do
	hit=0
	while IFS= read -r k; do
		# shellcheck disable=SC2053
		if [[ $k == $g ]] || [[ $g == $k ]]; then
			hit=1
			break
		fi
	done <<<"$known"
	[ $hit = 1 ] || die "no test is named like '$g' (tests/unit, tests/kernel, tests/guest, analysis-unit, build-*)"
done
logs=$BUILD_DIR/test-logs
mkdir -p "$logs"
passed=0 failed=0 skipped=0
failures=() skips=()

selected() {
	[ ${#globs[@]} = 0 ] && return 0
	local g
	for g in "${globs[@]}"; do
		# shellcheck disable=SC2053
		[[ $1 == $g ]] && return 0
	done
	return 1
}

# timeout_of TEST-FILE: the test's time limit in seconds, from its
# "# Timeout: N" header line, else its folder's settings file.
timeout_of() {
	local t
	t=$(sed -n 's/^# Timeout: *\([0-9][0-9]*\)$/\1/p' "$1" | head -n1)
	[ -n "$t" ] || t=$(sed -n 's/^timeout=\([0-9][0-9]*\)$/\1/p' "$(dirname "$1")/settings" 2>/dev/null)
	[ -n "$t" ] || die "$1: no time limit (a '# Timeout: N' line or $(dirname "$1")/settings)"
	echo "$t"
}
# kernels_of TEST-FILE: the other kernel flavours the test boots, from its
# "# Kernels: VARIANT:FLAVOUR..." header line.
kernels_of() {
	sed -n 's/^# Kernels: *//p' "$1" | head -n1 | tr ' ' '\n' | sed '/^$/d'
}

n=0
echo "TAP version 13"
if [ "${PB_TEST_FULL:-0}" = 1 ]; then
	echo "# full run (make test-full): the long tests on every variant and flavour"
else
	echo "# the long tests on a representative subset (make test-full runs them all)"
fi
# run_test NAME TIMEOUT CMD...: run one test under its time limit, record
# its verdict and time.
run_test() {
	local name=$1 limit=$2 rc=0 start end prev="" secs
	shift 2
	selected "$name" || return 0
	n=$((n + 1))
	[ -f "$logs/$name.seconds" ] && prev=", previous run $(cat "$logs/$name.seconds") s"
	start=$(date +%s)
	timeout -k 10 "$limit" "$@" >"$logs/$name.log" 2>&1 || rc=$?
	end=$(date +%s)
	secs=$((end - start))
	echo "$secs" >"$logs/$name.seconds"
	case $rc in
	0) passed=$((passed + 1)); echo "ok $n - $name ($secs s$prev)" ;;
	77) skipped=$((skipped + 1)); skips+=("$name: $(grep -m1 SKIP "$logs/$name.log" || true)")
		echo "ok $n - $name # SKIP $(grep -m1 -o 'SKIP: .*' "$logs/$name.log" | cut -c7- || true)" ;;
	124 | 137) failed=$((failed + 1)); failures+=("$name")
		echo "not ok $n - $name (timed out after $limit s; log: $logs/$name.log)"
		tail -n 15 "$logs/$name.log" | sed 's/^/# /' ;;
	*) failed=$((failed + 1)); failures+=("$name")
		echo "not ok $n - $name ($secs s, exit $rc; log: $logs/$name.log)"
		tail -n 15 "$logs/$name.log" | sed 's/^/# /' ;;
	esac
}

for t in "$PB_ROOT"/tests/unit/*.sh; do
	run_test "$(basename "$t" .sh)" "$(timeout_of "$t")" "$t"
done
run_test analysis-unit 900 make -s -C "$PB_ROOT/analysis" test

# disk_space: the kernel worktrees and builds of a fresh clone take about
# 18 GiB under build/ (measured: 7 variants at 1.9 GiB, the rt and kunit
# builds); a full disk would fail a build deep in its log instead.
disk_space() {
	local have used need
	have=$(df -P -k "$BUILD_DIR" | awk 'NR == 2 { printf "%d", $4 / 1048576 }')
	used=$(du -s -k "$BUILD_DIR" 2>/dev/null | awk '{ printf "%d", $1 / 1048576 }')
	need=$((${PB_TEST_BUILD_GIB:-18} - used))
	echo "$have GiB free under $BUILD_DIR, $used GiB used there; about $need GiB more needed"
	[ "$have" -ge "$need" ] ||
		{ echo "FAIL: not enough disk for the kernel builds and guests: free $((need - have)) GiB or more"; return 1; }
}

if [ $unit_only = 0 ]; then
	pb_lock "tests/run.sh"
	export -f disk_space
	export BUILD_DIR
	run_test disk-space 300 bash -c disk_space
	# What the guest tests boot; a failure here fails them all.
	run_test build-guest-image 900 "$PB_ROOT/scripts/guest-image.sh"
	for v in $PB_VARIANTS $PB_REFERENCE_VARIANTS; do
		variant_has_patches "$v" || continue
		run_test "build-kernel-$v" 3600 "$PB_ROOT/scripts/kernel-build.sh" "$v"
	done
	# The other flavours the tests boot, built here under the build's time
	# limit: on a fresh machine (cold ccache) the kexec and kunit builds
	# took more than hw-kexec-in-guest's and hybrid-kunit's own limits.
	booting=("$PB_ROOT"/tests/kernel/*.sh "$PB_ROOT"/tests/guest/*.sh)
	for vf in $(for t in "${booting[@]}"; do kernels_of "$t"; done | awk '!seen[$0]++'); do
		run_test "build-kernel-${vf%%:*}-${vf#*:}" 3600 "$PB_ROOT/scripts/kernel-build.sh" "${vf%%:*}" "${vf#*:}"
	done
	for t in "${booting[@]}"; do
		run_test "$(basename "$t" .sh)" "$(timeout_of "$t")" "$t"
	done
fi

# A name that selects nothing is a mistake (a typo), not a pass.
if [ $n = 0 ] && [ ${#globs[@]} -gt 0 ]; then
	echo "not ok 1 - no test matches: ${globs[*]}"
	failed=1 n=1 failures+=("no test matches: ${globs[*]}")
fi
echo "1..$n"
[ ${#skips[@]} = 0 ] || printf '# skipped: %s\n' "${skips[@]}"
[ ${#failures[@]} = 0 ] || printf '# failed: %s\n' "${failures[@]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed = 0 ]
