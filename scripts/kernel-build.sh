#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build one variant's kernel: kernel-build.sh VARIANT [release|debug|kunit|rt]
# The variant's worktree holds baseline plus its series (git am), the
# config is tinyconfig + configs/guest.config (+ debug.config, or
# + kunit.config: the KUnit suites run at boot, or + rt.config:
# PREEMPT_RT with lockdep), and the
# build goes to O=<worktree>/_build[-debug] with ccache shared by all.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

variant=${1:-}
flavour=${2:-release}
[ -n "$variant" ] || die "usage: kernel-build.sh VARIANT [release|debug|kunit|rt]"
check_variant "$variant"
case $flavour in
release) fragments=("$PB_ROOT/configs/guest.config") ;;
debug) fragments=("$PB_ROOT/configs/guest.config" "$PB_ROOT/configs/debug.config") ;;
kunit) fragments=("$PB_ROOT/configs/guest.config" "$PB_ROOT/configs/kunit.config") ;;
rt) fragments=("$PB_ROOT/configs/guest.config" "$PB_ROOT/configs/rt.config") ;;
*) die "unknown flavour '$flavour' (release, debug, kunit or rt)" ;;
esac
need_tool git make gcc ccache flex bison bc sha256sum
variant_has_patches "$variant" ||
	die "variant '$variant' has no patches yet (patches-$variant/series is empty)"

pb_lock "kernel-build.sh $variant $flavour"
"$PB_ROOT/scripts/kernel-source.sh"
src=$(variant_src "$variant")
obj=$(variant_obj "$variant" "$flavour")
localversion=$(variant_localversion "$variant" "$flavour")
git_id=(-c user.name=pollbench -c user.email=pollbench@localhost)

# The worktree: baseline plus the series, re-applied when a patch changes.
mapfile -t patches < <(series_files "$variant")
series_hash=$(cat /dev/null "${patches[@]}" | sha256sum | cut -c1-16)
if [ ! -d "$src" ]; then
	mkdir -p "$(dirname "$src")"
	git -C "$SRC_REPO" worktree prune
	git -C "$SRC_REPO" worktree add -q --detach "$src" baseline
fi
stamp="$src/_series-applied"
if [ "$(cat "$stamp" 2>/dev/null)" != "$series_hash" ]; then
	rm -f "$stamp"
	git -C "$src" am --abort >/dev/null 2>&1 || true
	git -C "$src" reset -q --hard baseline
	git -C "$src" clean -q -fdx -e '_build*'
	if [ ${#patches[@]} -gt 0 ]; then
		log "applying ${#patches[@]} patches for $variant"
		git -C "$src" "${git_id[@]}" am -q --whitespace=nowarn "${patches[@]}" ||
			die "series for '$variant' does not apply on baseline (see 'git -C $src am --show-current-patch')"
	fi
	echo "$series_hash" >"$stamp"
fi
grep -qx '_build\*' "$SRC_REPO/.git/info/exclude" 2>/dev/null ||
	printf '_build*\n_series-applied\n' >>"$SRC_REPO/.git/info/exclude"

# The config: regenerated when a fragment changes.
mkdir -p "$obj"
config_hash=$(cat "${fragments[@]}" | sha256sum | cut -c1-16)
if [ "$(cat "$obj/.pollbench-config" 2>/dev/null)" != "$config_hash" ] || [ ! -f "$obj/.config" ]; then
	log "configuring $variant ($flavour)"
	make -s -C "$src" O="$obj" tinyconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${fragments[@]}" >"$obj/merge_config.log"
	make -s -C "$src" O="$obj" olddefconfig >/dev/null
	"$PB_ROOT/scripts/config-check.sh" "$obj/.config" "${fragments[@]}"
	echo "$config_hash" >"$obj/.pollbench-config"
fi

log "building $variant ($flavour) in $obj"
start=$(date +%s)
make -C "$src" O="$obj" -j"$(nproc)" CC="ccache gcc" LOCALVERSION="$localversion" \
	bzImage >"$obj/build.log" 2>&1 ||
	{ tail -n 30 "$obj/build.log" >&2; die "build of $variant ($flavour) failed; full log: $obj/build.log"; }
end=$(date +%s)
release=$(make -s -C "$src" O="$obj" LOCALVERSION="$localversion" kernelrelease)
grep -q -- "$localversion\$" <<<"$release" ||
	die "kernelrelease '$release' does not end in $localversion"

# What the results cite: written last, so it exists only for a good build.
commit=$(git -C "$src" rev-parse HEAD)
write_atomic "$obj/pollbench-build.env" <<EOT
variant=$variant
flavour=$flavour
kernel_release=$release
kernel_commit=$commit
kernel_baseline=$(git -C "$src" rev-parse baseline)
kernel_source=$SRC_ID${KSRC:+:$KSRC}
series=$(printf '%s ' "${patches[@]##*/}")
series_hash=$series_hash
config_hash=$(sha256sum "$obj/.config" | cut -c1-16)
compiler=$(gcc --version | head -n1)
build_seconds=$((end - start))
EOT
log "built $release in $((end - start)) s: $obj/arch/x86/boot/bzImage"
