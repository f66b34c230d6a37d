#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build one variant's kernel: kernel-build.sh VARIANT [release|debug|kunit|rt|kexec|hw]
# The variant's worktree holds baseline plus its series (git am), the
# config is tinyconfig + configs/guest.config (+ debug.config, or
# + kunit.config: the KUnit suites run at boot, or + rt.config:
# PREEMPT_RT with lockdep, or + kexec.config: the in-guest hardware-run
# test's kernels), and the
# build goes to O=<worktree>/_build[-debug] with ccache shared by all; a
# first build of a flavour starts from a built sibling's objects
# (kernel-seed.sh).
# hw (a real machine's kernel, make hw-bench): the config is the file
# KCONFIG_BASE (the machine's running config), trimmed by localmodconfig
# to the modules listed in KCONFIG_LSMOD (lsmod's output) if that is set,
# + configs/hw.config; the build adds the modules.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

variant=${1:-}
flavour=${2:-release}
[ -n "$variant" ] || die "usage: kernel-build.sh VARIANT [release|debug|kunit|rt|kexec|hw]"
check_variant "$variant"
case $flavour in
release) fragments=("$PB_ROOT/configs/guest.config") ;;
debug) fragments=("$PB_ROOT/configs/guest.config" "$PB_ROOT/configs/debug.config") ;;
kunit) fragments=("$PB_ROOT/configs/guest.config" "$PB_ROOT/configs/kunit.config") ;;
rt) fragments=("$PB_ROOT/configs/guest.config" "$PB_ROOT/configs/rt.config") ;;
kexec) fragments=("$PB_ROOT/configs/guest.config" "$PB_ROOT/configs/kexec.config") ;;
hw)
	fragments=("$PB_ROOT/configs/hw.config")
	[ -f "${KCONFIG_BASE:-}" ] || die "flavour hw needs KCONFIG_BASE=<the machine's kernel config>, got '${KCONFIG_BASE:-}'"
	[ -z "${KCONFIG_LSMOD:-}" ] || [ -f "$KCONFIG_LSMOD" ] || die "KCONFIG_LSMOD '$KCONFIG_LSMOD' not found"
	;;
*) die "unknown flavour '$flavour' (release, debug, kunit, rt, kexec or hw)" ;;
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
series_hash=$(series_hash "$variant")
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

config_hash=$(cat "${fragments[@]}" ${KCONFIG_BASE:+"$KCONFIG_BASE"} ${KCONFIG_LSMOD:+"$KCONFIG_LSMOD"} |
	sha256sum | cut -c1-16)

# A variant's first build of a flavour starts from a built sibling's objects.
seed=""
if [ ! -e "$obj" ] && [ "$flavour" != hw ]; then
	seed=$("$PB_ROOT/scripts/kernel-seed.sh" "$variant" "$flavour" "$config_hash")
	[ -z "$seed" ] || log "seeding $variant ($flavour) from $seed's build"
fi

# The config: regenerated when a fragment changes.
mkdir -p "$obj"
if [ "$(cat "$obj/.pollbench-config" 2>/dev/null)" != "$config_hash" ] || [ ! -f "$obj/.config" ]; then
	log "configuring $variant ($flavour)"
	if [ "$flavour" = hw ]; then
		cp "$KCONFIG_BASE" "$obj/.config"
		make -s -C "$src" O="$obj" olddefconfig >/dev/null
		[ -z "${KCONFIG_LSMOD:-}" ] ||
			make -s -C "$src" O="$obj" LSMOD="$(readlink -f "$KCONFIG_LSMOD")" localmodconfig </dev/null >/dev/null
	else
		make -s -C "$src" O="$obj" tinyconfig >/dev/null
	fi
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${fragments[@]}" >"$obj/merge_config.log"
	make -s -C "$src" O="$obj" olddefconfig >/dev/null
	"$PB_ROOT/scripts/config-check.sh" "$obj/.config" "${fragments[@]}"
	echo "$config_hash" >"$obj/.pollbench-config"
fi

log "building $variant ($flavour) in $obj"
start=$(date +%s)
targets=(bzImage)
[ "$flavour" != hw ] || targets+=(modules)
make -C "$src" O="$obj" -j"$(nproc)" CC="ccache gcc" LOCALVERSION="$localversion" \
	"${targets[@]}" >"$obj/build.log" 2>&1 ||
	{ tail -n 30 "$obj/build.log" >&2; die "build of $variant ($flavour) failed; full log: $obj/build.log"; }
end=$(date +%s)
release=$(make -s -C "$src" O="$obj" LOCALVERSION="$localversion" kernelrelease)
grep -q -- "$localversion\$" <<<"$release" ||
	die "kernelrelease '$release' does not end in $localversion"

# What the results cite: written last, so it exists only for a good build.
hw_base=""
[ "$flavour" != hw ] || hw_base=$(printf '\nconfig_base=%s\nconfig_base_sha256=%s\nconfig_lsmod=%s' "$KCONFIG_BASE" \
	"$(sha256sum <"$KCONFIG_BASE" | cut -c1-64)" "${KCONFIG_LSMOD:-}")
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
seeded_from=$seed
build_seconds=$((end - start))$hw_base
EOT
log "built $release in $((end - start)) s: $obj/arch/x86/boot/bzImage"
