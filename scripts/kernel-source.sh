#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Prepare the kernel source repository that every variant worktree comes
# from: the pinned Debian tarball imported once as a 'baseline' commit, or
# (KSRC=...) a shared clone of the user's own git tree with 'baseline' at
# its HEAD. Idempotent: does nothing when the repository is already there.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

need_tool git tar xz sha256sum make

if [ -f "$SRC_REPO/.git/pollbench-ready" ]; then
	exit 0
fi
rm -rf "$SRC_REPO"
mkdir -p "$(dirname "$SRC_REPO")"

git_id=(-c user.name=pollbench -c user.email=pollbench@localhost)

if [ -n "${KSRC:-}" ]; then
	git -C "$KSRC" rev-parse --verify HEAD >/dev/null 2>&1 ||
		die "KSRC=$KSRC is not a kernel git tree with a commit"
	log "cloning KSRC=$KSRC (shared objects) into $SRC_REPO"
	git clone -q --shared --no-checkout "$KSRC" "$SRC_REPO"
	git -C "$SRC_REPO" tag -f baseline "$(git -C "$KSRC" rev-parse HEAD)" >/dev/null
	touch "$SRC_REPO/.git/pollbench-ready"
	exit 0
fi

[ -f "$KERNEL_TARBALL" ] ||
	die "$KERNEL_TARBALL not found: install $KERNEL_PKG ($KERNEL_PKG_VERSION) with 'make deps', or set KSRC=/path/to/linux"
log "checking sha256 of $KERNEL_TARBALL"
sum=$(sha256sum "$KERNEL_TARBALL" | cut -d' ' -f1)
if [ "$sum" != "$KERNEL_SHA256" ]; then
	die "$KERNEL_TARBALL has sha256 $sum, pinned is $KERNEL_SHA256 (package $KERNEL_PKG_VERSION installed: $(dpkg-query -W -f='${Version}' "$KERNEL_PKG" 2>/dev/null || echo none)). To re-pin, update scripts/pin.env (its header says how)."
fi

tmp=$(mktemp -d "$(dirname "$SRC_REPO")/unpack.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
log "unpacking $KERNEL_TARBALL"
tar -C "$tmp" -xf "$KERNEL_TARBALL"
top=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d)
[ "$(echo "$top" | wc -l)" = 1 ] || die "unexpected tarball layout in $KERNEL_TARBALL"
found=$(make -s -C "$top" kernelversion)
[ "$found" = "$KERNEL_VERSION" ] ||
	die "tarball has kernel version $found, pinned is $KERNEL_VERSION; update scripts/pin.env to re-pin"

log "importing $KERNEL_VERSION into git (baseline commit)"
git -C "$top" init -q -b pollbench
git -C "$top" "${git_id[@]}" add -A -f
GIT_AUTHOR_DATE="1000000000 +0000" GIT_COMMITTER_DATE="1000000000 +0000" \
	git -C "$top" "${git_id[@]}" commit -q -m "Linux $KERNEL_VERSION ($KERNEL_PKG $KERNEL_PKG_VERSION)

Imported from $KERNEL_TARBALL, sha256 $KERNEL_SHA256.
Debian-patched source, not a mainline tag."
git -C "$top" tag baseline
mv "$top" "$SRC_REPO"
touch "$SRC_REPO/.git/pollbench-ready"
log "baseline is $(git -C "$SRC_REPO" rev-parse baseline)"
