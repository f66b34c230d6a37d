#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: lava-import.sh turns finished pollbench LAVA jobs (jobs from
# lava-jobs.sh, logs in LAVA's format around the consoles lava-guest.sh
# prints) into a run directory analysis/pollbench-report reads: cells whose
# test case passed with their meta.json, consoles under boots/, a failed
# kernel-log or an incomplete job as a failed boot, run.json; bad input (no
# such log, a frame that does not check out, a job that is not pollbench's,
# another run's job, another job's log, a log imported twice) stops it
# with nothing written.
# No lava-run, no guest: kernels faked, cell files from analysis/'s fixtures.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
command -v jq >/dev/null || skip "jq not installed (make deps)"
py=$(lava_python) || skip "lava-common is not installed (apt-get install lava-common): no jobs to import"
rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR"
export RESULTS_DIR=$TEST_DIR/results BUILD_DIR=$TEST_DIR/build PB_DISK_SIZE=64M
s=$PB_ROOT/scripts
report=$PB_ROOT/analysis/pollbench-report
[ -x "$report" ] || make -s -C "$PB_ROOT/analysis" >/dev/null 2>&1 ||
	skip "analysis/pollbench-report does not build (make analysis): nothing to read the run with"
fixture=$PB_ROOT/analysis/tests/fixtures/run-ok

# Two labels, two reps, one cell: four jobs.
m=$TEST_DIR/t.matrix
printf '%s\n' 'variants baseline inline' 'workloads randread-4k-qd1-psync' 'conditions alone' \
	'reps 2' 'runtime 1' 'ramp 0' >"$m"
for k in $("$s/bench.sh" --matrix "$m" --kernels); do
	obj=$(variant_obj "$k")
	mkdir -p "$obj/arch/x86/boot"
	echo "fake bzImage of $k" >"$obj/arch/x86/boot/bzImage"
	printf '%s\n' "variant=$k" flavour=release "kernel_release=6.12.118-pollbench-$k" "kernel_commit=c0ffee$k" \
		kernel_baseline=ba5e kernel_source=pinned series= series_hash=5e41e5 config_hash=c0f19 >"$obj/pollbench-build.env"
done
mkdir -p "$BUILD_DIR/guest"
echo "fake initramfs" | gzip -n >"$BUILD_DIR/guest/initramfs.cpio.gz"
"$s/lava-jobs.sh" --matrix "$m" --run imp --seed 3 >/dev/null 2>"$TEST_DIR/err" || fail "lava-jobs.sh: $(cat "$TEST_DIR/err")"
jobs=$RESULTS_DIR/imp-lava-qemu/jobs

