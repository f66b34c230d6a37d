#!/bin/bash
# boots.sh VARIANT N: boot VARIANT's debug kernel N times to the rootfs panic; count early KASAN reports.
set -uo pipefail
v=$1 n=$2 extra=${EXTRA:-} tag=${EXTRA:+-${EXTRA// /-}}
k=/work/main/build/pinned/variants/$v/linux/_build-debug/arch/x86/boot/bzImage
for i in $(seq 1 "$n"); do
	log=/work/runs/kasan-boot/$v$tag-$i.log
	timeout 300 qemu-system-x86_64 -accel tcg,thread=multi -cpu max -machine q35 -smp 2 -m 1024 -nodefaults -no-reboot -nographic \
		-serial file:"$log" -monitor none -kernel "$k" -append 'console=ttyS0 panic=-1 isolcpus=1 '"$extra" </dev/null >/dev/null 2>&1
	echo "$v$tag $i $(grep -c 'BUG: KASAN' "$log") $(grep -m1 -o 'Kernel panic.*' "$log" | cut -c1-60)"
done
