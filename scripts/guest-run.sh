#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot one variant's kernel in QEMU on an emulated NVMe disk with a poll
# queue, run BOOTDIR/share/job.sh inside, and judge the boot.
#
#   guest-run.sh [options] VARIANT BOOTDIR
#     --flavour F    release (default), debug, kunit, rt or kexec
#     --smp N        vCPUs (default $PB_SMP or 2)
#     --mem MIB      memory (default $PB_MEM or 1024)
#     --timeout S    host-side limit in seconds (default $PB_TIMEOUT or 600)
#     --timing T     icount: single-threaded TCG on an instruction-count
#                    clock (1 instruction = 2^PB_ICOUNT_SHIFT ns, default 0),
#                    deterministic to a bin at p50 (docs/methodology.md);
#                    realtime (default): wall-clock time,
#                    KVM if the probe allows (scripts/accel.sh), else
#                    TCG, single-threaded unless PB_TCG_THREAD=multi
#                    (multi-threaded TCG races with the guest's static
#                    key patching: docs/methodology.md)
#     --append ARGS  extra kernel command line
#     --extra-disk F a second disk, the raw image F as virtio-blk (/dev/vda
#                    in the guest), kept after the boot (a run's state disk)
#     --shell        interactive shell on the serial console, no job
#
# Writes BOOTDIR/console.log, qemu.stderr, qemu-command, boot.env and
# status ("ok" or "failed: <reason>"). Exit 0 for ok, 1 for a failed boot.

# QEMU options are comma-separated by design.
# shellcheck disable=SC2054
set -euo pipefail
. "$(dirname "$0")/lib.sh"

flavour=release smp=${PB_SMP:-2} mem=${PB_MEM:-1024} timeout=${PB_TIMEOUT:-600}
append="" extra_disk="" shell=0 timing=${PB_TIMING:-realtime} icount_shift=${PB_ICOUNT_SHIFT:-0}
while [ $# -gt 0 ]; do
	case $1 in
	--flavour) flavour=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--extra-disk) extra_disk=$2; shift 2 ;;
	--timing) timing=$2; shift 2 ;;
	--shell) shell=1; shift ;;
	-*) die "unknown option '$1' (see the header of $0)" ;;
	*) break ;;
	esac
done
[ $# = 2 ] || die "usage: guest-run.sh [options] VARIANT BOOTDIR"
variant=$1 bootdir=$2
check_variant "$variant"
[[ $smp =~ ^[1-8]$ ]] || die "--smp must be 1..8 (the guest config has NR_CPUS=8), got '$smp'"
[[ $mem =~ ^[0-9]+$ ]] && [ "$mem" -ge 256 ] || die "--mem must be a number of MiB >= 256, got '$mem'"
[[ $timeout =~ ^[0-9]+$ ]] && [ "$timeout" -gt 0 ] || die "--timeout must be a positive number of seconds, got '$timeout'"
check_timing "$timing"
[ "$timing" != icount ] || [ "${ACCEL:-tcg}" = tcg ] ||
	die "timing icount runs on TCG only; ACCEL=$ACCEL asks for another accelerator"
[[ $icount_shift =~ ^[0-9]$ ]] || die "PB_ICOUNT_SHIFT must be 0..9, got '$icount_shift'"
# QEMU 7.2's multi-threaded TCG can translate a block while another vCPU
# patches it (text_poke_bp() of a CONFIG_JUMP_LABEL kernel) and keep the
# stale translation, int3 and all: the guest oopses. One thread for all
# vCPUs never translates during a write. PB_TCG_THREAD=multi brings the
# race back, for the test that shows it.
tcg_thread=${PB_TCG_THREAD:-single}
case $tcg_thread in single | multi) ;; *) die "PB_TCG_THREAD must be single or multi, got '$tcg_thread'" ;; esac
need_tool qemu-system-x86_64 timeout truncate
[ -z "$extra_disk" ] || [ -f "$extra_disk" ] || die "--extra-disk: no file '$extra_disk'"

obj=$(variant_obj "$variant" "$flavour")
kernel=$obj/arch/x86/boot/bzImage
[ -f "$kernel" ] && [ -f "$obj/pollbench-build.env" ] ||
	die "no built kernel for $variant ($flavour): run 'make kernel VARIANT=$variant${flavour/release/}'"
initrd=$BUILD_DIR/guest/initramfs.cpio.gz
[ -f "$initrd" ] || die "no guest image: run 'make guest'"
mkdir -p "$bootdir/share"
[ $shell = 1 ] || [ -f "$bootdir/share/job.sh" ] || die "$bootdir/share/job.sh is missing"
rm -f "$bootdir/share/job.rc" "$bootdir/status"