# fake_log JOB LOG [splat|incomplete|server]: what LAVA logs for JOB, in
# lava-common's record format: the guest side (scripts/lava-guest.sh, with
# fake lava-test-case and dmesg) on the console as "target" records, each
# test case as a "results" record, and lava-run's final job result (none
# when incomplete: a log cut short in the middle of a frame); server: as
# a LAVA server's output.yaml ("- " before each record).
fake_log() {
	local job=$1 log=$2 how=${3:-} g label rep cell
	g=$TEST_DIR/guest
	rm -rf "$g"
	mkdir -p "$g/bin" "$g/share/out"
	printf '#!/bin/sh\necho "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$1 RESULT=$3>"\n' >"$g/bin/lava-test-case"
	if [ "$how" = splat ]; then
		printf '#!/bin/sh\necho "[ 9.1] BUG: sleeping in the wrong place"\n' >"$g/bin/dmesg"
	else
		printf '#!/bin/sh\necho "[ 0.0] Linux version 6.12"\n' >"$g/bin/dmesg"
	fi
	chmod +x "$g/bin/"*
	echo 'echo job ran' >"$g/share/job.sh"
	label=$(sed -n 's/^  variant: //p' "$job") rep=$(sed -n "s/^  rep: '\\(.*\\)'/\\1/p" "$job")
	cell=randread-4k-qd1-psync@alone
	mkdir -p "$g/share/out/$cell"
	cp "$fixture/$label/$cell/$rep"/*.txt "$fixture/$label/$cell/$rep/fio.json" "$g/share/out/$cell/"
	echo 0 >"$g/share/out/$cell/rc"
	{
		echo 'pollbench: cpuidle driver none governor menu'
		PATH=$g/bin:$PATH PB_SHARE=$g/share sh "$s/lava-guest.sh" 'BUG:' "$cell"
	} >"$g/console"
	"$py" - "$g/console" "$how" "$job" >"$log" <<'EOF'
import re, sys
import yaml
from lava_common.log import dump
lines = open(sys.argv[1]).read().splitlines()
kernel = yaml.safe_load(open(sys.argv[3]))["actions"][0]["deploy"]["images"]["kernel"]["sha256sum"]
if sys.argv[2] == "incomplete":
    lines = lines[:lines.index(next(l for l in lines if l.startswith("pollbench-tar-begin"))) + 3]
# LAVA's own record format; a server's output.yaml has "- " before each.
prefix = "- " if sys.argv[2] == "server" else ""
rec = lambda lvl, msg: print(prefix + dump({"dt": "2026-12-04T21:00:00.000001", "lvl": lvl, "msg": msg}))
rec("results", {"definition": "lava", "case": "file-download", "result": "pass",
                "extra": {"label": "kernel", "sha256sum": kernel}, "level": "1.4.1"})
rec("info", "qemu-system-x86, installed at version: 1:7.2+dfsg-7, host architecture: amd64")
rec("info", "Boot command: qemu-system-x86_64 -nographic -machine q35")
for line in lines:
    rec("target", line)
    t = re.match(r"<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=(\S+) RESULT=(\S+)>", line)
    if t:
        rec("results", {"definition": "0_pollbench", "case": t[1], "result": t[2]})
if sys.argv[2] != "incomplete":
    rec("results", {"definition": "lava", "case": "job", "result": "pass"})
EOF
}
args=()
for j in "$jobs"/*.yaml; do
	how=""
	case $j in *-inline-r2.yaml) how=splat ;; *-baseline-r1.yaml) how=server ;; esac
	fake_log "$j" "${j%.yaml}.log" "$how"
	args+=("$j" "${j%.yaml}.log")
done

# Bad input first, while results/ holds the jobs only.
snapshot() { find "$RESULTS_DIR" | LC_ALL=C sort; }
snapshot >"$TEST_DIR/before"
unchanged() {
	snapshot | cmp -s - "$TEST_DIR/before" || fail "$1 wrote: $(snapshot | diff "$TEST_DIR/before" - | head)"
}
j1=${args[0]} l1=${args[1]}
expect_fail "no such log" "'/nonexistent.log': no such file" "$s/lava-import.sh" "$j1" /nonexistent.log
unchanged "no such log"
expect_fail "a job without its log" "in pairs|JOB.yaml LOG" "$s/lava-import.sh" "$j1"
unchanged "a job without its log"
echo 'not: [a, log' >"$TEST_DIR/garbage.log"
expect_fail "not a LAVA log" "not a LAVA log" "$s/lava-import.sh" "$j1" "$TEST_DIR/garbage.log"
echo '{"dt": "2026", "lvl": [a, log' >"$TEST_DIR/garbage.log"
expect_fail "not a LAVA log" "not a LAVA log" "$s/lava-import.sh" "$j1" "$TEST_DIR/garbage.log"
# One base64 character changed in the first frame.
"$py" - "$l1" >"$TEST_DIR/corrupt.log" <<'EOF'
import sys
lines = open(sys.argv[1]).read().splitlines()
i = next(n for n, l in enumerate(lines) if "pollbench-tar-begin" in l) + 2
k = lines[i].index('"msg": "') + 8
lines[i] = lines[i][:k] + ("B" if lines[i][k] == "A" else "A") + lines[i][k + 1:]
print("\n".join(lines))
EOF
! cmp -s "$l1" "$TEST_DIR/corrupt.log" || fail "the corrupt log is the log"
expect_fail "a frame that does not check out" "sha256 .* does not match" "$s/lava-import.sh" "$j1" "$TEST_DIR/corrupt.log"
sed 's/^  generator: .*/  generator: someone else/' "$j1" >"$TEST_DIR/other.yaml"
expect_fail "not a pollbench job" "not a pollbench job" "$s/lava-import.sh" "$TEST_DIR/other.yaml" "$l1"
sed "s/^  seed: .*/  seed: '4'/" "${args[2]}" >"$TEST_DIR/seed4.yaml"
expect_fail "another run's job" "seed '4' differs" "$s/lava-import.sh" "$j1" "$l1" "$TEST_DIR/seed4.yaml" "${args[3]}"
expect_fail "another job's log" "not the log of .*: it booted another kernel" "$s/lava-import.sh" \
	"$(ls "$jobs"/*-baseline-r1.yaml)" "$(ls "$jobs"/*-inline-r1.log)"
unchanged "bad input"
grep -qE '^  lava-smoke +' <<<"$(make -s -C "$PB_ROOT" help)" || fail "make help does not list lava-smoke"

# The four jobs: three boots ok, one with a kernel splat.
"$s/lava-import.sh" --host worker1 "${args[@]}" >"$TEST_DIR/out" 2>"$TEST_DIR/err" ||
	fail "lava-import.sh failed: $(cat "$TEST_DIR/err")"
run=$RESULTS_DIR/imp
grep -qx "run: $run" "$TEST_DIR/out" || fail "no 'run: $run' line: $(cat "$TEST_DIR/out")"
grep -q 'FAILED: inline-r2-a1: test case kernel-log: fail (pollbench: the kernel log has: .*BUG: sleeping' "$TEST_DIR/err" ||
	fail "the splat is not reported: $(cat "$TEST_DIR/err")"
cell=randread-4k-qd1-psync@alone
for d in baseline/$cell/1 baseline/$cell/2 inline/$cell/1; do
	[ -f "$run/$d/meta.json" ] || fail "$d was not imported: $(find "$run" | head -30)"
	cmp -s "$run/$d/fio.json" "$fixture/$d/fio.json" || fail "$d/fio.json differs from what the guest framed"
done
[ ! -e "$run/inline/$cell/2" ] || fail "the failed boot's cell became data"
[ "$(cat "$run/boots/inline-r2-a1/status")" = "failed: test case kernel-log: fail (pollbench: the kernel log has: [ 9.1] BUG: sleeping in the wrong place)" ] ||
	fail "failed boot status: $(cat "$run/boots/inline-r2-a1/status")"
[ -f "$run/boots/inline-r2-a1/share/out/$cell/fio.json" ] || fail "the failed boot's files are not kept under boots/"
for b in baseline-r1-a1 baseline-r2-a1 inline-r1-a1; do
	[ "$(cat "$run/boots/$b/status")" = ok ] || fail "$b: $(cat "$run/boots/$b/status")"
	grep -q '^pollbench-tar-end job ' "$run/boots/$b/console.log" || fail "$b: console.log lacks the console"
	grep -qx 'job ran' "$run/boots/$b/share/job.out" || fail "$b: job.out"
done
mj=$run/baseline/$cell/2/meta.json
[ "$(jq -r '[.variant, .kernel_variant, .rep, .boot_id, .cell, .workload, .condition, .device, .host, .timing, .kernel_commit, .guest_cpuidle_driver] | join(" ")' "$mj")" = \
	"baseline baseline 2 baseline-r2-a1 $cell randread-4k-qd1-psync alone nvme worker1 realtime c0ffeebaseline none" ] ||
	fail "meta.json: $(cat "$mj")"
jq -e '.qemu_version | test("1:7.2\\+dfsg-7")' "$mj" >/dev/null || fail "meta.json: qemu_version is not the worker's"
jq -e '.qemu_command == "qemu-system-x86_64 -nographic -machine q35"' "$mj" >/dev/null || fail "meta.json: qemu_command"
rj=$run/run.json
[ "$(jq -r '[.run_id, .seed, .matrix_sha256, .timing, .runtime_s, .baseline, (.boot_order | length), (.configs | keys | join(","))] | join(" ")' "$rj")" = \
	"imp 3 $(sha256sum "$m" | cut -d' ' -f1) realtime 1 baseline 4 baseline,inline" ] || fail "run.json: $(cat "$rj")"
echo "ok - 4 jobs imported: 3 boots' cells with meta.json and run.json, a kernel splat kept as a failed boot"

"$report" "$run" >"$TEST_DIR/report.out" 2>&1 || fail "pollbench-report cannot read the import: $(tail "$TEST_DIR/report.out")"
grep -q '3 boots ok, 1 failed' "$run/report.md" || fail "report.md does not count the boots: $(grep -i boots "$run/report.md")"
grep -q "randread-4k-qd1-psync@alone" "$run/summary.csv" || fail "summary.csv lacks the cell"
echo "ok - analysis/pollbench-report reads the imported run (3 boots ok, 1 failed)"

# Imported before: refused; a rerun of a boot, cut short: a failed boot of its own.
expect_fail "a log imported twice" "imported into .* already" "$s/lava-import.sh" "$j1" "$l1"
j=$(ls "$jobs"/*-inline-r2.yaml)
fake_log "$j" "$TEST_DIR/cut.log" incomplete
"$s/lava-import.sh" "$j" "$TEST_DIR/cut.log" >/dev/null 2>"$TEST_DIR/err" || fail "an incomplete job: $(cat "$TEST_DIR/err")"
[ "$(cat "$run/boots/inline-r2-a2/status")" = "failed: LAVA job incomplete (the log has no final job result)" ] ||
	fail "incomplete job: $(cat "$run/boots/inline-r2-a2/status" 2>/dev/null || ls "$run/boots")"
[ ! -e "$run/inline/$cell/2" ] || fail "an incomplete job's cell became data"
[ -z "$(find "$RESULTS_DIR" -maxdepth 1 -name '.*')" ] || fail "a staging folder was left: $(ls -A "$RESULTS_DIR")"
echo "ok - an incomplete job is a failed boot (a2) beside the earlier import; a log imported twice is refused"
