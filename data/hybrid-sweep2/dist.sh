#!/bin/bash
# dist.sh OUTDIR IOPS: boot the hybrid kernel with the NVMe disk throttled
# to IOPS (QEMU block_set_io_throttle, set before the guest boots) and run
# dist-job.sh: what the throttled device's completion times look like.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
d=$1 iops=$2
kernel=/work/main/build/pinned/variants/hybrid/linux/_build/arch/x86/boot/bzImage
rm -rf "$d"; mkdir -p "$d/share"
cp "$here/dist-job.sh" "$d/share/job.sh"
cp /work/main/build/pinned/variants/hybrid/linux/_build/pollbench-build.env "$d/"
truncate -s 4G "$d/disk.raw"
# QEMU options are comma-separated by design.
# shellcheck disable=SC2054
qemu=(qemu-system-x86_64 -accel tcg,thread=multi -cpu max -machine q35 -smp 2 -m 1024
	-nodefaults -no-reboot -nographic -serial "file:$d/console.log" -monitor none
	-qmp "unix:$d/qmp.sock,server=on,wait=off"
	-kernel "$kernel" -initrd /work/main/build/guest/initramfs.cpio.gz
	-append "console=ttyS0 nvme.poll_queues=1 null_blk.nr_devices=0 panic=-1"
	-drive "file=$d/disk.raw,if=none,id=nvm,format=raw,cache=none,aio=native"
	-device nvme,serial=pollbench,drive=nvm
	-virtfs "local,path=$d/share,mount_tag=host0,security_model=none,id=host0")
echo "${qemu[*]}" >"$d/qemu-command"
timeout -k 10 600 "${qemu[@]}" </dev/null >"$d/qemu.stdout" 2>"$d/qemu.stderr" &
qpid=$!
while [ ! -S "$d/qmp.sock" ]; do sleep 0.1; done
python3 "$here/qmp.py" "$d/qmp.sock" "$iops" >"$d/qmp.log"
wait $qpid || echo "qemu exited with $?"
rm -f "$d/disk.raw"
cat "$d/share/job.rc" 2>/dev/null || echo "no job.rc"