# icount needs TCG (one thread runs every vCPU in turn); sleep=off jumps
# the clock over time when every vCPU is idle, align=off never waits for
# the host's clock: virtual time is a function of the instructions alone.
if [ "$timing" = icount ]; then
	accel=tcg
	accel_args=(-accel tcg -cpu max -icount "shift=$icount_shift,sleep=off,align=off")
else
	accel=$("$PB_ROOT/scripts/accel.sh" "$variant" "$flavour")
	case $accel in
	kvm) accel_args=(-accel kvm -cpu host,-arch-capabilities) ;;
	tcg) accel_args=(-accel "tcg,thread=$tcg_thread" -cpu max) ;;
	*) die "accelerator probe gave '$accel'" ;;
	esac
fi

# A fresh sparse disk per boot: every boot starts from the same state.
disk=$bootdir/disk.raw
truncate -s "${PB_DISK_SIZE:-4G}" "$disk"
cmdline="$PB_GUEST_CMDLINE $append"
[ $shell = 1 ] && cmdline="$cmdline pollbench.shell=1"
if [ $shell = 1 ]; then
	serial=(-serial mon:stdio)
else
	serial=(-serial "file:$bootdir/console.log" -monitor none)
fi
qemu=(qemu-system-x86_64 "${accel_args[@]}" -machine q35 -smp "$smp" -m "$mem"
	-nodefaults -no-reboot -nographic "${serial[@]}"
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline"
	-drive "file=$disk,if=none,id=nvm,format=raw,cache=none,aio=native"
	-device nvme,serial=pollbench,drive=nvm
	-virtfs "local,path=$bootdir/share,mount_tag=host0,security_model=none,id=host0")
[ -z "$extra_disk" ] || qemu+=(-drive "file=$extra_disk,if=virtio,format=raw,cache=none,aio=native")
for a in "${qemu[@]}"; do
	if [[ $a =~ ^[A-Za-z0-9_./:=,+@-]+$ ]]; then printf '%s ' "$a"; else printf "'%s' " "$a"; fi
done | sed 's/ $/\n/' >"$bootdir/qemu-command"
echo "+ $(cat "$bootdir/qemu-command")" >&2

{
	cat "$obj/pollbench-build.env"
	echo "qemu_version=$(qemu-system-x86_64 --version | head -n1)"
	echo "accel=$accel"
	echo "timing=$timing"
	[ "$accel" != tcg ] || [ "$timing" = icount ] || echo "tcg_thread=$tcg_thread"
	[ "$timing" != icount ] || echo "icount_shift=$icount_shift"
	echo "vcpus=$smp"
	echo "memory_mib=$mem"
	echo "host=$(hostname)"
	echo "host_cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
	echo "initramfs_sha256=$(cat "$initrd.sha256" 2>/dev/null)"
	echo "start_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$bootdir/boot.env"

if [ $shell = 1 ]; then
	"${qemu[@]}"
	rm -f "$disk"
	exit 0
fi

set +e
timeout -k 10 "$timeout" "${qemu[@]}" </dev/null >"$bootdir/qemu.stdout" 2>"$bootdir/qemu.stderr"
qrc=$?
set -e
rm -f "$disk"
{
	echo "end_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	# How the guest's idle vCPUs waited, as guest/init.sh logged it.
	sed -n 's/.*pollbench: cpuidle driver \([^ ]*\) governor \([^ ]*\).*/guest_cpuidle_driver=\1\nguest_cpuidle_governor=\2/p' \
		"$bootdir/console.log" 2>/dev/null | head -n2 || true
} >>"$bootdir/boot.env"

# Judge the boot: any of these turns it into a failure, never into data.
reason=""
splat=$(grep -m1 -E "$PB_SPLAT_RE" \
	"$bootdir/console.log" 2>/dev/null || true)
if [ $qrc = 124 ] || [ $qrc = 137 ]; then
	reason="timeout after ${timeout}s"
elif grep -q 'KVM internal error' "$bootdir/qemu.stderr" "$bootdir/console.log" 2>/dev/null; then
	reason="KVM internal error"
elif [ -n "$splat" ]; then
	reason="kernel reported: ${splat:0:160}"
elif [ $qrc != 0 ]; then
	reason="qemu exited with status $qrc: $(tail -n1 "$bootdir/qemu.stderr")"
elif [ ! -f "$bootdir/share/job.rc" ]; then
	reason="guest did not finish its job"
elif [ "$(cat "$bootdir/share/job.rc")" != 0 ]; then
	reason="job exited with status $(cat "$bootdir/share/job.rc")"
fi
if [ -n "$reason" ]; then
	echo "failed: $reason" >"$bootdir/status"
	log "$variant boot FAILED: $reason (console log: $bootdir/console.log)"
	exit 1
fi
echo ok >"$bootdir/status"
