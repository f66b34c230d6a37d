# SPDX-License-Identifier: GPL-2.0
# Shared helpers for pollbench scripts. Source it; do not run it.
# shellcheck shell=bash

PB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$PB_ROOT/build}
RESULTS_DIR=${RESULTS_DIR:-$PB_ROOT/results}
PB_VARIANTS="baseline common inline idle hybrid"
# Reference kernels the benchmarks compare against, not designs: the tests
# that check every design leave them out. baseline-nullb is the pinned
# kernel with only the base's null_blk fix (poll queues honour
# completion_nsec), the interrupt reference on null_blk devices;
# iouring-hybrid is baseline-nullb with upstream's io_uring hybrid IOPOLL
# (6.13) backported, the reference arm for what upstream did later.
PB_REFERENCE_VARIANTS="baseline-nullb iouring-hybrid"
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
	is_variant "$1" || die "unknown variant '$1' (known: $PB_VARIANTS $PB_REFERENCE_VARIANTS)"
}

# is_variant NAME: true if NAME is a kernel variant (design or reference).
is_variant() {
	local v
	for v in $PB_VARIANTS $PB_REFERENCE_VARIANTS; do
		[ "$v" = "$1" ] && return 0
	done
	return 1
}

# What in a console log turns a boot into a failure, never data: panics,
# oopses, warnings, lockups, hangs, KASAN, lockdep and RCU reports, and
# sleeping in atomic context (an extended regex for grep -E and awk).
# shellcheck disable=SC2034 # used by the scripts that source this
PB_SPLAT_RE='Kernel panic|BUG:|Oops|WARNING:|soft lockup|blocked for more than|KASAN|possible (circular|recursive) locking|inconsistent lock state|sleeping function called|suspicious RCU usage'

# The kernel command line every guest boot starts from (scripts/guest-run.sh,
# scripts/lava-jobs.sh). blk_poll_stats=1: the kernels count their polls only
# when asked, and the harness reads those counts (a later blk_poll_stats=0
# appended by a label wins).
# shellcheck disable=SC2034 # used by the scripts that source this
PB_GUEST_CMDLINE="console=ttyS0 nvme.poll_queues=1 nvme.use_dbbuf=0 null_blk.nr_devices=0 blk_poll_stats=1 panic=-1"

# polling_variant V: true if V's kernel polls synchronous RWF_HIPRI I/O
# (baseline, baseline-nullb and iouring-hybrid are upstream's 6.12 there;
# common is the base alone, its hooks unused).
polling_variant() {
	case $1 in inline | idle | hybrid) return 0 ;; *) return 1 ;; esac
}

# The timing models a guest can run on (scripts/guest-run.sh --timing).
PB_TIMINGS="icount realtime"

# check_timing NAME: die unless NAME is a known timing model.
check_timing() {
	local t
	for t in $PB_TIMINGS; do
		[ "$t" = "$1" ] && return 0
	done
	die "unknown timing '$1' (known: $PB_TIMINGS)"
}

# series_files VARIANT: print the patch files of VARIANT in apply order:
# patches-harness (the test-only hooks every kernel carries, inert unless
# a boot turns them on), then patches-common, then the variant's own
# folder, each in the order of its series file. A reference variant
# applies the harness and its own folder.
series_files() {
	[ ! -f "$PB_ROOT/patches-harness/series" ] || series_of "$PB_ROOT/patches-harness"
	case $1 in
	baseline) ;;
	common) series_of "$PB_ROOT/patches-common" ;;
	baseline-nullb) series_of "$PB_ROOT/patches-$1" ;;
	iouring-hybrid)
		series_of "$PB_ROOT/patches-baseline-nullb"
		series_of "$PB_ROOT/patches-$1"
		;;
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
# prerequisite_patches VARIANT: what VARIANT applies before its own folder,
# in order, one "ID PATH" line each, ID being the stable patch-id (git
# patch-id --stable, as b4 computes it) that its cover letter's
# prerequisite-patch-id lines name.
prerequisite_patches() {
	local own=$PB_ROOT/patches-$1/ p
	while read -r p; do
		case $p in "$own"*) continue ;; esac
		printf '%s %s\n' "$(git patch-id --stable <"$p" | cut -d' ' -f1)" "$p"
	done < <(series_files "$1")
}

# series_hash VARIANT: what identifies a variant's patches, on any machine
# (the worktree's commits carry the date they were applied).
series_hash() {
	local patches
	mapfile -t patches < <(series_files "$1")
	cat /dev/null "${patches[@]}" | sha256sum | cut -c1-16
}

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

# lava_python: print the python3 that imports lava-common's job schema
# (Debian's /usr/bin/python3, when another python3 comes first in PATH);
# fails if none does.
lava_python() {
	local p
	for p in python3 /usr/bin/python3; do
		"$p" -c 'import lava_common.schemas, yaml' 2>/dev/null && { echo "$p"; return 0; }
	done
	return 1
}

# Atomic write: write_atomic FILE < content
write_atomic() {
	local tmp
	tmp=$(mktemp "$1.tmp.XXXXXX")
	cat >"$tmp"
	mv -f "$tmp" "$1"
}

# pb_lock WHAT: take the tree's lock for a build or a run, or die naming
# who holds it. Two kernel builds or bench runs in one tree corrupt each
# other (fixdep: error opening file). The lock is held until this process
# and its children exit; nested scripts see PB_LOCK_HELD and go on.
pb_lock() {
	[ -z "${PB_LOCK_HELD:-}" ] || return 0
	mkdir -p "$BUILD_DIR"
	exec 9>>"$BUILD_DIR/pollbench.lock"
	if ! flock -n 9; then
		die "another pollbench job holds $BUILD_DIR/pollbench.lock: $(cat "$BUILD_DIR/pollbench.lock.holder" 2>/dev/null || echo unknown); wait for it to end"
	fi
	echo "pid $$ since $(date -u +%H:%M:%SZ): $1" >"$BUILD_DIR/pollbench.lock.holder"
	export PB_LOCK_HELD=$$
}
