#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Seed a new variant's build from a built sibling: kernel-seed.sh VARIANT FLAVOUR CONFIG_HASH
# Called by kernel-build.sh before the first build of VARIANT in FLAVOUR,
# once the series is applied. It copies the O= folder of
# the built variant of the same flavour and config whose sources differ
# least from VARIANT's, so that make rebuilds only what the two series
# touch (about 150 of 1,550 objects) instead of every object from ccache.
#
# make decides by mtimes, so the copied objects must be newer than every
# source the two trees share and older than every source that may differ:
# the copy gets the present, then, a second later, so do the files either
# tree changes against baseline. Host tools (objtool) record their
# absolute paths; those are renamed to VARIANT's so that objtool is not
# rebuilt (a new objtool rebuilds every object).
# The seed's config is kept unless either tree changes a Kconfig file
# (then kernel-build.sh configures again: 30 s here).
# Prints the seed's variant, or nothing when no sibling qualifies.
# PB_BUILD_SEED=0 turns seeding off.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

variant=${1:-} flavour=${2:-} config_hash=${3:-}
[ -n "$config_hash" ] || die "usage: kernel-seed.sh VARIANT FLAVOUR CONFIG_HASH"
[ "${PB_BUILD_SEED:-1}" != 0 ] || exit 0
src=$(variant_src "$variant")
obj=$(variant_obj "$variant" "$flavour")
[ ! -e "$obj" ] || die "$obj exists; a seed goes only into a new build folder"

# changed_files SRC: the files SRC's work tree changes against baseline,
# committed or not. Seeding only ever makes sources newer, so the other
# builds of an existing tree at most rebuild more.
changed_files() {
	git -C "$1" diff --name-only baseline
}

# A sibling qualifies if its last build finished on its current series
# and tree, with the same config fragments.
best="" best_n="" changed=""
mine=$(changed_files "$src")
for v in $PB_VARIANTS $PB_REFERENCE_VARIANTS; do
	[ "$v" != "$variant" ] || continue
	s=$(variant_src "$v") o=$(variant_obj "$v" "$flavour")
	[ -f "$o/pollbench-build.env" ] || continue
	[ -f "$o/arch/x86/boot/bzImage" ] || continue
	[ "$(cat "$o/.pollbench-config" 2>/dev/null)" = "$config_hash" ] || continue
	[ "$(sed -n 's/^series_hash=//p' "$o/pollbench-build.env")" = "$(cat "$s/_series-applied" 2>/dev/null)" ] || continue
	[ "$(sed -n 's/^kernel_commit=//p' "$o/pollbench-build.env")" = "$(git -C "$s" rev-parse HEAD)" ] || continue
	git -C "$s" diff --quiet HEAD || continue
	both=$(sort -u <(echo "$mine") <(changed_files "$s"))
	n=$(grep -c . <<<"$both" || true)
	if [ -z "$best_n" ] || [ "$n" -lt "$best_n" ]; then
		best=$v best_n=$n changed=$both
	fi
done
[ -n "$best" ] || exit 0

seed_src=$(variant_src "$best")
seed_obj=$(variant_obj "$best" "$flavour")
cp -a "$seed_obj" "$obj"
rm -f "$obj/pollbench-build.env" "$obj/build.log"
! grep -q '/Kconfig[^/]*$\|^Kconfig' <<<"$changed" || rm -f "$obj/.pollbench-config" "$obj/merge_config.log"
find "$obj/tools" -name '.*.cmd' -exec sed -i "s|$seed_src/|$src/|g" {} +
# One time for the whole copy (a target a moment older than its
# prerequisite would be remade), after the checkout and before the touch.
sleep 1
t=$(date +%s)
find "$obj" -exec touch -h -d "@$t" {} +
sleep 1
while read -r f; do
	[ ! -e "$src/$f" ] || touch -h "$src/$f"
done <<<"$changed"
echo "$best"
