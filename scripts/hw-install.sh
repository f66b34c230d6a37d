#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install what a hardware run (make hw-bench, docs/hardware.md) needs, side
# by side with the machine's own kernels, never touching the boot loader:
#   hw-install.sh kernel VARIANT   a built hw kernel (kernel-build.sh VARIANT hw):
#                                  modules to /lib/modules/<release>/, and
#                                  vmlinuz, initrd.img (mkinitramfs), config,
#                                  System.map, pollbench-build.env to
#                                  build/hw/kernels/<release>/ (no /boot
#                                  file, no installkernel, no update-grub)
#   hw-install.sh payload          guest/cell.sh and its scripts to build/hw/pb/
#                                  (as the guest image's /pb), guest/tools to
#                                  build/hw/bin/
#   hw-install.sh unit STATE DEV   the systemd unit pollbench-hw-step.service:
#                                  runs scripts/hw-step.sh STATE DEV at boot,
#                                  only in a kernel started with pollbench.hw_boot=
#   hw-install.sh remove           all of the above: every *-pollbench-*-hw
#                                  module tree, build/hw/, the unit
set -euo pipefail
. "$(dirname "$0")/lib.sh"

hw=$BUILD_DIR/hw
unit=/etc/systemd/system/pollbench-hw-step.service
[ "$(id -u)" = 0 ] || die "run as root (it writes /lib/modules and /etc/systemd)"

case ${1:-} in
kernel)
	v=${2:-}
	check_variant "$v"
	need_tool make mkinitramfs depmod
	obj=$(variant_obj "$v" hw)
	[ -f "$obj/pollbench-build.env" ] || die "variant '$v' has no hw build: run scripts/kernel-build.sh $v hw"
	release=$(sed -n 's/^kernel_release=//p' "$obj/pollbench-build.env")
	dest=$hw/kernels/$release
	rm -rf "$dest.tmp"
	mkdir -p "$dest.tmp"
	log "installing $release: modules to /lib/modules/$release, kernel and initramfs to $dest"
	make -s -C "$(variant_src "$v")" O="$obj" LOCALVERSION="$(variant_localversion "$v" hw)" \
		INSTALL_MOD_STRIP=1 modules_install >"$dest.tmp/modules_install.log" 2>&1 ||
		die "modules_install of $release failed: $dest.tmp/modules_install.log"
	cp "$obj/arch/x86/boot/bzImage" "$dest.tmp/vmlinuz"
	cp "$obj/.config" "$dest.tmp/config"
	cp "$obj/System.map" "$dest.tmp/System.map"
	# mkinitramfs writes only its output file (update-initramfs would run
	# the boot loader's hooks).
	mkinitramfs -o "$dest.tmp/initrd.img" "$release" >"$dest.tmp/mkinitramfs.log" 2>&1 ||
		die "mkinitramfs for $release failed: $dest.tmp/mkinitramfs.log"
	cp "$obj/pollbench-build.env" "$dest.tmp/pollbench-build.env"
	rm -rf "$dest"
	mv "$dest.tmp" "$dest"
	;;
payload)
	need_tool make gcc
	rm -rf "$hw/pb.tmp"
	mkdir -p "$hw/pb.tmp/conditions" "$hw/bin"
	install -m 0755 "$PB_ROOT/guest/cell.sh" "$PB_ROOT/guest/window.sh" "$PB_ROOT/guest/kprobes.sh" \
		"$PB_ROOT/guest/nullb.sh" "$PB_ROOT/guest/trace.sh" "$hw/pb.tmp/"
	install -m 0644 "$PB_ROOT"/guest/conditions/*.sh "$hw/pb.tmp/conditions/"
	rm -rf "$hw/pb"
	mv "$hw/pb.tmp" "$hw/pb"
	make -s -C "$PB_ROOT/guest/tools" OUT="$hw/bin" CC=gcc
	;;
unit)
	state=${2:-} dev=${3:-}
	[ -f "$state/plan.env" ] && [ -b "$dev" ] || die "usage: hw-install.sh unit STATE DEVICE (STATE with a plan.env)"
	need_tool systemctl
	state=$(cd "$state" && pwd)
	[[ "$state$dev$PB_ROOT" != *[[:space:]]* ]] || die "the run's path, the device and $PB_ROOT may not hold spaces (a unit's ExecStart)"
	write_atomic "$unit" <<EOT
# Written by pollbench's scripts/hw-install.sh (make hw-bench): the next
# step of a hardware run. Inert unless the kernel was started by that run
# (pollbench.hw_boot= on its command line); 'make hw-uninstall' removes it.
[Unit]
Description=pollbench hardware run: the next step
ConditionKernelCommandLine=pollbench.hw_boot
After=local-fs.target multi-user.target

[Service]
Type=oneshot
ExecStart=/bin/sh $PB_ROOT/scripts/hw-step.sh $state $dev
TimeoutStartSec=infinity

[Install]
WantedBy=multi-user.target
EOT
	systemctl daemon-reload
	systemctl enable pollbench-hw-step.service
	;;
remove)
	if [ -f "$unit" ]; then
		systemctl disable pollbench-hw-step.service 2>/dev/null || true
		rm -f "$unit"
		systemctl daemon-reload 2>/dev/null || true
	fi
	for m in /lib/modules/*-pollbench-*-hw; do
		[ -d "$m" ] || continue
		[ "${m##*/}" != "$(uname -r)" ] || die "$m is the running kernel's: boot the original kernel first"
		log "removing $m"
		rm -rf "$m"
	done
	rm -rf "$hw"
	;;
*) die "usage: hw-install.sh kernel VARIANT | payload | unit STATE DEVICE | remove" ;;
esac
