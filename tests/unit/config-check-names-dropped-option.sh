#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: a fragment option that did not survive olddefconfig fails the
# config check and is named; a surviving fragment passes.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
mkdir -p "$TEST_DIR"
cat >"$TEST_DIR/.config" <<'EOT'
CONFIG_SMP=y
CONFIG_NR_CPUS=8
# CONFIG_FUNCTION_TRACER is not set
EOT
printf 'CONFIG_SMP=y\nCONFIG_NR_CPUS=8\n# CONFIG_FUNCTION_TRACER is not set\n' >"$TEST_DIR/good.config"
printf 'CONFIG_SMP=y\nCONFIG_BLK_DEV_NVME=y\n' >"$TEST_DIR/dropped.config"
printf '# CONFIG_SMP is not set\n' >"$TEST_DIR/unset.config"
"$PB_ROOT/scripts/config-check.sh" "$TEST_DIR/.config" "$TEST_DIR/good.config"
expect_fail "dropped option" "CONFIG_BLK_DEV_NVME=y' did not survive" \
	"$PB_ROOT/scripts/config-check.sh" "$TEST_DIR/.config" "$TEST_DIR/dropped.config"
expect_fail "option that must be unset" "CONFIG_SMP' should be unset" \
	"$PB_ROOT/scripts/config-check.sh" "$TEST_DIR/.config" "$TEST_DIR/unset.config"
