#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: the hardware runner end to end inside a guest: QEMU boots
# the baseline kexec-flavour kernel (the "original kernel"); from it
# scripts/hw-step.sh kexecs into boot 1 (baseline-nullb), which runs its
# cells with guest/cell.sh against the emulated NVMe disk (found by the
# wwid the plan recorded), moves them into the run with meta.json and
# kexecs into boot 2 (baseline), which does the same and kexecs back into
# the original kernel. The run's state lives on a second disk (ext2 on
# virtio-blk) that survives each kexec, as a real machine's root file
# system does. Passes when the console shows the four kernels in that
# order, the state says the run is complete, every boot's status is ok,
# and each cell is a fio result whose meta.json names timing=hardware,
# its label, its kernel and the device. The payload, the plan's keys and
# the step are the real ones; what is the guest's own: the kernels are
# the kexec flavour (configs/kexec.config), not the hw flavour, and
# tests/guest/hw-kexec/job.sh stands in for the systemd unit (it runs the
# step at each boot and, as systemd's kexec target does, remounts the
# state read-only before kexec -e).
# Timeout: 1500
# Kernels: baseline:kexec baseline-nullb:kexec
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
need_tool mke2fs debugfs
for v in baseline baseline-nullb; do
	"$PB_ROOT/scripts/kernel-build.sh" "$v" kexec >/dev/null || fail "the $v kexec kernel does not build"
done
release_of() { sed -n 's/^kernel_release=//p' "$(variant_obj "$1" kexec)/pollbench-build.env"; }
orig=$(release_of baseline)

# What the guest reads from the host share: kernels, the initramfs, the
# runner, the workloads and the job.
rm -rf "$TEST_DIR"
share=$TEST_DIR/boot/share
mkdir -p "$share/k/baseline" "$share/k/baseline-nullb" "$share/scripts" "$share/workloads" "$TEST_DIR/state/run/hw"
cp "$PB_ROOT"/workloads/*.fio "$share/workloads/"
cp "$PB_ROOT/tests/guest/hw-kexec/job.sh" "$share/job.sh"
for v in baseline baseline-nullb; do
	cp "$(variant_obj "$v" kexec)/arch/x86/boot/bzImage" "$(variant_obj "$v" kexec)/pollbench-build.env" "$share/k/$v/"
done
cp "$BUILD_DIR/guest/initramfs.cpio.gz" "$share/initrd.img"
cp "$PB_ROOT/scripts/hw-step.sh" "$PB_ROOT/scripts/hw-provenance.sh" "$share/scripts/"

# The plan, as scripts/hw-bench.sh writes it, for two boots with the
# guest's paths; device_wwid is filled in by the job in the original
# kernel (hw-bench reads it on the machine it plans on).
hw=$TEST_DIR/state/run/hw
cat >"$hw/plan.env" <<EOT
run_id=hw-in-guest
boots=2
device=/dev/nvme0n1
device_wwid=
orig_image=/share/k/baseline/bzImage
orig_initrd=/share/initrd.img
orig_cmdline=$PB_GUEST_CMDLINE
pb_lib=/pb
tools=/usr/bin
workloads=/share/workloads
splat_re=$PB_SPLAT_RE
pb_runtime=2
pb_ramp=0
pb_ios=0
pb_cpu=1
pb_perf=0
pb_cyclictest_interval=500
pb_competitor_seconds=
kprobes=0
EOT
n=0
for v in baseline-nullb baseline; do
	n=$((n + 1))
	cat >"$hw/boot-$n.env" <<EOT
label=L-$v
rep=1
kernel_variant=$v
kernel_release=$(release_of "$v")
image=/share/k/$v/bzImage
initrd=/share/initrd.img
build_env=/share/k/$v/pollbench-build.env
cmdline=$PB_GUEST_CMDLINE
cmdline_init=
cmdline_extra=
queue_settings=
hw_settings=
trace=0
EOT
	printf 'randread-4k-qd1-psync@alone\n' >"$hw/boot-$n.cells"
done
printf 'randread-4k-qd1-pvsync2-hipri@alone\n' >>"$hw/boot-1.cells"
echo 1 >"$hw/next"
disk=$TEST_DIR/state.img
mke2fs -q -t ext2 -L pbstate -d "$TEST_DIR/state" "$disk" 64M || fail "mke2fs could not make the state disk"

# The job: every kernel's init runs it (the systemd unit's role).
start=$(date +%s)
rc=0
"$PB_ROOT/scripts/guest-run.sh" --timeout 900 --flavour kexec --extra-disk "$disk" baseline "$TEST_DIR/boot" || rc=$?
echo "guest ran for $(($(date +%s) - start)) s"
out=$TEST_DIR/out
rm -rf "$out"
mkdir -p "$out"
debugfs -R "rdump /run $out" "$disk" >/dev/null 2>&1 || fail "debugfs could not read the state disk back"
cat "$out/run/hw/step.log" 2>/dev/null || true
[ $rc = 0 ] || fail "the guest's run failed: $(cat "$TEST_DIR/boot/status"); job log: $(tail -n 5 "$share/steps.log" 2>/dev/null)"

# The four kernels, in order, each from its init's first line.
got=$(tr -d '\r' <"$TEST_DIR/boot/console.log" | sed -n 's/.*pollbench: init on \([^ ]*\).*/\1/p' | tr '\n' ' ')
want="$orig $(release_of baseline-nullb) $(release_of baseline) $orig "
[ "$got" = "$want" ] || fail "kernels booted: '$got', expected '$want'"
echo "ok - kernels in order: $got"
run=$out/run
[ "$(cat "$run/hw/next")" = 3 ] && [ -f "$run/hw/done" ] || fail "the state is not complete: next $(cat "$run/hw/next")"
for b in L-baseline-nullb-r1-a1 L-baseline-r1-a1; do
	[ "$(cat "$run/boots/$b/status" 2>/dev/null)" = ok ] || fail "boot $b: status '$(cat "$run/boots/$b/status" 2>/dev/null)'"
