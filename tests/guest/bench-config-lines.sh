#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: matrix config lines work end to end: a label's cmdline:
# words reach the guest kernel command line, its queue: settings are
# written to the disk under test and read back, a label named after its
# kernel overrides that kernel's defaults, results land under <LABEL>/
# with kernel_variant, cmdline_extra and queue_settings in meta.json, a
# queue write that does not take fails its cell loudly, and the report
# treats labels as variants. One boot per label.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR"
"$PB_ROOT/scripts/guest-image.sh"
make -s -C "$PB_ROOT/analysis"
m=$TEST_DIR/config.matrix
# On baseline, queue/io_poll_delay accepts any write and reads -1: the
# write "works" but does not take, which must fail the cell.
printf '%s\n' 'config baseline baseline queue:nomerges=2' \
	'config baseline-idlepoll baseline cmdline:idle=poll' \
	'config baseline-badq baseline queue:io_poll_delay=0' \
	'variants baseline baseline-idlepoll baseline-badq' \
	'workloads randread-4k-qd1-psync' 'conditions alone' \
	'reps 1' 'runtime 2' 'ramp 0' >"$m"
export RESULTS_DIR=$TEST_DIR/results
rc=0
"$PB_ROOT/scripts/bench.sh" --matrix "$m" --run r1 --seed 7 >"$TEST_DIR/bench.log" 2>&1 || rc=$?
cat "$TEST_DIR/bench.log"
run=$RESULTS_DIR/r1
c=randread-4k-qd1-psync@alone

[ $rc != 0 ] || fail "bench exited 0 although baseline-badq's queue write did not take"
grep -q "baseline-badq-r1-a1: cell $c failed (rc 1: queue setting io_poll_delay=0: .*reads '-1' after the write" \
	"$TEST_DIR/bench.log" || fail "the failed queue setting is not named in bench's output"
[ ! -e "$run/baseline-badq" ] || fail "a failed cell entered the results"
echo "ok - a queue write that did not take failed its cell: $(grep -m1 '^FAILED: baseline-badq-r1' "$TEST_DIR/bench.log")"

# expect_meta LABEL KEY VALUE
expect_meta() {
	local got
	got=$(jq -r --arg k "$2" '.[$k]' "$run/$1/$c/1/meta.json")
	[ "$got" = "$3" ] || fail "$1: meta.json $2 is '$got', expected '$3'"
}
for l in baseline baseline-idlepoll; do
	d=$run/$l/$c/1
	jq -e '.jobs[0].read.clat_ns.bins | length > 0' "$d/fio.json" >/dev/null || fail "$l: no clat bins"
	expect_meta "$l" variant "$l"
	expect_meta "$l" kernel_variant baseline
	expect_meta "$l" kernel_release 6.12.118-pollbench-baseline
done
expect_meta baseline cmdline_extra ""
expect_meta baseline queue_settings nomerges=2
expect_meta baseline-idlepoll cmdline_extra idle=poll
expect_meta baseline-idlepoll queue_settings ""
grep -qx nomerges=2 "$run/baseline/$c/1/queue-settings.txt" || fail "baseline: nomerges=2 not read back"
[ ! -s "$run/baseline-idlepoll/$c/1/queue-settings.txt" ] || fail "baseline-idlepoll: queue settings written without any asked"
echo "ok - queue:nomerges=2 written and read back on the label that overrides 'baseline'"

# The guest's own view of its command line (dmesg of the cell).
cmd_of() { grep -m1 'Kernel command line:' "$run/$1/$c/1/dmesg.txt"; }
[[ " $(cmd_of baseline-idlepoll) " == *" idle=poll "* ]] || fail "idle=poll not on the guest command line: $(cmd_of baseline-idlepoll)"
[[ " $(cmd_of baseline) " != *" idle=poll "* ]] || fail "idle=poll leaked into the baseline boot"
echo "ok - guest command line: $(cmd_of baseline-idlepoll)"
jq -e '.configs["baseline-idlepoll"] == {kernel_variant: "baseline", cmdline_extra: "idle=poll", queue_settings: ""}' \
	"$run/run.json" >/dev/null || fail "run.json lacks the label's config: $(jq -c .configs "$run/run.json")"

# A label means the same settings for the whole run.
sed -i 's/cmdline:idle=poll/cmdline:idle=halt/' "$m"
expect_fail "resume with a changed label" "ran 'baseline-idlepoll' as .*use another run id" \
	"$PB_ROOT/scripts/bench.sh" --matrix "$m" --run r1

# The report: labels are variants, baseline first, settings in provenance.
"$PB_ROOT/analysis/pollbench-report" "$run" --no-plots >/dev/null
grep -q "^| metric | unit | baseline | baseline-idlepoll |" "$run/report.md" || fail "report.md has no baseline | baseline-idlepoll table"
grep -qE "^\| baseline-idlepoll \| baseline \| idle=poll \| +\|" "$run/report.md" || fail "report.md provenance lacks the label's kernel and cmdline"
jq -e '[.cells[] | select(.variant == "baseline-idlepoll")][0] | .kernel_variant == "baseline" and .cmdline_extra == "idle=poll"' \
	"$run/summary.json" >/dev/null || fail "summary.json lacks the label's kernel_variant/cmdline_extra"
echo "ok - report compares baseline-idlepoll against baseline; p50 $(jq -r '[.cells[] | select(.cell == "'"$c"'") | "\(.variant) \(.clat_p50_ns) ns"] | join(", ")' "$run/summary.json")"
