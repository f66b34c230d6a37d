#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: a new variant's build is seeded only from a sibling whose
# build is current and has the same config, and the seeded folder is one
# make rebuilds correctly: every source either tree changes is newer than
# every copied object (an uncommitted change too), every other source
# older, the host tools' recorded
# paths name the new tree, the sibling's build record is not copied, and
# its config is kept unless a Kconfig file differs.
# Checked on small git trees standing in for the kernel's.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
rm -rf "$TEST_DIR"
export BUILD_DIR=$TEST_DIR/build
unset KSRC
repo=$BUILD_DIR/pinned/linux
git_q() { git -c user.name=t -c user.email=t@t "$@"; }
mkdir -p "$repo"
git_q -C "$repo" init -q -b baseline
printf 'int a;\n' >"$repo/a.c"
printf 'int b;\n' >"$repo/b.c"
printf 'int d;\n' >"$repo/d.c"
printf '#define C 1\n' >"$repo/c.h"
printf 'config C\n\tbool "c"\n' >"$repo/Kconfig"
git_q -C "$repo" add . && git_q -C "$repo" commit -q -m baseline

# variant_tree VARIANT FILE: a worktree of VARIANT at baseline plus a
# commit changing FILE, as kernel-build.sh's git am leaves it.
variant_tree() {
	local s
	s=$(variant_src "$1")
	git_q -C "$repo" worktree add -q --detach "$s" baseline
	echo "/* $1 */" >>"$s/$2"
	git_q -C "$s" commit -q -a -m "$1"
	echo "series-$1" >"$s/_series-applied"
}
# built VARIANT CONFIG-HASH SERIES-HASH: a finished build record in its O=.
built() {
	local s o
	s=$(variant_src "$1") o=$(variant_obj "$1")
	mkdir -p "$o/arch/x86/boot" "$o/tools/objtool"
	echo "$2" >"$o/.pollbench-config"
	touch "$o/arch/x86/boot/bzImage" "$o/a.o" "$o/b.o"
	echo "cmd_$s/_build/tools/objtool/check.o := gcc -I$s/tools/include" >"$o/tools/objtool/.check.o.cmd"
	printf 'series_hash=%s\nkernel_commit=%s\n' "$3" "$(git -C "$s" rev-parse HEAD)" >"$o/pollbench-build.env"
}
variant_tree common b.c && built common cfg series-common
variant_tree idle b.c && built idle other-cfg series-idle
variant_tree hybrid a.c && built hybrid cfg stale-series
sleep 1
variant_tree inline c.h
echo "/* not committed */" >>"$(variant_src inline)/d.c"

seed=$(PB_BUILD_SEED=0 "$PB_ROOT/scripts/kernel-seed.sh" inline release cfg)
[ -z "$seed" ] && [ ! -e "$(variant_obj inline)" ] || fail "PB_BUILD_SEED=0 still seeded ($seed)"
seed=$("$PB_ROOT/scripts/kernel-seed.sh" inline release cfg)
[ "$seed" = common ] ||
	fail "seeded from '$seed', expected common (idle has another config, hybrid a stale build)"
echo "ok - seeded from common; idle (other config) and hybrid (stale build) passed over"

src=$(variant_src inline) obj=$(variant_obj inline)
[ ! -e "$obj/pollbench-build.env" ] || fail "the sibling's build record was copied"
[ "$(cat "$obj/.pollbench-config" 2>/dev/null)" = cfg ] ||
	fail "no Kconfig file differs, yet the sibling's config stamp was not kept"
grep -q "cmd_$src/_build/tools/objtool/check.o := gcc -I$src/tools/include" "$obj/tools/objtool/.check.o.cmd" ||
	fail "objtool's recorded paths still name the sibling: $(cat "$obj/tools/objtool/.check.o.cmd")"
newest_obj=$(find "$obj" -type f -printf '%T@\n' | sort -n | tail -n1)
oldest_obj=$(find "$obj" -type f -printf '%T@\n' | sort -n | head -n1)
mtime() { stat -c %.9Y "$src/$1"; }
for f in b.c c.h d.c; do
	awk -v s="$(mtime $f)" -v o="$newest_obj" 'BEGIN { exit !(s > o) }' ||
		fail "$f (changed by inline, committed or not, or by common) is not newer than the copied objects: make would not rebuild it"
done
awk -v s="$(mtime a.c)" -v o="$oldest_obj" 'BEGIN { exit !(s < o) }' ||
	fail "a.c (the same in both trees) is not older than the copied objects: make would rebuild it"
echo "ok - changed sources newer than every copied object, the shared one older, objtool paths renamed"

expect_fail "a second seed into an existing build folder" "exists; a seed goes only into a new build folder" \
	"$PB_ROOT/scripts/kernel-seed.sh" inline release cfg

variant_tree baseline-nullb Kconfig
"$PB_ROOT/scripts/kernel-seed.sh" baseline-nullb release cfg >/dev/null
[ -d "$(variant_obj baseline-nullb)" ] && [ ! -e "$(variant_obj baseline-nullb)/.pollbench-config" ] ||
	fail "a tree whose Kconfig differs kept the sibling's config stamp: it would not be configured again"
echo "ok - a changed Kconfig file drops the copied config stamp"
