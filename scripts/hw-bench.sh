#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run a matrix on this real machine against a spare NVMe namespace
# (make hw-bench, docs/hardware.md):
#   hw-bench.sh [--matrix FILE] [--run ID] [--seed N] DEVICE
# Environment: DRY_RUN=1 (print every kernel it would build, every kexec
# and every cell, and touch nothing), FORCE_DESTROY=DEVICE (accept a device
# that holds a partition table or a signature; scripts/hw-device-check.sh),
# HW_LOCALMODCONFIG=0 (build on the machine's whole config, not trimmed to
# its loaded modules).
# It checks everything first (root, Debian 12 or newer, tools, the device,
# the matrix, kexec in the running kernel, the original kernel's files),
# then builds each kernel of the matrix for this machine (scripts/kernel-build.sh
# VARIANT hw: the running kernel's config + configs/hw.config), installs
# them side by side (scripts/hw-install.sh: no boot loader change), writes
# the run's plan into results/<run-id>/hw/ and starts the first step
# (scripts/hw-step.sh), which kexecs into the first boot's kernel. Each
# boot's step runs its cells and kexecs into the next kernel; after the
# last boot or any failure the machine returns to the original kernel.
# --run ID resumes that run from its state.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/matrix.sh
. "$(dirname "$0")/matrix.sh"

matrix=$PB_ROOT/matrix/hardware.matrix run_id="" seed=""
while [ $# -gt 0 ]; do
	case $1 in
	--matrix) matrix=$2; shift 2 ;;
	--run) run_id=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	-*) die "unknown option '$1' (see the header of $0)" ;;
	*) break ;;
	esac
