#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Rewrite the prerequisite-patch-id lines of patches-VARIANT/0000-cover-letter.patch
# from the patches the variant applies before its own series (git patch-id
# --stable, as b4 computes them). git 2.39's format-patch --base writes ids
# for some prerequisites that no patch-id mode of the same git reproduces;
# run this after splicing a regenerated cover letter.
# usage: cover-prereqs.sh VARIANT...
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -gt 0 ] || die "usage: cover-prereqs.sh VARIANT..."
need_tool git
for v in "$@"; do
	check_variant "$v"
	cover=$PB_ROOT/patches-$v/0000-cover-letter.patch
	[ -f "$cover" ] || die "$cover does not exist"
	grep -q '^base-commit: ' "$cover" || die "$cover has no base-commit line to put the ids after"
	ids=$(mktemp)
	prerequisite_patches "$v" | sed 's/^\([^ ]*\) .*/prerequisite-patch-id: \1/' >"$ids"
	awk -v ids="$ids" '
		/^prerequisite-patch-id: / { next }
		{ print }
		/^base-commit: / { while ((getline l < ids) > 0) print l }' "$cover" >"$cover.new"
	mv "$cover.new" "$cover"
	rm -f "$ids"
	log "$v: $(grep -c '^prerequisite-patch-id: ' "$cover") prerequisite ids"
done
