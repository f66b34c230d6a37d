#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: every series (and the iouring-hybrid backport)
# passes the kernel's own review checks: each
# patch has a Signed-off-by and is checkpatch --strict clean, scripts/kernel-doc
# finds no new warning in the files it touches, and the .c
# files a series touches build with no new W=1 warning and no new sparse
# warning against the same files in the tree the series applies on.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
command -v sparse >/dev/null || skip "sparse not installed"
mkdir -p "$TEST_DIR"
checked=0

# warnings VARIANT KIND FILES...: the normalised warnings ("file: message")
# that W=1 (KIND=w1) or sparse (KIND=sparse) reports for FILES' objects in
# VARIANT's release tree (with its LOCALVERSION: another one would rewrite
# utsrelease.h and relink the kernel).
warnings() {
	local src obj lv kind=$2 args log
	src=$(variant_src "$1") obj=$(variant_obj "$1") lv=$(variant_localversion "$1")
	shift 2
	case $kind in
	w1) args=(W=1) ;;
	sparse) args=(C=2 CHECK=sparse) ;;
	esac
	log=$TEST_DIR/make-$kind.log
	make -s -C "$src" O="$obj" -j"$(nproc)" CC="ccache gcc" LOCALVERSION="$lv" "${args[@]}" \
		"${@/%.c/.o}" >"$log" 2>&1 || fail "make ${args[*]} ${*/%.c/.o} in $src failed: $(tail -n 5 "$log")"
	sed -nE 's/^([^:]+):[0-9]+:[0-9]+: (warning|error): (.*)$/\1: \3/p' "$log" |
		sed 's|^\.\./||' | LC_ALL=C sort -u
}

# keep_objects OBJ TAR FILES...: keep in TAR, with their times, what a
# W=1 or sparse build of FILES rewrites under OBJ: their objects and the
# files kbuild's prepare step compiles with the same flags, each with its
# .cmd file ("tar -C OBJ -xpf TAR" puts them back).
keep_objects() {
	local obj=$1 tar=$2 o
	shift 2
	for o in "${@/%.c/.o}" scripts/mod/empty.o scripts/mod/devicetable-offsets.s \
		kernel/bounds.s arch/x86/kernel/asm-offsets.s; do
		[ -f "$obj/$o" ] || continue
		echo "$o"
		[ ! -f "$obj/$(dirname "$o")/.$(basename "$o").cmd" ] || echo "$(dirname "$o")/.$(basename "$o").cmd"
	done | tar -C "$obj" -cf "$tar" -T -
}

# includer SRC OBJ FILE: the built .c file in FILE's folder that #includes
# it, or nothing.
includer() {
	local dir base c
	dir=$(dirname "$3") base=$(basename "$3")
	for c in "$1/$dir"/*.c; do
		[ -f "$2/$dir/$(basename "${c%.c}").o" ] || continue
		grep -qE "^#include \"$base\"" "$c" && { echo "$dir/$(basename "$c")"; return 0; }
	done
	return 0
}

# kdoc SRC FILE: scripts/kernel-doc's warnings for FILE in the tree SRC,
# without line numbers, sorted.
kdoc() {
	(cd "$1" && ./scripts/kernel-doc -none "$2" 2>&1) |
		sed -E 's/:[0-9]+: /: /' | LC_ALL=C sort -u
}

# The designs, and iouring-hybrid (upstream's backport, a reference kernel).
for v in $(built_variants) iouring-hybrid; do
	[ "$v" = baseline ] && continue
	src=$(variant_src "$v")
	obj=$(variant_obj "$v")
	[ -f "$obj/vmlinux" ] || fail "$v is not built"
	# A variant is compared with what it applies on: common with baseline,
	# the designs with common.
	if [ "$v" = common ]; then
		range=baseline..HEAD ref=baseline
	elif [ "$v" = iouring-hybrid ]; then
		range=HEAD~$(series_of "$PB_ROOT/patches-$v" | wc -l)..HEAD ref=baseline-nullb
	else
		range=HEAD~$(series_of "$PB_ROOT/patches-$v" | wc -l)..HEAD ref=common
	fi
	ref_src=$(variant_src "$ref")
	ref_obj=$(variant_obj "$ref")
	[ -f "$ref_obj/vmlinux" ] || fail "$ref is not built"
	# Signed-off-by on every patch of the series.
	for c in $(git -C "$src" rev-list "$range"); do
		grep -q '^Signed-off-by: ' <<<"$(git -C "$src" log -1 --format=%B "$c")" ||
			fail "$v: $(git -C "$src" log -1 --format='%h %s' "$c") has no Signed-off-by"
	done
	(cd "$src" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict --no-summary --terse -g "$range") >"$TEST_DIR/$v.checkpatch" 2>&1 ||
		fail "$v: checkpatch --strict: $(cat "$TEST_DIR/$v.checkpatch")"
	# kernel-doc: no new warning in the .c and .h files the series touches
	# (line numbers dropped, so that moved text compares equal).
	kdoc_new=""
	while read -r f; do
		[ -f "$src/$f" ] || continue
		kdoc "$src" "$f" >"$TEST_DIR/$v.kdoc.new"
		: >"$TEST_DIR/$v.kdoc.base"
		[ ! -f "$ref_src/$f" ] || kdoc "$ref_src" "$f" >"$TEST_DIR/$v.kdoc.base"
		kdoc_new+=$(comm -13 "$TEST_DIR/$v.kdoc.base" "$TEST_DIR/$v.kdoc.new")
	done < <(git -C "$src" diff --name-only "$range" -- '*.c' '*.h')
	[ -z "$kdoc_new" ] || fail "$v: new kernel-doc warnings: $kdoc_new"
	# Compiled .c files the series touches that the reference has too. A
	# file that is only #included (kernel/sched/idle.c by build_policy.c,
	# a KUnit test by its subject) is checked through its includer.
	mapfile -t files < <(git -C "$src" diff --name-only "$range" -- '*.c' |
		while read -r f; do
			[ -f "$obj/${f%.c}.o" ] || f=$(includer "$src" "$obj" "$f")
			[ -n "$f" ] && [ -f "$ref_src/$f" ] && echo "$f"
		done | LC_ALL=C sort -u)
	[ ${#files[@]} -gt 0 ] || { echo "ok - $v: checkpatch clean, no .c file to compile-check"; continue; }
	# The checks rebuild these objects with other flags: keep the normal
	# build's copies (with their times) and put them back afterwards, so
	# that the trees stay built and nothing is relinked.
	keep_objects "$ref_obj" "$TEST_DIR/$v.ref.objects.tar" "${files[@]}"
	keep_objects "$obj" "$TEST_DIR/$v.new.objects.tar" "${files[@]}"
	for kind in w1 sparse; do
		warnings "$ref" "$kind" "${files[@]}" >"$TEST_DIR/$v.$kind.base"
		warnings "$v" "$kind" "${files[@]}" >"$TEST_DIR/$v.$kind.new"
		new=$(comm -13 "$TEST_DIR/$v.$kind.base" "$TEST_DIR/$v.$kind.new")
		[ -z "$new" ] || fail "$v: new $kind warnings in ${files[*]}:
$new"
	done
	tar -C "$ref_obj" -xpf "$TEST_DIR/$v.ref.objects.tar"
	tar -C "$obj" -xpf "$TEST_DIR/$v.new.objects.tar"
	echo "ok - $v ($range, against $ref): Signed-off-by, checkpatch --strict clean; no new W=1 or sparse warning in ${#files[@]} files: ${files[*]}"
	checked=$((checked + 1))
done
[ $checked -gt 0 ] || skip "no series with patches yet"
