#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: scripts/hw-step.sh's real path with a fake kexec and a fake
# cell payload: from the original kernel it kexecs into boot 1 (markers
# before init's "--"); in boot 1 it runs the cells, moves them with
# meta.json (timing=hardware, the label) and advances the state to 2, then
# kexecs into boot 2; a failed cell there keeps the state at 2, leaves the
# cell under boots/, marks the boot failed and returns to the original
# kernel; the resume retries only that boot's missing cell; after the last
# boot it returns to the original kernel and the run is complete.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
rm -rf "$TEST_DIR"
d=$TEST_DIR
mkdir -p "$d/run/hw" "$d/pb" "$d/wl" "$d/bin"
# The fake cell: fails the cell named in $d/fail-once once.
cat >"$d/pb/cell.sh" <<EOF
mkdir -p "\$3"
if [ -f $d/fail-once ] && [ "\${3##*/}" = "\$(cat $d/fail-once)" ]; then rm $d/fail-once; echo boom >"\$3/error.txt"; exit 1; fi
echo '{"jobs": []}' >"\$3/fio.json"
EOF
touch "$d/wl/a.fio"
printf '#!/bin/sh\necho "$*" >>%s/kexec.log\n' "$d" >"$d/kexec"
chmod +x "$d/kexec"
printf 'variant=baseline\nkernel_release=%s\n' "$(uname -r)" >"$d/build.env"
cat >"$d/run/hw/plan.env" <<EOF
run_id=t
boots=2
device=/dev/null
device_wwid=none
orig_image=/boot/vmlinuz-orig
orig_initrd=/boot/initrd-orig
orig_cmdline=console=ttyS0 -- --init
pb_lib=$d/pb
tools=$d/bin
workloads=$d/wl
splat_re=NO-SUCH-SPLAT-IN-ANY-LOG
pb_runtime=1
pb_ramp=0
pb_ios=0
pb_cpu=0
pb_perf=0
pb_cyclictest_interval=500
pb_competitor_seconds=
kprobes=0
EOF
for n in 1 2; do
	printf '%s\n' "label=L$n" rep=1 kernel_variant=baseline "kernel_release=$(uname -r)" "image=/k/vmlinuz$n" \
		"initrd=/k/initrd$n" "build_env=$d/build.env" "cmdline=console=ttyS0 nvme.poll_queues=1" cmdline_init=--init \
		cmdline_extra= queue_settings= hw_settings= trace=0 >"$d/run/hw/boot-$n.env"
	printf 'a@alone\na@alone@nullb-10us\n' >"$d/run/hw/boot-$n.cells"
done
echo 1 >"$d/run/hw/next"
export PB_HW_KEXEC=$d/kexec
echo console=ttyS0 >"$d/cl0"
step() {
	[ "$1" = 0 ] && cl=$d/cl0 || { cl=$d/cl$1; echo "console=ttyS0 pollbench.hw_run=t pollbench.hw_boot=$1 -- --init" >"$cl"; }
	PB_HW_CMDLINE_FILE=$cl sh "$PB_ROOT/scripts/hw-step.sh" "$d/run/hw" /dev/null 2>>"$d/steps.err"
}
step 0 || fail "start: $(cat "$d/steps.err")"
grep -qx -- "-l /k/vmlinuz1 --initrd=/k/initrd1 --append=console=ttyS0 nvme.poll_queues=1 pollbench.hw_run=t pollbench.hw_boot=1 -- --init" "$d/kexec.log" ||
	fail "start: kexec: $(cat "$d/kexec.log")"
step 1 || fail "boot 1: $(cat "$d/steps.err")"
[ "$(cat "$d/run/hw/next")" = 2 ] || fail "boot 1 did not advance the state"
jq -e '.timing == "hardware" and .variant == "L1" and .kernel_variant == "baseline" and .rep == "1" and (.hw_cpu_model | length > 0)' \
	"$d/run/L1/a@alone/1/meta.json" >/dev/null || fail "meta.json: $(cat "$d/run/L1/a@alone/1/meta.json")"
[ -f "$d/run/L1/a@alone@nullb-10us/1/fio.json" ] || fail "boot 1's second cell was not kept"
echo "ok - boot 1 ran, kept its cells with meta.json and advanced the state"
echo 'a@alone@nullb-10us' >"$d/fail-once"
: >"$d/kexec.log"
step 2 && fail "boot 2 with a failed cell exited 0"
[ "$(cat "$d/run/hw/next")" = 2 ] || fail "a failed boot advanced the state"
grep -q '^failed: 1 cell(s) failed' "$d/run/boots/L2-r1-a1/status" || fail "status: $(cat "$d/run/boots/L2-r1-a1/status")"
[ -f "$d/run/boots/L2-r1-a1/out/a@alone@nullb-10us/error.txt" ] && [ ! -e "$d/run/L2/a@alone@nullb-10us" ] ||
	fail "the failed cell became data or was not kept under boots/"
[ -f "$d/run/L2/a@alone/1/fio.json" ] || fail "boot 2's good cell was not kept"
grep -q -- '^-l /boot/vmlinuz-orig --initrd=/boot/initrd-orig --append=console=ttyS0 -- --init$' "$d/kexec.log" ||
	fail "the failure did not return to the original kernel: $(cat "$d/kexec.log")"
echo "ok - a failed cell: state kept, cell kept under boots/, back to the original kernel"
step 0 || fail "resume: $(cat "$d/steps.err")"
step 2 || fail "resumed boot 2: $(cat "$d/steps.err")"
[ -f "$d/run/L2/a@alone@nullb-10us/1/fio.json" ] && [ ! -d "$d/run/boots/L2-r1-a2/out/a@alone" ] ||
	fail "the resume did not run exactly the missing cell"
[ "$(cat "$d/run/hw/next")" = 3 ] && [ -f "$d/run/hw/done" ] || fail "the run is not complete"
step 0 2>/dev/null || fail "a complete run's step failed"
grep -q 'run t is complete (2 boots): nothing to do' "$d/steps.err" || fail "a complete run's step did something"
echo "ok - the resume ran only the missing cell, then returned to the original kernel; the run is complete"
