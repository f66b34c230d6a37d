#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# hw-provenance.sh DEVICE: the machine's state a hardware run records
# (run.json at the start, each boot's boot.env and so each cell's
# meta.json), as key=value lines on stdout: CPU model, online CPUs, SMT,
# cpuidle driver, governor and states, cpufreq driver and governors,
# clocksource, the NVMe namespace's model and firmware, nvme's
# poll_queues, the device's hardware queues and the IRQ affinity of its
# controller's vectors, irqbalance, the kernel and its command line.
# POSIX sh (busybox too): scripts/hw-step.sh runs it in every boot.
# PB_HW_SYS names another folder than /sys (tests only).
set -u
dev=${1:?usage: hw-provenance.sh DEVICE}
sys=${PB_HW_SYS:-/sys}
cpu=$sys/devices/system/cpu
name=$(basename "$(readlink -f "$dev" 2>/dev/null || echo "$dev")")
blk=$sys/class/block/$name

# rd FILE: the file's first line, or "none".
rd() {
	if [ -r "$1" ]; then head -n 1 "$1" 2>/dev/null | tr -d '\n' | sed 's/[[:space:]]*$//'; else printf none; fi
}
kv() {
	printf '%s=%s\n' "$1" "$(printf '%s' "$2" | tr '\n\t' '  ')"
}

kv hw_cpu_model "$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n 1)"
kv hw_cpus_online "$(rd "$cpu/online")"
kv hw_smt_control "$(rd "$cpu/smt/control")"
kv hw_smt_active "$(rd "$cpu/smt/active")"
kv hw_cpuidle_driver "$(rd "$cpu/cpuidle/current_driver")"
gov=$(rd "$cpu/cpuidle/current_governor")
[ "$gov" != none ] || gov=$(rd "$cpu/cpuidle/current_governor_ro")
kv hw_cpuidle_governor "$gov"
# CPU0's states as name:exit_latency_us:target_residency_us:disabled, and
# the CPUs whose set of disabled states differs from CPU0's.
states="" ref="" differ=""
for s in "$cpu/cpu0/cpuidle/state"*; do
	[ -d "$s" ] || continue
	states="$states${states:+ }$(rd "$s/name"):$(rd "$s/latency"):$(rd "$s/residency"):$(rd "$s/disable")"
	ref="$ref$(rd "$s/disable")"
done
for c in "$cpu"/cpu[0-9]*; do
	[ -d "$c/cpuidle" ] || continue
	d=""
	for s in "$c/cpuidle/state"*; do d="$d$(rd "$s/disable")"; done
	[ "$d" = "$ref" ] || differ="$differ${differ:+ }${c##*/}"
done
kv hw_cpuidle_states "${states:-none}"
kv hw_cpuidle_states_differ "${differ:-none}"
kv hw_cpufreq_driver "$(rd "$cpu/cpu0/cpufreq/scaling_driver")"
govs=$(cat "$cpu"/cpu[0-9]*/cpufreq/scaling_governor 2>/dev/null | sort -u | tr '\n' ' ' | sed 's/ $//')
kv hw_cpufreq_governors "${govs:-none}"
kv hw_clocksource "$(rd "$sys/devices/system/clocksource/clocksource0/current_clocksource")"
kv hw_device "$dev"
kv hw_device_model "$(rd "$blk/device/model")"
kv hw_device_firmware "$(rd "$blk/device/firmware_rev")"
kv hw_device_wwid "$(rd "$blk/wwid")"
kv hw_device_hw_queues "$(ls "$blk/mq" 2>/dev/null | wc -l | tr -d ' ')"
kv hw_nvme_poll_queues "$(rd "$sys/module/nvme/parameters/poll_queues")"
# The controller's vectors (nvme<N>q<M> in /proc/interrupts): each irq's
# effective affinity, as name:cpus words. With native NVMe multipath the
# namespace's device is the subsystem (nvme-subsys<N>): its controllers.
ctrldir=$(readlink -f "$blk/device" 2>/dev/null || echo none)
case ${ctrldir##*/} in
nvme-subsys*) ctrls=$(ls -d "$ctrldir"/nvme[0-9]* 2>/dev/null) ;;
*) ctrls=$ctrldir ;;
esac
aff=""
for ctrl in $ctrls; do
	ctrl=${ctrl##*/}
	case $ctrl in nvme[0-9]*) ;; *) continue ;; esac
	for irq in $(awk -v c="$ctrl" '$NF ~ "^" c "q[0-9]+$" { sub(":", "", $1); print $1 "=" $NF }' /proc/interrupts); do
		aff="$aff${aff:+ }${irq#*=}:$(rd "/proc/irq/${irq%%=*}/effective_affinity_list")"
	done
done
kv hw_device_irq_affinity "${aff:-none}"
irqb="not running"
pidof irqbalance >/dev/null 2>&1 && irqb=running
kv hw_irqbalance "$irqb"
kv hw_kernel_release "$(uname -r)"
kv hw_kernel_cmdline "$(cat /proc/cmdline)"
