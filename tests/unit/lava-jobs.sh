#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: lava-jobs.sh (make lava) writes one LAVA job a boot, in the
# order and with the cells bench.sh --list prints and bench's own job.sh,
# that lava-common's job schema accepts (device type qemu, and the x86
# template); bad input (unknown matrix or device type, a kernel not built,
# no guest image, icount on a board, an existing output) stops it with a
# clear message and leaves no output; the guest side's console frames
# decode back to the cells' files. Kernels and guest image are faked.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
py=$(lava_python) || skip "lava-common is not installed (apt-get install lava-common): no LAVA job schema to check against"
rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR"
export RESULTS_DIR=$TEST_DIR/results BUILD_DIR=$TEST_DIR/build PB_DISK_SIZE=128M
s=$PB_ROOT/scripts
m=$PB_ROOT/tests/unit/matrices/labels.matrix

# fake_build VARIANT: what kernel-build.sh leaves, without building.
fake_build() {
	local obj
	obj=$(variant_obj "$1")
	mkdir -p "$obj/arch/x86/boot"
	echo "fake bzImage of $1" >"$obj/arch/x86/boot/bzImage"
	printf '%s\n' "variant=$1" flavour=release "kernel_release=6.12.118-pollbench-$1" \
		"kernel_commit=c0ffee$1" kernel_baseline=ba5e kernel_source=pinned "series=0001-a.patch 0002-b.patch " \
		series_hash=5e41e5 config_hash=c0f19 >"$obj/pollbench-build.env"
}
for k in $("$s/bench.sh" --matrix "$m" --kernels) baseline; do fake_build "$k"; done
mkdir -p "$BUILD_DIR/guest"
echo "fake initramfs" | gzip -n >"$BUILD_DIR/guest/initramfs.cpio.gz"
# A matrix on wall-clock time, for the physical template, with a label's
# kernel command line.
rt=$TEST_DIR/rt.matrix
printf '%s\n' 'config hy hybrid cmdline:idle=poll queue:io_poll_delay=0' 'variants baseline hy' \
	'workloads randread-4k-qd1-psync' 'conditions alone' 'reps 2' 'runtime 1' 'ramp 0' >"$rt"

# Bad input first, while results/ is empty.
# no_output WHAT: bad input left nothing under results/, not even a staging folder.
no_output() {
	[ -z "$(ls -A "$RESULTS_DIR" 2>/dev/null)" ] || fail "$1 left output: $(ls -A "$RESULTS_DIR")"
}
expect_fail "unknown matrix" "matrix file '/nonexistent.matrix' not found" "$s/lava-jobs.sh" --matrix /nonexistent.matrix
no_output "unknown matrix"
expect_fail "unknown device type" "unknown device type 'rpi4' \\(known: qemu; x86" "$s/lava-jobs.sh" --matrix "$m" --device-type rpi4
no_output "unknown device type"
obj=$(variant_obj hybrid)
mv "$obj/pollbench-build.env" "$obj/env.away"
expect_fail "kernel not built" "variant 'hybrid' is not built: run 'make kernel VARIANT=hybrid'" "$s/lava-jobs.sh" --matrix "$m"
mv "$obj/env.away" "$obj/pollbench-build.env"
no_output "kernel not built"
mv "$BUILD_DIR/guest/initramfs.cpio.gz" "$BUILD_DIR/guest/away"
expect_fail "no guest image" "no guest image: run 'make guest'" "$s/lava-jobs.sh" --matrix "$m"
mv "$BUILD_DIR/guest/away" "$BUILD_DIR/guest/initramfs.cpio.gz"
no_output "no guest image"
expect_fail "icount on a board" "runs on timing icount, QEMU's instruction-count clock: device type x86 cannot run it" \
	"$s/lava-jobs.sh" --matrix "$m" --device-type x86
expect_fail "bad base URL" "--base-url: 'lab:/x' is not" "$s/lava-jobs.sh" --matrix "$m" --base-url lab:/x
expect_fail "make lava unknown matrix" "matrix file '/nonexistent.matrix' not found" \
	make -s -C "$PB_ROOT" lava MATRIX=/nonexistent.matrix
no_output "make lava"
grep -qE '^  lava +' <<<"$(make -s -C "$PB_ROOT" help)" || fail "make help does not list lava"

