#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Write a matrix as LAVA job definitions, one per boot, in the order and
# with the payload `make bench` would boot (bench.sh --payloads: its seed,
# shuffle and job.sh):
#   lava-jobs.sh [--matrix FILE] [--run ID] [--seed N] [--variant V]
#     [--device-type qemu|x86] [--base-url URL]
# Device types: qemu (LAVA's QEMU device type, booted as guest-run.sh
# boots: TCG, the emulated NVMe disk) and x86 (a TEMPLATE for a physical
# x86 board booting by iPXE and TFTP, untested on hardware).
# Writes $RESULTS_DIR/<run-id>-lava-<device-type>/ whole or not at all:
#   jobs/<n>-<label>-r<rep>.yaml  one job a boot, accepted by lava-common's
#                 job schema (checked here before anything is kept)
#   upload/       what the jobs download, to serve at --base-url:
#                 kernels/<variant>/{bzImage,pollbench-build.env},
#                 initramfs.cpio.gz, nvme-disk.raw.gz (qemu)
#   run.env       run id, seed, matrix and its sha256, timing, vCPUs, boots,
#                 the matrix's settings (what the importer needs for run.json)
# --run ID: the run the jobs stand for (default a new id; an existing
# results/ID lends its seed, as to bench.sh). --base-url: where upload/ is
# served (default file://<output>/upload, for lava-run on this host).
# docs/lava.md: what to upload, how results return.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

matrix=$PB_ROOT/matrix/default.matrix run_id="" seed="" only_variant="" device_type=qemu base_url=""
while [ $# -gt 0 ]; do
	case $1 in
	--matrix) matrix=$2; shift 2 ;;
	--run) run_id=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--variant) only_variant=$2; shift 2 ;;
	--device-type) device_type=$2; shift 2 ;;
	--base-url) base_url=$2; shift 2 ;;
	*) die "unknown argument '$1' (see the header of $0)" ;;
	esac
done
[[ $device_type =~ ^(qemu|x86)$ ]] ||
	die "unknown device type '$device_type' (known: qemu; x86, a template for a physical board)"
