#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: every run that an answer block of the README or
# docs/debate.md quotes (<!-- answer: data/RUN[/FILE] -->) ran on the
# kernels the series now build: for each kernel variant in the run, the
# series_hash its cells' meta.json recorded is the one scripts/lib.sh's
# series_hash gives for the committed patches. A series changed since the
# run (a new version, a rebase on a new base or harness) makes the quoted
# figures those of kernels nobody can build any more: rerun it. A run
# whose recorded hash differs is reported.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR"

# recorded ROOT RUN: "variant series_hash" for each kernel variant of the
# run ROOT/RUN, from the first meta.json of each of its labels in raw.tar.xz.
recorded() {
	local tar=$1/$2/raw.tar.xz list
	[ -f "$tar" ] || fail "$2 has no raw.tar.xz to read its kernels from"
	list=$TEST_DIR/$(basename "$2").list
	tar -tJf "$tar" | grep '/1/meta\.json$' | awk -F/ '!seen[$(NF - 3)]++' >"$list"
	[ -s "$list" ] || fail "$2: no meta.json in raw.tar.xz"
	tar -xJOf "$tar" -T "$list" |
		jq -r 'select(.kernel_variant != null) | "\(.kernel_variant) \(.series_hash)"' |
		LC_ALL=C sort -u
}

# stale ROOT DOC...: one line per kernel variant of a quoted run whose
# series changed since; "# RUN: N" per run checked.
stale() {
	local root=$1 r v h n
	shift
	for r in $(sed -n 's|^<!-- answer: \(data/[^/ ]*\).* -->$|\1|p' "$@" | LC_ALL=C sort -u); do
		n=0
		while read -r v h; do
			n=$((n + 1))
			[ "$h" = "$(series_hash "$v")" ] ||
				echo "$r: $v ran with series $h, the committed patches give $(series_hash "$v")"
		done < <(recorded "$root" "$r")
		[ $n -gt 0 ] || fail "$r: no kernel variant recorded"
		echo "# $r: $n kernel variants"
	done
}

out=$(stale "$PB_ROOT" "$PB_ROOT/README.md" "$PB_ROOT/docs/debate.md")
grep '^#' <<<"$out" || fail "no answer block in README.md or docs/debate.md"
bad=$(grep -v '^#' <<<"$out" || true)
[ -z "$bad" ] || fail "answer blocks quote runs of kernels the series no longer build:
$bad
rerun them and update the blocks (scripts/answer-update.sh)"
echo "ok - the runs the answer blocks quote ran on the kernels the committed series build"

# A run of other kernels is reported.
mkdir -p "$TEST_DIR/root/data/old-run" "$TEST_DIR/tree/inline/cell/1"
printf '{"kernel_variant": "inline", "series_hash": "0123456789abcdef"}\n' >"$TEST_DIR/tree/inline/cell/1/meta.json"
tar -C "$TEST_DIR/tree" -cJf "$TEST_DIR/root/data/old-run/raw.tar.xz" inline
printf '<!-- answer: data/old-run -->\n<!-- end answer -->\n' >"$TEST_DIR/doc.md"
out=$(stale "$TEST_DIR/root" "$TEST_DIR/doc.md")
grep -q '^data/old-run: inline ran with series 0123456789abcdef' <<<"$out" ||
	fail "a run of an old inline series was not reported: $out"
echo "ok - a quoted run of an older series is reported"
