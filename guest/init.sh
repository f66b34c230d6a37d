#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /init of the pollbench guest (busybox sh). Mounts the basics and the
# host share, then either runs /share/job.sh and powers off, or (kernel
# command line pollbench.shell=1) gives a shell on the serial console.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
# The workloads' defaults for a job that runs fio on them directly:
# run for PB_RUNTIME seconds, no fixed I/O count (guest/cell.sh sets its own).
export PB_TIME_BASED=1 PB_IOS=0
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /dev/shm /dev/pts /tmp /share
mount -t tmpfs shm /dev/shm
mount -t tmpfs tmp /tmp
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t configfs configfs /sys/kernel/config
echo "pollbench: init on $(uname -r)" >/dev/kmsg
# How idle vCPUs wait (the idle=poll control's question): the cpuidle driver, if any
# registered (haltpoll needs KVM), else the kernel halts (HLT) or polls.
cpuidle=/sys/devices/system/cpu/cpuidle
echo "pollbench: cpuidle driver $(cat $cpuidle/current_driver 2>/dev/null || echo none)" \
	"governor $(cat $cpuidle/current_governor_ro 2>/dev/null || echo none)" >/dev/kmsg

if ! mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 host0 /share; then
	echo "pollbench: FAILED to mount the host share" >/dev/kmsg
fi

# The NVMe controller probes asynchronously: give every job its disk
# (up to 10 s) instead of a wait loop in each job.
for _ in $(seq 100); do [ -b /dev/nvme0n1 ] && break; sleep 0.1; done
[ -b /dev/nvme0n1 ] || echo "pollbench: no /dev/nvme0n1 after 10 s" >/dev/kmsg

case " $(cat /proc/cmdline) " in
*" pollbench.shell=1 "*)
	echo "pollbench: shell; 'poweroff -f' to leave"
	setsid cttyhack sh -l
	;;
*)
	if [ -f /share/job.sh ]; then
		sh /share/job.sh >/share/job.out 2>&1
		rc=$?
		sync
		echo "$rc" >/share/job.rc
		sync
		echo "pollbench: job finished rc=$rc" >/dev/kmsg
	else
		echo "pollbench: no /share/job.sh" >/dev/kmsg
	fi
	;;
esac
sync
poweroff -f
