# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034,SC2154 # shares variables with guest/cell.sh
# Condition alone: nothing beside fio. Sourced by guest/cell.sh, which
# calls cond_start before fio and cond_stop after it (docs/methodology.md).
cond_start() { :; }
cond_stop() { :; }
