#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest initramfs from Debian's own binaries (busybox-static, fio,
# cyclictest, perf) with their shared libraries, the project's static guest
# tools and its init. Same inputs, byte-identical image: sorted entries,
# fixed mtimes and owners, gzip without a timestamp.
# Output: $BUILD_DIR/guest/initramfs.cpio.gz and its .sha256.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

need_tool busybox fio cyclictest chrt perf kexec cpio gzip gcc ldd file
out=$BUILD_DIR/guest
root=$out/root
image=$out/initramfs.cpio.gz
mkdir -p "$out"

# Rebuild only when an input changed: the guest files, this script, and the
# Debian packages whose binaries go in.
inputs=$( (cat "$0" "$PB_ROOT"/guest/*.sh "$PB_ROOT"/guest/conditions/*.sh "$PB_ROOT"/guest/tools/*; \
	dpkg-query -W busybox-static fio rt-tests linux-perf kexec-tools libc6 gcc util-linux 2>/dev/null) | sha256sum | cut -c1-16)
if [ -f "$image" ] && [ "$(cat "$out/inputs" 2>/dev/null)" = "$inputs" ] && [ -z "${PB_REBUILD:-}" ]; then
	exit 0
fi
rm -f "$out/inputs"
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,lib64,proc,sys,dev,tmp,share,etc,root}

# An ELF binary, not a wrapper script (Debian's perf may be either).
real_elf() {
	local p
	p=$(command -v "$1")
	p=$(readlink -f "$p")
	if ! file -L "$p" | grep -q ELF; then
		p=$(dpkg -L linux-perf 2>/dev/null | grep -E '/perf(_[0-9.]+)?$' |
			while read -r c; do file -L "$c" | grep -q ELF && echo "$c"; done | head -n1)
	fi
	[ -n "$p" ] || die "no ELF binary found for $1"
	echo "$p"
}

# Copy a dynamic binary and its library closure (with the ELF interpreter).
add_binary() {
	local bin dest=$2 lib
	bin=$(real_elf "$1")
	install -D -m 0755 "$bin" "$root$dest"
	ldd "$bin" | awk '/=> \//{print $3} /^[[:space:]]*\/lib/{print $1}' |
		while read -r lib; do
			[ -e "$root$lib" ] && continue
			install -D -m 0755 "$(readlink -f "$lib")" "$root$lib"
		done
}

install -m 0755 "$(command -v busybox)" "$root/bin/busybox"
for applet in $(busybox --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done
add_binary fio /usr/bin/fio
add_binary cyclictest /usr/bin/cyclictest
# busybox has no chrt: tests run waiters at SCHED_FIFO with util-linux's.
add_binary chrt /usr/bin/chrt
add_binary perf /usr/bin/perf
# The hardware runner's step kexecs between kernels; the in-guest test of
# it (tests/guest/hw-kexec-in-guest.sh) runs it here.
add_binary kexec /usr/sbin/kexec
[ -e "$root/lib64/ld-linux-x86-64.so.2" ] ||
	install -D -m 0755 "$(readlink -f /lib64/ld-linux-x86-64.so.2)" "$root/lib64/ld-linux-x86-64.so.2"

make -s -C "$PB_ROOT/guest/tools" OUT="$root/usr/bin" CC=gcc
install -m 0755 "$PB_ROOT/guest/init.sh" "$root/init"
mkdir -p "$root/pb"
install -m 0755 "$PB_ROOT/guest/cell.sh" "$PB_ROOT/guest/window.sh" "$PB_ROOT/guest/kprobes.sh" \
	"$PB_ROOT/guest/nullb.sh" "$PB_ROOT/guest/trace.sh" "$root/pb/"
mkdir -p "$root/pb/conditions"
install -m 0644 "$PB_ROOT"/guest/conditions/*.sh "$root/pb/conditions/"
echo "root:x:0:0:root:/root:/bin/sh" >"$root/etc/passwd"
echo "nobody:x:65534:65534:nobody:/tmp:/bin/sh" >>"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"

chroot "$root" /usr/bin/fio --version >/dev/null ||
	die "fio does not run inside the image root (missing library?)"
chroot "$root" /usr/bin/perf --version >/dev/null ||
	die "perf does not run inside the image root (missing library?)"

find "$root" -exec touch -h -d @0 {} +
tmp=$(mktemp "$image.XXXXXX")
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc --reproducible -R 0:0) | gzip -n -6 >"$tmp"
mv -f "$tmp" "$image"
sha256sum "$image" | cut -d' ' -f1 >"$image.sha256"
echo "$inputs" >"$out/inputs"
log "$image: $(du -h "$image" | cut -f1), sha256 $(cat "$image.sha256")"