need_tool gzip numfmt sha256sum
py=$(lava_python) || die "no python3 imports lava_common (Debian's lava-common): run 'make deps' (as root)"
[ -n "$run_id" ] || run_id=$(date -u +%Y%m%d-%H%M%S)
[[ $run_id =~ ^[A-Za-z0-9][A-Za-z0-9_.-]*$ ]] || die "--run: '$run_id' is not a run id (letters, digits, '_', '.', '-')"
out=$RESULTS_DIR/$run_id-lava-$device_type
[ ! -e "$out" ] || die "$out exists already: remove it or give another --run"
[ -n "$base_url" ] || base_url=file://$(realpath -m "$out")/upload
[[ $base_url =~ ^(https?|file|scp)://[^[:space:]\'\"]+$ ]] ||
	die "--base-url: '$base_url' is not an http(s)://, file:// or scp:// URL"
icount_shift=${PB_ICOUNT_SHIFT:-0} accel=${ACCEL:-tcg}
[[ $icount_shift =~ ^[0-9]$ ]] || die "PB_ICOUNT_SHIFT must be 0..9, got '$icount_shift'"
[[ $accel =~ ^(kvm|tcg)$ ]] || die "ACCEL must be kvm or tcg, got '$accel'"
memory=${PB_MEM:-1024}
[[ $memory =~ ^[0-9]+$ ]] && [ "$memory" -ge 256 ] || die "PB_MEM must be a number of MiB >= 256, got '$memory'"
disk_size=$(numfmt --from=iec "${PB_DISK_SIZE:-4G}" 2>/dev/null) || die "PB_DISK_SIZE: '${PB_DISK_SIZE:-}' is not a size"
# The disk's zeros go as 64 MiB gzip members, concatenated: a 4 GiB
# disk is a 4 MiB download.
chunk=$((64 << 20))
[ "$disk_size" -gt 0 ] && [ $((disk_size % chunk)) = 0 ] ||
	die "PB_DISK_SIZE must be a positive multiple of 64M, got '${PB_DISK_SIZE:-}'"

stage=""
scratch=$(mktemp -d)
trap 'rm -rf "$scratch" ${stage:+"$stage"}' EXIT
# The boots, their order and payloads: bench.sh's own, never re-derived.
bench=("$PB_ROOT/scripts/bench.sh" --matrix "$matrix" --run "$run_id" --payloads "$scratch/payloads")
[ -z "$seed" ] || bench+=(--seed "$seed")
[ -z "$only_variant" ] || bench+=(--variant "$only_variant")
PB_PROG=$PB_PROG "${bench[@]}"
payloads=$scratch/payloads
timing=$(sed -n 's/^timing=//p' "$payloads/run.env")
# What bench.sh writes into run.json beyond run.env, so that the importer
# (scripts/lava-import.sh) can write it from a job alone: the matrix's
# settings, and each boot's label settings.
# shellcheck source=scripts/matrix.sh
. "$PB_ROOT/scripts/matrix.sh"
matrix_read "$matrix"
printf '%s\n' "runtime_s=${M[runtime]}" "ramp_s=${M[ramp]}" "ios=${M[ios]}" "fio_cpu=${M[cpu]}" \
	"perf_stat=${M[perf]}" "cyclictest_interval_us=${M[cyclictest_interval]}" "baseline=${M[baseline]}" \
	>>"$payloads/run.env"
for b in "$payloads"/*/boot.env; do
	label=$(sed -n 's/^label=//p' "$b")
	printf '%s\n' "label_workloads=${CFG_WORKLOADS[$label]:-}" "trace=${CFG_TRACE[$label]:-0}" >>"$b"
done
[ "$device_type" = qemu ] || [ "$timing" != icount ] ||
	die "$matrix runs on timing icount, QEMU's instruction-count clock: device type $device_type cannot run it (a realtime matrix can)"

# Everything a job downloads must exist before anything is written.
kernels=$(sed -n 's/^kernel_variant=//p' "$payloads"/*/boot.env | LC_ALL=C sort -u)
for k in $kernels; do
	obj=$(variant_obj "$k")
	[ -f "$obj/arch/x86/boot/bzImage" ] && [ -f "$obj/pollbench-build.env" ] ||
		die "variant '$k' is not built: run 'make kernel VARIANT=$k'"
done
initrd=$BUILD_DIR/guest/initramfs.cpio.gz
[ -f "$initrd" ] || die "no guest image: run 'make guest'"

mkdir -p "$RESULTS_DIR"
stage=$(mktemp -d "$RESULTS_DIR/.$run_id-lava-$device_type.XXXXXX")
chmod 755 "$stage"
for k in $kernels; do
	obj=$(variant_obj "$k")
	mkdir -p "$stage/upload/kernels/$k"
	cp "$obj/arch/x86/boot/bzImage" "$obj/pollbench-build.env" "$stage/upload/kernels/$k/"
done
cp "$initrd" "$stage/upload/initramfs.cpio.gz"
chmod 644 "$stage/upload/initramfs.cpio.gz"
disk=""
if [ "$device_type" = qemu ]; then
	disk=nvme-disk.raw.gz
	head -c "$chunk" /dev/zero | gzip -n -9 >"$scratch/zeros.gz"
	for ((i = 0; i < disk_size / chunk; i++)); do cat "$scratch/zeros.gz"; done >"$stage/upload/$disk"
fi
{
	cat "$payloads/run.env"
	echo "device_type=$device_type"
	echo "base_url=$base_url"
} >"$stage/run.env"

qemu_version=""
! command -v qemu-system-x86_64 >/dev/null || qemu_version=$(qemu-system-x86_64 --version | head -n1)
"$py" "$PB_ROOT/scripts/lava-jobs.py" --payloads "$payloads" --upload "$stage/upload" \
	--jobs "$stage/jobs" --device-type "$device_type" --base-url "$base_url" \
	--guest-script "$PB_ROOT/scripts/lava-guest.sh" --cmdline "$PB_GUEST_CMDLINE" --splat "$PB_SPLAT_RE" \
	--memory "$memory" --accel "$accel" --icount-shift "$icount_shift" --qemu-version "$qemu_version" \
	--disk "$disk"
mv -T "$stage" "$out"
stage=""
log "$(find "$out/jobs" -name '*.yaml' | wc -l) jobs for LAVA device type $device_type in $out/jobs; they download $base_url"
echo "lava: $out"
