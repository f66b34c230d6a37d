#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: the hardware runner refuses, each with its own clear line
# and a non-zero exit, a device that is not a block device, is a
# partition, is mounted (or a partition of it is), is swap, is held by a
# stacked device (dm; a sysfs fixture where the kernel has no
# device-mapper), holds a filesystem signature or a partition table, or
# is the root device; FORCE_DESTROY accepts data only when it names the
# device exactly, and never a mounted device; make hw-bench (DRY_RUN=1)
# stops on a refusal before printing any plan, and a refused device is
# left byte for byte as it was. Loop devices (root).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root for loop devices"
for t in losetup partx mkfs.ext4 mkswap findmnt lsblk wipefs blkid; do
	command -v "$t" >/dev/null || skip "$t not installed"
done
rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR/mnt"
chk=$PB_ROOT/scripts/hw-device-check.sh
loops=() dm="" swap=""
cleanup() {
	set +e
	mountpoint -q "$TEST_DIR/mnt" && umount "$TEST_DIR/mnt"
	[ -z "$swap" ] || swapoff "$swap" 2>/dev/null
	[ -z "$dm" ] || dmsetup remove "$dm" 2>/dev/null
	for l in "${loops[@]}"; do
		partx -d "$l" 2>/dev/null
		losetup -d "$l"
	done
}
trap cleanup EXIT
# newloop: a fresh 64 MiB loop device (in $loop).
newloop() {
	local img=$TEST_DIR/img${#loops[@]}
	truncate -s 64M "$img"
	loop=$(losetup -f --show "$img" 2>/dev/null) || skip "loop devices cannot be created here (losetup -f failed)"
	loops+=("$loop")
}

newloop
clean=$loop
"$chk" "$clean" || fail "a clean, unused loop device was refused"
echo "ok - a clean device passes"
expect_fail "not a block device" "refused: $TEST_DIR/img0: not a block device" "$chk" "$TEST_DIR/img0"
expect_fail "usage" "usage: hw-device-check.sh DEVICE" "$chk"

# A filesystem signature; FORCE_DESTROY exactly, another spelling, mounted.
newloop
fs=$loop
mkfs.ext4 -q -F "$fs"
expect_fail "filesystem signature" "refused: $fs: holds data: ext4 signature .*FORCE_DESTROY=$fs destroys it" "$chk" "$fs"
FORCE_DESTROY=$fs "$chk" "$fs" 2>"$TEST_DIR/force.err" || fail "FORCE_DESTROY=$fs did not accept it: $(cat "$TEST_DIR/force.err")"
grep -q "its data will be destroyed: ext4 signature" "$TEST_DIR/force.err" || fail "FORCE_DESTROY did not say what it destroys"
echo "ok - FORCE_DESTROY=$fs accepts its ext4 signature"
ln -s "$fs" "$TEST_DIR/link"
expect_fail "FORCE_DESTROY another spelling" "refused: $TEST_DIR/link: FORCE_DESTROY='$fs' is not exactly the device '$TEST_DIR/link'" \
	env FORCE_DESTROY="$fs" "$chk" "$TEST_DIR/link"
expect_fail "FORCE_DESTROY another device" "FORCE_DESTROY='$clean' is not exactly the device '$fs'" env FORCE_DESTROY="$clean" "$chk" "$fs"
mount "$fs" "$TEST_DIR/mnt"
expect_fail "mounted" "refused: $fs: is mounted on $TEST_DIR/mnt" "$chk" "$fs"
expect_fail "mounted, FORCE_DESTROY" "refused: $fs: is mounted on $TEST_DIR/mnt" env FORCE_DESTROY="$fs" "$chk" "$fs"
umount "$TEST_DIR/mnt"

# A partition table (an MBR with one Linux partition from sector 2048),
# then that partition known to the kernel, mounted, and given itself.
newloop
pt=$loop
printf '\x00\x00\x00\x00\x83\x00\x00\x00\x00\x08\x00\x00\x00\x00\x01\x00' |
	dd of="$pt" bs=1 seek=446 conv=notrunc status=none
printf '\x55\xaa' | dd of="$pt" bs=1 seek=510 conv=notrunc status=none
expect_fail "partition table" "refused: $pt: holds data: dos" "$chk" "$pt"
partx -a "$pt" 2>/dev/null || true
if [ -b "${pt}p1" ]; then
	expect_fail "partition given" "refused: ${pt}p1: is a partition: give the whole disk" "$chk" "${pt}p1"
	mkfs.ext4 -q -F "${pt}p1"
	mount "${pt}p1" "$TEST_DIR/mnt"
	expect_fail "mounted partition" "refused: $pt: its partition ${pt##*/}p1 is mounted on $TEST_DIR/mnt" "$chk" "$pt"
	umount "$TEST_DIR/mnt"
	expect_fail "partitions the kernel knows" "refused: $pt: holds data: 1 partition\\(s\\) the kernel knows" "$chk" "$pt"
else
	echo "# partx -a made no ${pt}p1 here: the partition cases are skipped"
fi

# Swap.
newloop
sw=$loop
mkswap -q "$sw" >/dev/null
if swapon "$sw" 2>/dev/null; then
	swap=$sw
	expect_fail "swap" "refused: $sw: is in use as swap" "$chk" "$sw"
	swapoff "$sw"
	swap=""
else
	printf 'Filename Type Size Used Priority\n%s partition 65532 0 -2\n' "$sw" >"$TEST_DIR/swaps"
	expect_fail "swap (a /proc/swaps fixture: swapon failed here)" "refused: $sw: is in use as swap" \
		env HW_CHECK_SWAPS="$TEST_DIR/swaps" "$chk" "$sw"
fi

# Held by a stacked device: device-mapper if the kernel has it, else a
# sysfs fixture with the holder a dm device gives.
newloop
held=$loop
if dmsetup create "pb-hw-refusals-$$" --table "0 131072 linear $held 0" 2>/dev/null; then
	dm=pb-hw-refusals-$$
	expect_fail "held by dm" "refused: $held: is held by dm-[0-9]+ \\(device-mapper '$dm'" "$chk" "$held"
else
	sysfix=$TEST_DIR/sys
	n=${held##*/}
	mkdir -p "$sysfix/$n/holders/dm-7" "$sysfix/dm-7/dm"
	cp "/sys/class/block/$n/dev" "$sysfix/$n/dev"
	echo vg-data >"$sysfix/dm-7/dm/name"
	echo "# no device-mapper in this kernel: holders from a sysfs fixture"
	expect_fail "held by dm (sysfs fixture)" "refused: $held: is held by dm-7 \\(device-mapper 'vg-data'" \
		env HW_CHECK_SYSFS="$sysfix" "$chk" "$held"
fi

# The root device.
src=$(findmnt -n -o SOURCE / | sed 's/\[.*//')
root=""
[ ! -b "$src" ] || root=$(lsblk -n -s -p -o NAME,TYPE "$src" | awk '$2 == "disk" { print $1 }' | sed 's/^[^/]*//' | head -n 1)
if [ -n "$root" ] && [ -b "$root" ]; then
	expect_fail "root device" "refused: $root: is the root device \\(/ is on $src\\)" "$chk" "$root"
	expect_fail "root device, FORCE_DESTROY" "refused: $root: is the root device" env FORCE_DESTROY="$root" "$chk" "$root"
else
	echo "# / is not on a block device here ($src): the root-device case is skipped"
fi

# make hw-bench stops on a refusal before any plan; the device is unchanged.
before=$(sha256sum <"$fs")
out=$TEST_DIR/make.out
rc=0
make -s -C "$PB_ROOT" hw-bench DEVICE="$fs" DRY_RUN=1 MATRIX=tests/unit/matrices/hardware.matrix >"$out" 2>&1 || rc=$?
[ $rc != 0 ] || fail "make hw-bench on a device with a filesystem exited 0: $(cat "$out")"
grep -q "refused: $fs: holds data: ext4 signature" "$out" || fail "make hw-bench did not say why: $(cat "$out")"
! grep -qE '^(build|boot|install):' "$out" || fail "make hw-bench printed a plan for a refused device: $(cat "$out")"
[ "$(sha256sum <"$fs")" = "$before" ] || fail "the refused device changed"
echo "ok - make hw-bench DRY_RUN=1 on a refused device -> exit $rc, no plan, device unchanged"
expect_fail "make hw-bench without DEVICE" "set DEVICE=/dev/nvmeXnY" make -s -C "$PB_ROOT" hw-bench
expect_fail "hw-bench timing icount matrix" "says timing icount \\(a QEMU clock\\): a hardware run takes a matrix with 'timing hardware'" \
	env DRY_RUN=1 "$PB_ROOT/scripts/hw-bench.sh" --matrix "$PB_ROOT/matrix/quick.matrix" "$clean"
expect_fail "hw-bench bad DRY_RUN" "DRY_RUN must be 0 or 1" env DRY_RUN=yes "$PB_ROOT/scripts/hw-bench.sh" "$clean"