done
[ "$(find "$run/boots" -mindepth 1 -maxdepth 1 | wc -l)" = 2 ] || fail "more boots than two: $(ls "$run/boots")"
wwid=$(sed -n 's/^device_wwid=//p' "$run/hw/plan.env")
[ -n "$wwid" ] || fail "the job did not record the device's wwid in the plan"
cells=0
for c in L-baseline-nullb/randread-4k-qd1-psync@alone L-baseline-nullb/randread-4k-qd1-pvsync2-hipri@alone \
	L-baseline/randread-4k-qd1-psync@alone; do
	d=$run/$c/1
	label=${c%%/*}
	jq -e '.jobs[0].read.io_bytes > 0' "$d/fio.json" >/dev/null || fail "$c: no fio reads in $d/fio.json"
	jq -e --arg l "$label" --arg k "${label#L-}" --arg r "$(release_of "${label#L-}")" --arg w "$wwid" \
		'.timing == "hardware" and .variant == $l and .kernel_variant == $k and .kernel_release == $r
		and .hw_kernel_release == $r and .hw_device_wwid == $w
		and (.device_path | test("^/dev/nvme[0-9]+n1$")) and (.hw_cpu_model | length > 0)
		and (.kexec_command | test("kexec -l /share/k/"))' "$d/meta.json" >/dev/null ||
		fail "$c: meta.json: $(cat "$d/meta.json")"
	cells=$((cells + 1))
done
echo "ok - $cells cells kept with meta.json (timing=hardware, label, kernel, device by wwid)"
grep -q 'run hw-in-guest complete: 2 boots; returning to the original kernel' "$run/hw/step.log" ||
	fail "the step log does not show the return to the original kernel"
echo "ok - back in the original kernel $orig after the last boot; the run is complete"