done
[ $# = 1 ] && [ -n "$1" ] || die "usage: make hw-bench DEVICE=/dev/nvmeXnY [MATRIX=file] [RUN=id] [DRY_RUN=1] [FORCE_DESTROY=/dev/nvmeXnY]"
dev=$1
dry=${DRY_RUN:-0}
[[ $dry =~ ^[01]$ ]] || die "DRY_RUN must be 0 or 1, got '$dry'"
[ "$(id -u)" = 0 ] || die "run as root: it reads the device's signatures, and a real run installs kernels and kexecs"
need_tool jq sha256sum xxd shuf findmnt lsblk wipefs blkid

matrix_read "$matrix"
[ "${M[timing]}" = hardware ] ||
	die "$matrix says timing ${M[timing]} (a QEMU clock): a hardware run takes a matrix with 'timing hardware' (matrix/hardware.matrix, docs/hardware.md)"
"$PB_ROOT/scripts/hw-device-check.sh" "$dev" || exit 1

# What stops a real run; a dry run lists them and goes on.
problems=()
problem() {
	if [ "$dry" = 1 ]; then
		problems+=("$*")
	else
		die "$*"
	fi
}
os_id=$(sed -n 's/^ID=//p' /etc/os-release 2>/dev/null | tr -d '"')
os_version=$(sed -n 's/^VERSION_ID=//p' /etc/os-release 2>/dev/null | tr -d '"')
if [ "$os_id" = debian ]; then
	[[ $os_version =~ ^[0-9]+$ ]] && [ "$os_version" -ge 12 ] ||
		problem "this is Debian ${os_version:-testing/unstable or unknown}: Debian 12 or newer is needed"
else
	problem "this is not Debian (/etc/os-release): Debian 12 or newer is needed"
fi
for t in kexec:kexec-tools mkinitramfs:initramfs-tools systemctl:systemd make:make gcc:gcc; do
	command -v "${t%%:*}" >/dev/null 2>&1 ||
		problem "required tool '${t%%:*}' not found: apt-get install ${t#*:}"
done
[ -e /sys/kernel/kexec_loaded ] ||
	problem "the running kernel $(uname -r) cannot kexec (no /sys/kernel/kexec_loaded: CONFIG_KEXEC is off)"
[ "$(cat /proc/sys/kernel/kexec_load_disabled 2>/dev/null || echo 0)" = 0 ] ||
	problem "kexec is disabled (kernel.kexec_load_disabled=1): only a reboot re-enables it"
if [ -r /sys/kernel/security/lockdown ] && ! grep -q '\[none\]' /sys/kernel/security/lockdown; then
	problem "the kernel is locked down ($(cat /sys/kernel/security/lockdown); Secure Boot?): it kexecs signed kernels only, and these are not"
fi
name=$(basename "$(readlink -f "$dev")")
if [[ $name != nvme*n* ]] || [ ! -r "/sys/class/block/$name/device/model" ]; then
	problem "$dev is not an NVMe namespace (no /sys/class/block/$name/device/model)"
fi
orig_release=$(uname -r)
orig_image=/boot/vmlinuz-$orig_release orig_initrd=/boot/initrd.img-$orig_release
for f in "$orig_image" "$orig_initrd"; do
	[ -f "$f" ] || problem "the original kernel's $f is missing: the run could not return to it"
done
orig_cmdline=$(tr ' ' '\n' </proc/cmdline | grep -v '^BOOT_IMAGE=' | grep -v '^pollbench\.' | tr '\n' ' ' | sed 's/ *$//')
base_config=/boot/config-$orig_release
[ -f "$base_config" ] || base_config=/proc/config.gz
[ -r "$base_config" ] || problem "no config of the running kernel (/boot/config-$orig_release, /proc/config.gz)"
online=$(cat /sys/devices/system/cpu/online)
cpu_online() {
	local r a b
	for r in ${online//,/ }; do
		a=${r%-*} b=${r#*-}
		[ "$1" -ge "$a" ] && [ "$1" -le "$b" ] && return 0
	done
	return 1
}
[ "${M[cpu]}" = all ] || cpu_online "${M[cpu]}" ||
	problem "$matrix: cpu ${M[cpu]} is not an online CPU of this machine ($online)"
# cpu all: the load may run on every online CPU; the window reads the first.
pb_cpu=${M[cpu]} pb_cpuset=${M[cpu]}
[ "$pb_cpu" != all ] || pb_cpu=${online%%[-,]*} pb_cpuset=$online

[ -n "$seed" ] || seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
[[ $seed =~ ^[0-9]+$ ]] || die "--seed must be a number, got '$seed'"
[ -n "$run_id" ] || run_id=hw-$(date -u +%Y%m%d-%H%M%S)
[[ $run_id =~ ^[A-Za-z0-9][A-Za-z0-9_.-]*$ ]] || die "run id '$run_id' may only hold letters, digits, '_', '.' and '-'"
run=$RESULTS_DIR/$run_id
state=$run/hw
if [ -f "$run/run.json" ]; then
	[ -f "$state/plan.env" ] || die "$run is not a hardware run (no hw/plan.env)"
	seed=$(jq -r .seed "$run/run.json")
	[ "$(jq -r .matrix_sha256 "$run/run.json")" = "$(sha256sum "$matrix" | cut -d' ' -f1)" ] ||
		die "run $run_id ran another matrix (or this one changed): use another run id"
fi

# The labels' hw: knobs against what this machine has.
for v in "${LABELS[@]}"; do
	variant_has_patches "${KERNEL_OF[$v]}" || die "label '$v': patches-${KERNEL_OF[$v]} has no patches yet"
	for kv in ${CFG_HW[$v]:-}; do
		k=${kv%%=*} val=${kv#*=}
		case $k in
		cpufreq_governor)
			grep -qw "$val" /sys/devices/system/cpu/cpu0/cpufreq/scaling_available_governors 2>/dev/null ||
				problem "label $v: cpufreq governor '$val' is not available here ($(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_available_governors 2>/dev/null || echo 'no cpufreq'))" ;;
		cpuidle_governor)
			[[ " menu teo haltpoll ladder " == *" $val "* ]] ||
				problem "label $v: cpuidle governor '$val' is not one the hw kernels have (menu teo haltpoll ladder)" ;;
		cstate_max)
			[ -d /sys/devices/system/cpu/cpu0/cpuidle ] ||
				problem "label $v: hw:cstate_max=$val, but this machine has no cpuidle states (driver $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none))" ;;
		smt)
			case $(cat /sys/devices/system/cpu/smt/control 2>/dev/null || echo notsupported) in
			on | off) ;;
			*) problem "label $v: hw:smt=$val, but SMT control here is '$(cat /sys/devices/system/cpu/smt/control 2>/dev/null || echo absent)'" ;;
			esac ;;
		esac
	done
done

# The kernels, their releases and where they are installed.
mapfile -t kernels < <(for v in "${LABELS[@]}"; do echo "${KERNEL_OF[$v]}"; done | LC_ALL=C sort -u)
release_of() { echo "$KERNEL_VERSION$(variant_localversion "$1" hw)"; }
kdir=$BUILD_DIR/hw/kernels
lsmod_file=""
[ "${HW_LOCALMODCONFIG:-1}" = 0 ] || lsmod_file=$BUILD_DIR/hw/lsmod.txt
cfg_file=$base_config
[[ $base_config != *.gz ]] || cfg_file=$BUILD_DIR/hw/base.config