# jobs_as_list DIR: each job of DIR checked by lava-common's own schema,
# then printed as bench.sh --list prints its boot.
jobs_as_list() {
	"$py" - "$1"/*.yaml <<'EOF'
import sys
import yaml
from lava_common.schemas import validate
for path in sys.argv[1:]:
    with open(path) as f:
        job = yaml.safe_load(f)
    try:
        validate(job, strict=True)
    except Exception as exc:
        sys.exit(f"{path}: lava-common refuses it: {exc}")
    m = job["metadata"]
    cells = job["actions"][-1]["test"]["definitions"][0]["repository"]["run"]["steps"][-1].split("' ")[1].split()
    print(f"boot {m['boot'].split('/')[0]}: {m['variant']} rep {m['rep']} (kernel {m['kernel_variant']}): {len(cells)} cells")
    for c in cells:
        print(f"  {c}")
EOF
}
# job_field FILE EXPR: a Python expression over the job `j`, printed.
job_field() {
	"$py" -c 'import sys, yaml; j = yaml.safe_load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
# job_file FILE DEST: the file the job's test steps write to DEST in the guest.
job_file() {
	"$py" - "$1" "$2" <<'EOF'
import sys
import yaml
with open(sys.argv[1]) as f:
    steps = yaml.safe_load(f)["actions"][-1]["test"]["definitions"][0]["repository"]["run"]["steps"]
start = steps.index(f"cat >{sys.argv[2]} <<'PB_EOF'") + 1
print("\n".join(steps[start:steps.index("PB_EOF", start)]))
EOF
}

# Device type qemu on the icount fixture: bench.sh's boots, order and cells.
"$s/lava-jobs.sh" --matrix "$m" --seed 7 --run lt >"$TEST_DIR/out" 2>"$TEST_DIR/err" ||
	fail "lava-jobs.sh failed: $(cat "$TEST_DIR/err")"
out=$RESULTS_DIR/lt-lava-qemu
grep -qx "lava: $out" "$TEST_DIR/out" || fail "no 'lava: $out' line: $(cat "$TEST_DIR/out")"
[ "$(ls -A "$RESULTS_DIR")" = lt-lava-qemu ] || fail "results/ holds more than the output: $(ls -A "$RESULTS_DIR")"
"$s/bench.sh" --matrix "$m" --list --seed 7 >"$TEST_DIR/list"
sed '1d;$d' "$TEST_DIR/list" >"$TEST_DIR/boots"
jobs_as_list "$out/jobs" >"$TEST_DIR/jobs" || fail "$(cat "$TEST_DIR/jobs")"
[ "$(grep -c '^boot ' "$TEST_DIR/jobs")" = 6 ] || fail "$(grep -c '^boot ' "$TEST_DIR/jobs") jobs, bench.sh --list has 6 boots"
diff "$TEST_DIR/boots" "$TEST_DIR/jobs" >&2 || fail "the jobs' boots and cells differ from bench.sh --list (above)"
echo "ok - qemu: 6 jobs accepted by lava-common's schema, in bench.sh --list's order with its cells"
# The test steps carry bench.sh's own job.sh for the boot.
"$s/bench.sh" --matrix "$m" --seed 7 --payloads "$TEST_DIR/payloads"
n=0
for f in "$out"/jobs/*.yaml; do
	n=$((n + 1))
	job_file "$f" /share/job.sh | cmp -s - "$TEST_DIR/payloads/$n/share/job.sh" ||
		fail "$f: job.sh differs from bench.sh's for boot $n"
done
jobs=("$out"/jobs/*.yaml)
f=${jobs[0]}
[ "$(job_field "$f" 'j["metadata"]["seed"]')" = 7 ] || fail "metadata seed"
[ "$(job_field "$f" 'j["metadata"]["matrix_sha256"]')" = "$(sha256sum "$m" | cut -d' ' -f1)" ] || fail "metadata matrix_sha256"
[ "$(job_field "$f" 'j["metadata"]["timing"]')" = icount ] || fail "metadata timing"
k=$(job_field "$f" 'j["metadata"]["kernel_variant"]')
[ "$(job_field "$f" 'j["metadata"]["kernel_commit"]')" = "c0ffee$k" ] || fail "metadata kernel_commit"
[ "$(job_field "$f" 'j["actions"][0]["deploy"]["images"]["kernel"]["sha256sum"]')" = \
	"$(sha256sum "$out/upload/kernels/$k/bzImage" | cut -d' ' -f1)" ] || fail "the kernel's sha256 is not upload/'s"
[ "$(job_field "$f" 'j["actions"][0]["deploy"]["images"]["kernel"]["url"]')" = "file://$out/upload/kernels/$k/bzImage" ] ||
	fail "the kernel's URL is not file://<output>/upload/..."
job_field "$f" '" ".join(j["context"]["extra_options"])' | grep -q -- '-icount shift=0,sleep=off,align=off' ||
	fail "an icount job without -icount"
[ "$(gzip -dc "$out/upload/nvme-disk.raw.gz" | wc -c)" = $((128 << 20)) ] || fail "the NVMe disk image is not PB_DISK_SIZE"
expect_fail "output exists" "lt-lava-qemu exists already" "$s/lava-jobs.sh" --matrix "$m" --run lt
# A run that exists lends its seed, as to make bench RUN=<run-id>.
mkdir -p "$RESULTS_DIR/ex"
echo '{"seed": 11}' >"$RESULTS_DIR/ex/run.json"
"$s/lava-jobs.sh" --matrix "$m" --run ex >/dev/null 2>"$TEST_DIR/err" || fail "--run ex: $(cat "$TEST_DIR/err")"
jobs=("$RESULTS_DIR"/ex-lava-qemu/jobs/*.yaml)
[ "$(job_field "${jobs[0]}" 'j["metadata"]["seed"]')" = 11 ] || fail "an existing run's seed was not kept"

# The x86 template and qemu on wall-clock time, with a label's cmdline.
"$s/lava-jobs.sh" --matrix "$rt" --run rt --device-type x86 --base-url https://lab.example/pb >/dev/null 2>"$TEST_DIR/err" ||
	fail "x86: $(cat "$TEST_DIR/err")"
"$s/lava-jobs.sh" --matrix "$rt" --run rt >/dev/null 2>"$TEST_DIR/err" || fail "qemu realtime: $(cat "$TEST_DIR/err")"
for d in x86 qemu; do
	jobs_as_list "$RESULTS_DIR/rt-lava-$d/jobs" >"$TEST_DIR/jobs" || fail "$(cat "$TEST_DIR/jobs")"
	[ "$(grep -c '^boot ' "$TEST_DIR/jobs")" = 4 ] || fail "$d: $(grep -c '^boot ' "$TEST_DIR/jobs") jobs for 4 boots"
done
f=$(grep -l 'variant: hy$' "$RESULTS_DIR"/rt-lava-x86/jobs/*.yaml | head -n1)
job_field "$f" 'j["context"]["extra_kernel_args"]' | grep -qE '^console=ttyS0 .* idle=poll pollbench.shell=1$' ||
	fail "x86: kernel arguments: $(job_field "$f" 'j["context"]["extra_kernel_args"]')"
job_field "$f" 'j["actions"][0]["deploy"]["kernel"]["url"]' | grep -q '^https://lab.example/pb/kernels/hybrid/bzImage$' ||
	fail "x86: kernel URL"
f=$(grep -l 'variant: hy$' "$RESULTS_DIR"/rt-lava-qemu/jobs/*.yaml | head -n1)
job_field "$f" 'j["actions"][0]["deploy"]["images"]["kernel"]["image_arg"]' | grep -q 'idle=poll pollbench.shell=1"$' ||
	fail "qemu: -append lacks the label's cmdline"
job_field "$f" '" ".join(j["context"]["extra_options"])' | grep -q -- '-accel tcg,thread=single' ||
	fail "qemu realtime: not single-threaded TCG"
echo "ok - x86 template and qemu realtime jobs accepted by lava-common's schema, with the label's command line"

# The guest side on the host: fake cells, a fake lava-test-case; every
# framed tar decodes, checks out and holds the cell's files.
g=$TEST_DIR/guest
mkdir -p "$g/bin" "$g/share/out/a@alone" "$g/share/out/b@alone"
printf '#!/bin/sh\necho "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$1 RESULT=$3>"\n' >"$g/bin/lava-test-case"
chmod +x "$g/bin/lava-test-case"
echo '{"jobs": []}' >"$g/share/out/a@alone/fio.json"
echo 0 >"$g/share/out/a@alone/rc"
echo 1 >"$g/share/out/b@alone/rc"
echo 'echo job ran' >"$g/share/job.sh"
# The guest's shell is busybox's.
gsh=(sh)
! command -v busybox >/dev/null || gsh=(busybox sh)
PATH=$g/bin:$PATH PB_SHARE=$g/share "${gsh[@]}" "$s/lava-guest.sh" 'no-such-splat-in-any-log' a@alone b@alone c@alone >"$g/console"
for want in job=pass a@alone=pass b@alone=fail c@alone=fail kernel-log=pass; do
	grep -qx "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=${want%=*} RESULT=${want#*=}>" "$g/console" ||
		fail "guest side: no test case $want: $(cat "$g/console")"
done
mkdir -p "$g/back"
for name in a@alone b@alone job; do
	sed -n "/^pollbench-tar-begin $name\$/,/^pollbench-tar-end $name /p" "$g/console" | sed '1d;$d' | base64 -d >"$g/back/$name.tgz"
	sum=$(sed -n "s/^pollbench-tar-end $name //p" "$g/console")
	[ "$(sha256sum "$g/back/$name.tgz" | cut -d' ' -f1)" = "$sum" ] || fail "guest side: $name's frame does not check out"
	tar -C "$g/back" -xzf "$g/back/$name.tgz"
done
cmp -s "$g/back/a@alone/fio.json" "$g/share/out/a@alone/fio.json" || fail "guest side: a@alone/fio.json differs"
grep -qx 'job ran' "$g/back/job.out" || fail "guest side: job.out"
! grep -q 'pollbench-tar-begin c@alone' "$g/console" || fail "guest side: framed a cell that has no folder"
echo "ok - guest side: test cases per cell, framed raw files decode and check out"
