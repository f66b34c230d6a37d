#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: a kernel tarball whose sha256 differs from the pin stops the
# source import with a message saying what was found and how to re-pin.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR/tree/scripts"
cp "$PB_ROOT"/scripts/{lib.sh,pin.env,kernel-source.sh} "$TEST_DIR/tree/scripts/"
echo "not a kernel" | xz >"$TEST_DIR/fake.tar.xz"
sed -i "s|^KERNEL_TARBALL=.*|KERNEL_TARBALL=$TEST_DIR/fake.tar.xz|" "$TEST_DIR/tree/scripts/pin.env"
expect_fail "sha256 mismatch" "has sha256 [0-9a-f]{64}, pinned is $KERNEL_SHA256.*re-pin" \
	env -u KSRC BUILD_DIR="$TEST_DIR/build" "$TEST_DIR/tree/scripts/kernel-source.sh"
[ ! -e "$TEST_DIR/build/pinned/linux" ] || fail "a repository was created from a mismatched tarball"
sed -i "s|^KERNEL_TARBALL=.*|KERNEL_TARBALL=$TEST_DIR/missing.tar.xz|" "$TEST_DIR/tree/scripts/pin.env"
expect_fail "missing tarball" "not found: install $KERNEL_PKG" \
	env -u KSRC BUILD_DIR="$TEST_DIR/build" "$TEST_DIR/tree/scripts/kernel-source.sh"