# The boots, shuffled with the seed, and each boot's cells.
mapfile -t boots < <(matrix_boots "$seed" "${LABELS[@]}")

# write_plan DIR [FINAL]: the state hw-step.sh reads (plan.env,
# boot-<N>.env, boot-<N>.cells, next, workloads/), written to DIR and read
# from FINAL (default DIR) once moved there.
write_plan() {
	local d=$1 n=0 b v r w pq cl wwid
	mkdir -p "$d"
	wwid=$(cat "/sys/class/block/$name/wwid" 2>/dev/null || echo none)
	cat >"$d/plan.env" <<EOT
run_id=$run_id
boots=${#boots[@]}
device=$dev
device_wwid=$wwid
orig_image=$orig_image
orig_initrd=$orig_initrd
orig_cmdline=$orig_cmdline
pb_lib=$BUILD_DIR/hw/pb
tools=$BUILD_DIR/hw/bin
workloads=${2:-$d}/workloads
splat_re=$PB_SPLAT_RE
pb_runtime=${M[runtime]}
pb_ramp=${M[ramp]}
pb_ios=${M[ios]}
pb_cpu=$pb_cpu
pb_cpuset=$pb_cpuset
pb_nullb_queues=${M[queues]}
pb_perf=${M[perf]}
pb_cyclictest_interval=${M[cyclictest_interval]}
pb_competitor_seconds=$([ "${M[ios]}" = 0 ] || echo 1)
kprobes=${M[kprobes]}
EOT
	# The files the cells run (a scale workload with its numbers written in).
	for w in ${M[workloads]} $(for c in ${M[cells]:-}; do echo "${c%@*}"; done); do
		workload_materialize "$w" "$d/workloads" >/dev/null
	done
	for b in "${boots[@]}"; do
		n=$((n + 1))
		v=${b%:*} r=${b#*:}
		pq=1
		[[ " ${CFG_HW[$v]:-} " != *" poll_queues="* ]] || pq=$(tr ' ' '\n' <<<"${CFG_HW[$v]}" | sed -n 's/^poll_queues=//p')
		# The machine's own command line, the guest's pollbench settings
		# (panic=10: a panic reboots through the firmware, into the
		# default entry), then the label's words.
		# Words after " -- " are init's: they stay at the end (cmdline_init).
		cl=$(tr ' ' '\n' <<<"${orig_cmdline%% -- *}" | grep -vE '^(nvme\.poll_queues|null_blk\.nr_devices|blk_poll_stats|panic)=' |
			tr '\n' ' ' | sed 's/ *$//')
		cl="$cl nvme.poll_queues=$pq null_blk.nr_devices=0 blk_poll_stats=1 panic=10${CFG_CMDLINE[$v]:+ ${CFG_CMDLINE[$v]}}"
		# null_blk caps a device's poll queues at its module parameter.
		[ "${M[queues]}" != percpu ] || cl="$cl null_blk.poll_queues=$(nproc)"
		cat >"$d/boot-$n.env" <<EOT
label=$v
rep=$r
kernel_variant=${KERNEL_OF[$v]}
kernel_release=$(release_of "${KERNEL_OF[$v]}")
image=$kdir/$(release_of "${KERNEL_OF[$v]}")/vmlinuz
initrd=$kdir/$(release_of "${KERNEL_OF[$v]}")/initrd.img
build_env=$kdir/$(release_of "${KERNEL_OF[$v]}")/pollbench-build.env
cmdline=${cl# }
cmdline_init=$([[ $orig_cmdline != *" -- "* ]] || echo "${orig_cmdline#* -- }")
cmdline_extra=${CFG_CMDLINE[$v]:-}
queue_settings=${CFG_QUEUE[$v]:-}
hw_settings=${CFG_HW[$v]:-}
trace=${CFG_TRACE[$v]:-0}
EOT
		label_cells "$v" | shuffle "$seed-$v-$r" >"$d/boot-$n.cells"
	done
	echo 1 >"$d/next"
}

echo "hw-bench: matrix ${matrix#"$PB_ROOT"/} (timing hardware, seed $seed, ${#boots[@]} boots), run $run_id, device $dev"
for k in "${kernels[@]}"; do
	echo "build: KCONFIG_BASE=$cfg_file${lsmod_file:+ KCONFIG_LSMOD=$lsmod_file} scripts/kernel-build.sh $k hw -> $(release_of "$k")"
done
for k in "${kernels[@]}"; do
	echo "install: scripts/hw-install.sh kernel $k -> /lib/modules/$(release_of "$k")/, $kdir/$(release_of "$k")/{vmlinuz,initrd.img}"
done
echo "install: scripts/hw-install.sh payload -> $BUILD_DIR/hw/pb/, $BUILD_DIR/hw/bin/"
echo "install: scripts/hw-install.sh unit $state $dev -> pollbench-hw-step.service"

if [ "$dry" = 1 ]; then
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/hw-plan.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	write_plan "$tmp/hw"
	for n in $(seq 0 "${#boots[@]}"); do
		DRY_RUN=1 sh "$PB_ROOT/scripts/hw-step.sh" --boot "$n" "$tmp/hw" "$dev" 2>&1 | sed "s|$tmp|$run|g"
	done
	ncells=$(cat "$tmp"/hw/boot-*.cells | wc -l)
	echo "total: ${#boots[@]} boots, $ncells cells, ${#kernels[@]} kernels"
	echo "DRY RUN: nothing was built, installed, written or booted"
	if [ ${#problems[@]} -gt 0 ]; then
		printf 'a real run would stop here: %s\n' "${problems[@]}"
	fi
	exit 0
fi

pb_lock "hw-bench.sh --run $run_id $dev"
mkdir -p "$BUILD_DIR/hw"
[ -z "$lsmod_file" ] || [ -f "$lsmod_file" ] || lsmod >"$lsmod_file"
[[ $base_config != *.gz ]] || zcat "$base_config" >"$cfg_file"
for k in "${kernels[@]}"; do
	KCONFIG_BASE=$cfg_file KCONFIG_LSMOD=$lsmod_file "$PB_ROOT/scripts/kernel-build.sh" "$k" hw
	"$PB_ROOT/scripts/hw-install.sh" kernel "$k"
done
"$PB_ROOT/scripts/hw-install.sh" payload
if [ ! -f "$run/run.json" ]; then
	write_plan "$state.tmp" "$state"
	mkdir -p "$run/boots"
	configs='{}'
	for v in "${LABELS[@]}"; do
		configs=$(jq -c --arg l "$v" --arg k "${KERNEL_OF[$v]}" --arg c "${CFG_CMDLINE[$v]:-}" \
			--arg q "${CFG_QUEUE[$v]:-}" --arg h "${CFG_HW[$v]:-}" --arg w "${CFG_WORKLOADS[$v]:-}" \
			'. + {($l): ({kernel_variant: $k, cmdline_extra: $c, queue_settings: $q, hw_settings: $h}
				+ (if $w == "" then {} else {workloads: $w} end))}' <<<"$configs")
	done
	machine=$(sh "$PB_ROOT/scripts/hw-provenance.sh" "$dev" | jq -R 'capture("^(?<k>[^=]+)=(?<v>.*)$") | {(.k): .v}' | jq -s add)
	jq -n --arg run_id "$run_id" --argjson seed "$seed" --arg matrix "${matrix#"$PB_ROOT"/}" \
		--arg matrix_sha256 "$(sha256sum "$matrix" | cut -d' ' -f1)" --arg host "$(hostname)" \
		--arg kernel_source "$SRC_ID${KSRC:+:$KSRC}" --arg start_utc "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
		--arg runtime_s "${M[runtime]}" --arg ramp_s "${M[ramp]}" --arg ios "${M[ios]}" \
		--arg fio_cpu "${M[cpu]}" --arg perf "${M[perf]}" --arg cyc "${M[cyclictest_interval]}" \
		--arg baseline "${M[baseline]}" --arg device "$dev" --arg orig "$orig_release" \
		--argjson configs "$configs" --argjson machine "$machine" \
		--args '{run_id: $run_id, seed: $seed, matrix: $matrix, matrix_sha256: $matrix_sha256,
			host: $host, kernel_source: $kernel_source, start_utc: $start_utc, runtime_s: $runtime_s,
			ramp_s: $ramp_s, ios: $ios, fio_cpu: $fio_cpu, timing: "hardware", perf_stat: $perf,
			cyclictest_interval_us: $cyc, baseline: $baseline, device: $device,
			original_kernel: $orig, machine: $machine, configs: $configs,
			boot_order: $ARGS.positional}' "${boots[@]}" | write_atomic "$run/run.json"
	mv "$state.tmp" "$state"
else
	log "resuming run $run_id at boot $(cat "$state/next")/${#boots[@]}"
fi
"$PB_ROOT/scripts/hw-install.sh" unit "$state" "$dev"
log "starting: the machine now kexecs into each kernel in turn and comes back to $orig_release at the end or after a failure; progress in $state/step.log"
exec sh "$PB_ROOT/scripts/hw-step.sh" "$state" "$dev"
