#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# hw-device-check.sh DEVICE: refuse a block device that a hardware run
# (make hw-bench) must not write. The workloads read and write the whole
# device, so it must be a spare whole disk (an NVMe namespace) that
# nothing uses. Every problem found is one line on stderr
# ("hw-device-check: refused: DEVICE: why"); exit 0 if there is none,
# else 1.
#   in use, never overridable: not a whole-disk block device (a
#     partition), mounted (the device or any partition of it, also by
#     mount source), swap, held by md/dm/LVM/bcache (/sys/block/*/holders,
#     the device's or a partition's), the device that backs /, /boot,
#     the results or the build folder;
#   holds data, overridable by FORCE_DESTROY=DEVICE (exactly the DEVICE
#     argument, same spelling): a partition table or a filesystem, RAID or
#     LVM signature (wipefs -n, blkid -p), or partitions the kernel knows.
# A FORCE_DESTROY that is set but is not exactly DEVICE is refused too.
# HW_CHECK_SYSFS, HW_CHECK_MOUNTINFO and HW_CHECK_SWAPS name another
# folder and files than /sys/class/block, /proc/self/mountinfo and
# /proc/swaps (tests only: a kernel without device-mapper has no holders).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dev=${1:-}
[ $# = 1 ] && [ -n "$dev" ] || die "usage: hw-device-check.sh DEVICE (e.g. /dev/nvme1n1)"
need_tool findmnt lsblk wipefs blkid
mountinfo=${HW_CHECK_MOUNTINFO:-/proc/self/mountinfo}
swaps=${HW_CHECK_SWAPS:-/proc/swaps}
sysblock=${HW_CHECK_SYSFS:-/sys/class/block}
refusals=0

refuse() {
	echo "hw-device-check: refused: $dev: $*" >&2
	refusals=$((refusals + 1))
}

# The end of the checks: one summary line, and the exit status.
finish() {
	if [ $refusals = 0 ]; then
		log "$dev: ok (whole disk, unused, no signature${FORCE_DESTROY:+, or FORCE_DESTROY given})"
		exit 0
	fi
	die "$dev: $refusals refusal(s) above; nothing was written"
}

[ -n "${FORCE_DESTROY:-}" ] && [ "$FORCE_DESTROY" != "$dev" ] &&
	refuse "FORCE_DESTROY='$FORCE_DESTROY' is not exactly the device '$dev': it must name the device exactly as given"
if [ ! -b "$dev" ]; then
	refuse "not a block device"
	finish
fi
real=$(readlink -f "$dev")
name=${real##*/}
sys=$sysblock/$name
[ -e "$sys/dev" ] || { refuse "no $sys/dev"; finish; }
if [ -e "$sys/partition" ]; then
	refuse "is a partition: give the whole disk (an NVMe namespace such as /dev/nvme1n1)"
	finish
fi
majmin=$(cat "$sys/dev")

# The device and its partitions: "name major:minor /dev/name" lines.
parts=("$name $majmin /dev/$name")
for p in "$sys"/"$name"*; do
	[ -e "$p/partition" ] || continue
	parts+=("${p##*/} $(cat "$p/dev") /dev/${p##*/}")
done

# Mounted: by device number (field 3 of mountinfo) or by mount source
# (after " - ": btrfs and others show an anonymous device number).
for e in "${parts[@]}"; do
	read -r pn pmm pdev <<<"$e"
	while read -r mp; do
		refuse "$([ "$pn" = "$name" ] || echo "its partition $pn ")is mounted on $mp"
	done < <(awk -v mm="$pmm" -v d="$pdev" '{
			for (i = 7; i <= NF; i++) if ($i == "-") break
			if ($3 == mm || $(i + 2) == d) print $5
		}' "$mountinfo" | LC_ALL=C sort -u)
	while read -r src; do
		[ "$(readlink -f "$src" 2>/dev/null)" = "$pdev" ] &&
			refuse "$([ "$pn" = "$name" ] || echo "its partition $pn ")is in use as swap"
	done < <(awk 'NR > 1 { print $1 }' "$swaps")
	for h in "$sysblock/$pn/holders/"*; do
		[ -e "$h" ] || continue
		hn=${h##*/}
		what=$hn
		[ ! -r "$sysblock/$hn/dm/name" ] || what="$hn (device-mapper '$(cat "$sysblock/$hn/dm/name")': dm, LVM or crypt)"
		[[ $hn != md* ]] || what="$hn (md RAID)"
		refuse "$([ "$pn" = "$name" ] || echo "its partition $pn ")is held by $what: it is part of a stacked device"
	done
done

# The disks under /, /boot, the results and the build folder (through
# partitions, dm, md: lsblk's inverse tree down to the disks).
for path in / /boot "$RESULTS_DIR" "$BUILD_DIR"; do
	p=$path
	while [ ! -e "$p" ]; do p=$(dirname "$p"); done
	src=$(findmnt -n -o SOURCE -T "$p" 2>/dev/null | sed 's/\[.*//') || continue
	[ -b "$src" ] || continue
	if lsblk -n -s -o MAJ:MIN "$src" 2>/dev/null | tr -d ' ' | grep -qx "$majmin"; then
		if [ "$path" = / ]; then
			refuse "is the root device (/ is on $src)"
		else
			refuse "backs $path ($src), which this run reads or writes"
		fi
	fi
done

# Data on it: signatures (partition tables, filesystems, RAID, LVM PVs),
# and partitions the kernel sees. FORCE_DESTROY=DEVICE accepts them.
data=()
while read -r type offset; do
	[ -n "$type" ] && data+=("$type signature at offset $offset")
done < <(wipefs --no-act --noheadings -o TYPE,OFFSET "$real" 2>/dev/null || true)
if [ ${#data[@]} = 0 ]; then
	probe=$(blkid -p -o export "$real" 2>/dev/null || true)
	pt=$(sed -n 's/^PTTYPE=//p' <<<"$probe")
	fs=$(sed -n 's/^TYPE=//p' <<<"$probe")
	[ -z "$pt" ] || data+=("$pt partition table")
	[ -z "$fs" ] || data+=("$fs signature")
fi
[ ${#parts[@]} = 1 ] || data+=("$((${#parts[@]} - 1)) partition(s) the kernel knows")
if [ ${#data[@]} -gt 0 ]; then
	if [ "${FORCE_DESTROY:-}" = "$dev" ]; then
		log "$dev: FORCE_DESTROY=$dev: its data will be destroyed: $(IFS=';'; echo "${data[*]}")"
	else
		for d in "${data[@]}"; do
			refuse "holds data: $d (FORCE_DESTROY=$dev destroys it)"
		done
	fi
fi
finish
