# SPDX-License-Identifier: GPL-2.0
# Shared helpers for pollbench scripts. Source it; do not run it.
# shellcheck shell=bash

PB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$PB_ROOT/build}
RESULTS_DIR=${RESULTS_DIR:-$PB_ROOT/results}
PB_VARIANTS="baseline common inline idle hybrid"
# shellcheck source=scripts/pin.env
. "$PB_ROOT/scripts/pin.env"

PB_PROG=${PB_PROG:-${0##*/}}

die() {
	echo "$PB_PROG: error: $*" >&2
	exit 1
}

log() {
	echo "$PB_PROG: $*" >&2
}

need_tool() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 ||
			die "required tool '$t' not found; run 'make deps' (as root) or install it"
	done
}

# check_variant NAME: die unless NAME is a known variant.
check_variant() {
	local v
	for v in $PB_VARIANTS; do
		[ "$v" = "$1" ] && return 0
	done
	die "unknown variant '$1' (known: $PB_VARIANTS)"
}

# series_files VARIANT: print the patch files of VARIANT in apply order:
# patches-common first, then the variant's own folder, each in the order
# of its series file.
series_files() {
	case $1 in
	baseline) ;;
	common) series_of "$PB_ROOT/patches-common" ;;
	*)
		series_of "$PB_ROOT/patches-common"
		series_of "$PB_ROOT/patches-$1"
		;;
	esac
}

# series_of DIR: the patches listed in DIR/series, as paths.
series_of() {
	local dir=$1 line
	[ -f "$dir/series" ] || die "$dir/series is missing"
	while IFS= read -r line; do
		line=${line%%#*}
		line=${line//[[:space:]]/}
		[ -n "$line" ] || continue
		[ -f "$dir/$line" ] || die "$dir/series lists '$line', which does not exist"
		echo "$dir/$line"
	done <"$dir/series"
}

# variant_has_patches VARIANT: true if VARIANT is buildable now (baseline
# always; a series once its own folder lists patches).
variant_has_patches() {
	[ "$1" = baseline ] && return 0
	[ -n "$(series_of "$PB_ROOT/patches-$1")" ]
}

# Where a variant lives: a git worktree, and its O= build folder beneath
# it, so that srctree is ".." for every variant and ccache hits across them.
# KSRC=/path/to/linux builds from the user's own kernel git tree instead of
# the pinned tarball; its builds live apart from the pinned ones.
if [ -n "${KSRC:-}" ]; then
	SRC_ID=ksrc
else
	SRC_ID=pinned
fi
# shellcheck disable=SC2034 # used by the scripts that source this
SRC_REPO=$BUILD_DIR/$SRC_ID/linux
variant_src() { echo "$BUILD_DIR/$SRC_ID/variants/$1/linux"; }
variant_obj() {
	local flavour=${2:-release}
	if [ "$flavour" = release ]; then
		echo "$(variant_src "$1")/_build"
	else
		echo "$(variant_src "$1")/_build-$flavour"
	fi
}
variant_localversion() {
	local flavour=${2:-release}
	if [ "$flavour" = release ]; then
		echo "-pollbench-$1"
	else
		echo "-pollbench-$1-$flavour"
	fi
}

# Atomic write: write_atomic FILE < content
write_atomic() {
	local tmp
	tmp=$(mktemp "$1.tmp.XXXXXX")
	cat >"$tmp"
	mv -f "$tmp" "$1"
}
