#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# config-check.sh .config FRAGMENT...: fail, naming each option, if any
# line of a fragment did not survive olddefconfig (Kconfig drops options
# silently when a dependency is missing).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

config=${1:-}
[ -f "$config" ] || die "usage: config-check.sh .config FRAGMENT..."
shift
bad=0
for frag in "$@"; do
	[ -f "$frag" ] || die "fragment $frag not found"
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			if ! grep -qxF -- "$line" "$config"; then
				got=$(grep -E "^(# )?${line%%=*}[= ]" "$config" || echo "absent")
				echo "config-check: $frag: '$line' did not survive (got: $got)" >&2
				bad=1
			fi
			;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }
			opt=${opt%% *}
			if grep -qE "^$opt=" "$config"; then
				echo "config-check: $frag: '$opt' should be unset but is $(grep -E "^$opt=" "$config")" >&2
				bad=1
			fi
			;;
		esac
	done <"$frag"
done
[ $bad = 0 ] || die "$config lacks options its fragments ask for"
