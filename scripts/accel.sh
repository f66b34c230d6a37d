#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# accel.sh VARIANT [FLAVOUR]: print the accelerator to use, "kvm" or "tcg".
# ACCEL=kvm|tcg forces one. Otherwise a short KVM probe boot decides: the
# existence of /dev/kvm proves nothing (nested kvm_pvm here cannot run a
# stock kernel). The verdict is cached per host and kernel image.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: accel.sh VARIANT [FLAVOUR]}
flavour=${2:-release}
case ${ACCEL:-} in
kvm | tcg) echo "$ACCEL"; exit 0 ;;
"") ;;
*) die "ACCEL must be kvm or tcg, got '$ACCEL'" ;;
esac

if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
	echo tcg
	exit 0
fi
kernel=$(variant_obj "$variant" "$flavour")/arch/x86/boot/bzImage
[ -f "$kernel" ] || die "no kernel for $variant ($flavour) to probe with"
cache_dir=$BUILD_DIR/accel-probe
key=$(hostname)-$(sha256sum "$kernel" | cut -c1-16)
if [ -f "$cache_dir/$key" ]; then
	cat "$cache_dir/$key"
	exit 0
fi

# The probe: boot to /init and power off. A working KVM does it in a few
# seconds; the nested emulator crawls or stops on an internal error.
mkdir -p "$cache_dir"
probe=$(mktemp -d "$cache_dir/probe.XXXXXX")
cat >"$probe/init" <<'EOT'
#!/bin/sh
echo pollbench-probe-ok >/dev/console
poweroff -f
EOT
chmod +x "$probe/init"
cp "$(command -v busybox)" "$probe/busybox"
mkdir -p "$probe/root/bin"
cp "$probe/busybox" "$probe/root/bin/busybox"
for a in sh echo poweroff; do ln -s busybox "$probe/root/bin/$a"; done
cp "$probe/init" "$probe/root/init"
(cd "$probe/root" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0 | gzip -n >"$probe/probe.cpio.gz")
set +e
timeout -k 5 "${PB_PROBE_TIMEOUT:-30}" qemu-system-x86_64 -accel kvm -cpu host,-arch-capabilities \
	-machine q35 -smp 1 -m 256 -nodefaults -no-reboot -nographic \
	-serial "file:$probe/console.log" -monitor none \
	-kernel "$kernel" -initrd "$probe/probe.cpio.gz" -append "console=ttyS0 panic=-1" \
	</dev/null >"$probe/qemu.log" 2>&1
rc=$?
set -e
if [ $rc = 0 ] && grep -q pollbench-probe-ok "$probe/console.log"; then
	verdict=kvm
else
	verdict=tcg
	log "KVM probe failed (qemu status $rc; $(grep -m1 -o 'KVM internal error.*' "$probe/qemu.log" || echo 'no console output in time')): using TCG"
fi
echo "$verdict" >"$cache_dir/$key"
rm -rf "$probe"
echo "$verdict"
