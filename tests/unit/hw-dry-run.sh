#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: make hw-bench DRY_RUN=1 on a fixture matrix prints every
# kernel it would build and install, every kexec (into each boot's kernel,
# with the label's command line and knobs, and back to the original
# kernel) and every cell of every boot, in an order fixed by the seed,
# lists what would stop a real run on this machine, and writes nothing:
# the build and results folders, /lib/modules, /boot, the systemd units
# and the device are the same before and after. No kernel is needed.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (the runner reads the device's signatures)"
command -v losetup >/dev/null || skip "losetup not installed"
rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR"
loop=""
trap '[ -z "$loop" ] || losetup -d "$loop"' EXIT
truncate -s 32M "$TEST_DIR/disk.img"
loop=$(losetup -f --show "$TEST_DIR/disk.img" 2>/dev/null) || skip "loop devices cannot be created here (losetup -f failed)"
m=tests/unit/matrices/hardware.matrix

# snapshot: what a real run would change.
snapshot() {
	{ find "$TEST_DIR/build" "$TEST_DIR/results" /lib/modules /boot /etc/systemd/system -maxdepth 2 \
		-printf '%p %s %T@\n' 2>/dev/null || true; } | LC_ALL=C sort
	sha256sum <"$loop"
}
snapshot >"$TEST_DIR/before"
out=$TEST_DIR/dry.out
dry() {
	make -s -C "$PB_ROOT" hw-bench DEVICE="$loop" DRY_RUN=1 MATRIX="$m" SEED="$1" RUN=dry \
		BUILD_DIR="$TEST_DIR/build" RESULTS_DIR="$TEST_DIR/results"
}
BUILD_DIR=$TEST_DIR/build RESULTS_DIR=$TEST_DIR/results dry 7 >"$out" 2>&1 || fail "the dry run failed: $(cat "$out")"
snapshot >"$TEST_DIR/after"
diff "$TEST_DIR/before" "$TEST_DIR/after" >&2 || fail "the dry run changed the folders or the device above"
[ ! -e "$TEST_DIR/build" ] && [ ! -e "$TEST_DIR/results" ] || fail "the dry run created a build or results folder"
echo "ok - nothing written (build, results, /lib/modules, /boot, systemd units, the device)"

grep -q "^hw-bench: matrix $m (timing hardware, seed 7, 4 boots), run dry, device $loop$" "$out" || fail "header: $(head -n 3 "$out")"
for k in baseline inline; do
	grep -q "^build: KCONFIG_BASE=.* scripts/kernel-build.sh $k hw -> $KERNEL_VERSION-pollbench-$k-hw$" "$out" || fail "no build line for $k"
	grep -q "^install: scripts/hw-install.sh kernel $k -> /lib/modules/$KERNEL_VERSION-pollbench-$k-hw/" "$out" || fail "no install line for $k"
done
[ "$(grep -c '^build: ' "$out")" = 2 ] || fail "expected 2 kernel builds: $(grep '^build: ' "$out")"
# Every boot: a kexec into its kernel with the run's markers, then its cells.
[ "$(grep -c '^boot [1-4]/4: kexec into ' "$out")" = 4 ] || fail "expected 4 kexecs into a boot"
for n in 1 2 3 4; do
	grep -q "^  kexec: kexec -l .*/vmlinuz --initrd=.*/initrd.img --append=\".* pollbench.hw_run=dry pollbench.hw_boot=$n" "$out" ||
		fail "boot $n: no kexec -l line with its markers"
done
grep -q '^  return: kexec -l /boot/vmlinuz-'"$(uname -r)"' ' "$out" || fail "no return to the original kernel"
grep -q 'nvme.poll_queues=4 null_blk.nr_devices=0 blk_poll_stats=1 panic=10 pollbench.hw_run=dry pollbench.hw_boot=' "$out" ||
	fail "in4's hw:poll_queues=4 is not on its command line"
grep -q 'panic=10 idle=poll pollbench.hw_run=dry' "$out" || fail "idlepoll's cmdline:idle=poll is not on its command line"
grep -q '^  setting: echo haltpoll > /sys/devices/system/cpu/cpuidle/current_governor$' "$out" || fail "shallow's cpuidle governor is not set"
grep -q '^  setting: echo off > /sys/devices/system/cpu/smt/control$' "$out" || fail "in4's smt=off is not set"
grep -q "^  cell 1/2: PB_DEVICE=.* PB_QUEUE='io_poll_delay=-1' sh .*/cell.sh " "$out" || fail "in4's queue setting is not passed to its cells"
# Every cell of every boot, once: the fixture's labels run 4, 4, 4 and 2 cells.
[ "$(grep -c '^  cell [0-9]*/[0-9]*: PB_DEVICE=' "$out")" = 14 ] || fail "expected 14 cells: $(grep -c '^  cell ' "$out")"
for label in baseline shallow idlepoll; do
	for c in randread-4k-qd1-{psync,pvsync2-hipri}@alone{,@nullb-10us}; do
		[ "$(grep -c "/boots/$label-r1-a<n>/out/$c$" "$out")" = 1 ] || fail "$label: cell $c is not listed once"
	done
done
grep -q "^  cell 2/2: PB_DEVICE=nullb-10us .*/out/randread-4k-qd1-pvsync2-hipri@alone@nullb-10us$\|^  cell 2/2: PB_DEVICE=nvme .*/out/randread-4k-qd1-pvsync2-hipri@alone$" "$out" ||
	fail "in4's cells"
grep -q '^total: 4 boots, 14 cells, 2 kernels$' "$out" || fail "total: $(grep '^total' "$out")"
grep -q '^DRY RUN: nothing was built, installed, written or booted$' "$out" || fail "no DRY RUN line"
grep -q "^a real run would stop here: $loop is not an NVMe namespace" "$out" || fail "the loop device's not being NVMe is not reported"
echo "ok - every build, install, kexec (4 boots and the return) and cell (14) printed"

# The seed fixes the order; another seed changes it.
BUILD_DIR=$TEST_DIR/build RESULTS_DIR=$TEST_DIR/results dry 7 2>&1 | cmp -s - "$out" || fail "the same seed gave another plan"
BUILD_DIR=$TEST_DIR/build RESULTS_DIR=$TEST_DIR/results dry 8 2>&1 | cmp -s - "$out" && fail "another seed gave the same plan"
echo "ok - the seed fixes the order"
