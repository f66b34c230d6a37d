#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: every cover letter's prerequisite-patch-id lines name, in
# order, the stable patch-ids (git patch-id --stable, as b4 computes them)
# of the patches its variant applies before the series itself, so that a
# maintainer can find the exact base; a cover with a stale or missing id
# fails and names the patch.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
need_tool git

checked=0
for v in $PB_VARIANTS $PB_REFERENCE_VARIANTS; do
	cover=$PB_ROOT/patches-$v/0000-cover-letter.patch
	[ -f "$cover" ] || continue
	want=$(prerequisite_patches "$v" | sed "s| $PB_ROOT/| |")
	got=$(sed -n 's/^prerequisite-patch-id: //p' "$cover")
	[ "$(cut -d' ' -f1 <<<"$want")" = "$got" ] || {
		paste <(printf '%s\n' "$want") <(printf '%s\n' "$got") | awk -F'\t' '
			{ split($1, w, " "); if (w[1] != $2) printf "  %s: want %s, cover has %s\n", w[2], w[1], ($2 == "" ? "nothing" : $2) }' >&2
		fail "patches-$v/0000-cover-letter.patch: prerequisite-patch-id lines do not match the patches applied before it"
	}
	echo "ok - $v: $(wc -l <<<"$got") prerequisite ids match"
	checked=$((checked + 1))
done
[ "$checked" -ge 4 ] || fail "only $checked cover letters checked"
