#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run pollbench's tests: tests/run.sh [--unit-only] [NAME-GLOB...]
# Unit tests (tests/unit, analysis) run on the host; guest tests
# (tests/guest) and series checks (tests/kernel) first build the kernels. Each test: 0 pass, 1 fail,
# 77 skip. Logs in build/test-logs/. Last line: "N passed, N failed, N skipped".
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

# run_test NAME CMD...: run one test, record its verdict and time.
run_test() {
	local name=$1 rc=0 start end prev=""
	shift
	selected "$name" || return 0
	[ -f "$logs/$name.seconds" ] && prev=" (previous run $(cat "$logs/$name.seconds")s)"
	start=$(date +%s)
	"$@" >"$logs/$name.log" 2>&1 || rc=$?
	end=$(date +%s)
	echo $((end - start)) >"$logs/$name.seconds"
	case $rc in
	0) passed=$((passed + 1)); echo "PASS $name $((end - start))s$prev" ;;
	77) skipped=$((skipped + 1)); skips+=("$name: $(grep -m1 SKIP "$logs/$name.log" || true)")
		echo "SKIP $name $((end - start))s" ;;
	*) failed=$((failed + 1)); failures+=("$name")
		echo "FAIL $name $((end - start))s (exit $rc; log: $logs/$name.log)"
		tail -n 15 "$logs/$name.log" | sed 's/^/    /' ;;
	esac
}

for t in "$PB_ROOT"/tests/unit/*.sh; do
	run_test "$(basename "$t" .sh)" "$t"
done
run_test analysis-unit make -s -C "$PB_ROOT/analysis" test

if [ $unit_only = 0 ]; then
	pb_lock "tests/run.sh"
	# What the guest tests boot; a failure here fails them all.
	run_test build-guest-image "$PB_ROOT/scripts/guest-image.sh"
	for v in $PB_VARIANTS $PB_REFERENCE_VARIANTS; do
		variant_has_patches "$v" || continue
		run_test "build-kernel-$v" "$PB_ROOT/scripts/kernel-build.sh" "$v"
	done
	for t in "$PB_ROOT"/tests/kernel/*.sh "$PB_ROOT"/tests/guest/*.sh; do
		run_test "$(basename "$t" .sh)" "$t"
	done
fi

echo
[ ${#skips[@]} = 0 ] || printf 'skipped: %s\n' "${skips[@]}"
[ ${#failures[@]} = 0 ] || printf 'failed: %s\n' "${failures[@]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed = 0 ]
