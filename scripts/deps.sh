#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages pollbench needs (as root), or print the

set -euo pipefail
. "$(dirname "$0")/lib.sh"

packages=(
	"$KERNEL_PKG"
	build-essential flex bison bc libelf-dev libssl-dev cpio kmod ccache git
	sparse xz-utils
	qemu-system-x86 qemu-utils
	fio rt-tests linux-perf busybox-static file
	jq xxd coreutils
	libjansson-dev libgsl-dev gnuplot-nox pkg-config
	shellcheck python3-ply python3-git
	# lava_common.log (the record format lava-import reads) imports requests.
	lava-common python3-yaml python3-requests
	# make hw-bench, and the guest image's kexec (tests/guest/hw-kexec-in-guest.sh).
	kexec-tools initramfs-tools e2fsprogs
)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing+=("$p")
done
[ ${#missing[@]} = 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "missing packages; as root run:" >&2
	echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
	exit 1
fi
log "installing: ${missing[*]}"
apt-get update -q >/dev/null
# kexec-tools would otherwise turn every reboot of this machine into a kexec
# (its kexec-load service): the runs kexec only when they mean to.
if [[ " ${missing[*]} " == *" kexec-tools "* ]]; then
	echo 'kexec-tools kexec-tools/load_kexec boolean false' | debconf-set-selections
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
