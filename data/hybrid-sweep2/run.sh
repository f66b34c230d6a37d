#!/bin/bash
# run.sh OUTDIR [RT [IOPS]]: boot the project's hybrid kernel (TCG, as
# scripts/guest-run.sh does, plus a QMP socket), run job.sh, and during the
# NVMe runs throttle the disk to IOPS (default 200) from RT to 2*RT seconds
# after the run starts (device time about 60 us -> 1/IOPS -> back).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
d=$1 rt=${2:-12} iops=${3:-200}
kernel=/work/main/build/pinned/variants/hybrid/linux/_build/arch/x86/boot/bzImage
rm -rf "$d"; mkdir -p "$d/share"
{ echo "RT=$rt"; echo "# throttled to $iops IOPS in the slow phase"; cat "$here/job.sh"; } >"$d/share/job.sh"
cp /work/main/build/pinned/variants/hybrid/linux/_build/pollbench-build.env "$d/"
truncate -s 4G "$d/disk.raw"
echo none >"$d/share/phase"
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
timeout -k 10 900 "${qemu[@]}" </dev/null >"$d/qemu.stdout" 2>"$d/qemu.stderr" &
qpid=$!
for tag in nvme.step nvme.stepfixed30; do
	while [ ! -f "$d/share/go-$tag" ]; do
		kill -0 $qpid 2>/dev/null || break 2
		sleep 0.2
	done
	echo "$tag-fast" >"$d/share/phase"
	sleep "$rt"
	python3 "$here/qmp.py" "$d/qmp.sock" "$iops" >>"$d/qmp.log"
	echo "$tag-slow" >"$d/share/phase"
	sleep "$rt"
	python3 "$here/qmp.py" "$d/qmp.sock" 0 >>"$d/qmp.log"
	echo "$tag-fast2" >"$d/share/phase"
done
wait $qpid || echo "qemu exited with $?"
rm -f "$d/disk.raw"
grep -m3 -E 'Kernel panic|BUG:|Oops|WARNING:|soft lockup|blocked for more' "$d/console.log" || true
cat "$d/share/job.rc" 2>/dev/null || echo "no job.rc"
