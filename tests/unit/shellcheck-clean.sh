#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: every shell script of the project is shellcheck-clean.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
command -v shellcheck >/dev/null || skip "shellcheck not installed"
cd "$PB_ROOT"
mapfile -t files < <(ls scripts/*.sh guest/*.sh guest/conditions/*.sh tests/*.sh tests/*/*.sh tests/guest/hw-kexec/*.sh .ci/run)
shellcheck -x -S warning -e SC1091 "${files[@]}"
echo "shellcheck: ${#files[@]} files clean"
