#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: docs/reliability.md merges several runs; each row of its
# "Volumes and time" table must name the series hash and the run its cases
# came from, a row of another series than the committed one marked **old**;
# the kernel list names the kernels of the rows shown (rt ones formatted as
# release and debug ones), not superseded ones; and the form the header
# states and the total time are those of the rows shown.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
# mkrun NAME MODE ROWS...: a results folder as scripts/reliability.sh leaves
# it; each ROW is "variant flavour commit series-hash".
mkrun() {
	local name=$1 mode=$2 v f k h
	shift 2
	mkdir -p "$d/$name"
	printf 'id=%s\nmode=%s\nsoak_seconds=600\ncases=boot integrity\n' "$name" "$mode" >"$d/$name/meta.txt"
	printf 'start_utc=2026-12-06T00:00:00Z\n' >>"$d/$name/meta.txt"
	printf 'variant\tflavour\tcase\tverdict\treason\tseconds\tcounts\n' >"$d/$name/results.tsv"
	for row in "$@"; do
		read -r v f k h <<<"$row"
		echo "${v}_${f}_kernel_commit=$k" >>"$d/$name/meta.txt"
		mkdir -p "$d/$name/$v-$f"
		printf 'variant=%s\nflavour=%s\nkernel_commit=%s\nseries_hash=%s\n' "$v" "$f" "$k" "$h" >"$d/$name/$v-$f/boot.env"
		printf '%s\t%s\tintegrity\tpass\t\t60\tmib_verified=2560\n' "$v" "$f" >>"$d/$name/results.tsv"
		printf '%s\t%s\tboot\tpass\t\t0\t\n' "$v" "$f" >>"$d/$name/results.tsv"
	done
	echo "end_utc=2026-12-06T00:10:00Z" >>"$d/$name/meta.txt"
}
now_idle=$(series_hash idle)
now_nullb=$(series_hash baseline-nullb)
mkrun old full "idle release aaaaaaaaaaaa1111 0123456789abcdef" "hybrid rt bbbbbbbbbbbb2222 fedcba9876543210"
mkrun new full "idle release cccccccccccc3333 $now_idle" "baseline-nullb rt dddddddddddd4444 $now_nullb"
out=$("$PB_ROOT/tests/reliability/report.sh" "$d/old" "$d/new")
row() { grep -m1 "^| $1 | " <<<"$out" || fail "no volumes row for $1"; }
row "idle (release)" | grep -qF "| $now_idle (new) |" ||
	fail "idle's row should name the later run's series only, as current: $(row "idle (release)")"
row "hybrid (rt)" | grep -qF '| **old** fedcba9876543210 (old) |' ||
	fail "hybrid rt's row should name its run and be marked old: $(row "hybrid (rt)")"
row "baseline-nullb (rt)" | grep -qF "| $now_nullb (new) |" ||
	fail "a variant with a '-' should match its series: $(row "baseline-nullb (rt)")"
grep -qx '  - baseline-nullb (rt): dddddddddddd4444 (new)' <<<"$out" ||
	fail "the kernel list does not format rt kernels: $(grep -m3 '_kernel_commit=\|(rt):' <<<"$out")"
grep -qx '  - idle (release): cccccccccccc3333 (new)' <<<"$out" ||
	fail "the kernel list should name idle's shown kernel: $(grep '^  - ' <<<"$out")"
! grep -q 'aaaaaaaaaaaa1111' <<<"$out" ||
	fail "the kernel list names idle's superseded kernel: $(grep '^  - ' <<<"$out")"
grep -qF '**Every row of this table comes from the full form**' <<<"$out" ||
	fail "two full runs should make a full-form table: $(sed -n 3,8p <<<"$out")"
grep -qxF 'The cases of these 3 kernels took 0.1 hours of guest time (release 1 min, rt 2 min), boots and builds aside.' <<<"$out" ||
	fail "the total should sum the rows shown (60 s each), not superseded ones: $(grep 'guest time (' <<<"$out")"

# A quick run whose rows are all superseded leaves the table full-form; one
# whose row is still shown makes it mixed, naming that run.
mkrun early quick "idle release eeeeeeeeeeee5555 $now_idle"
out=$("$PB_ROOT/tests/reliability/report.sh" "$d/early" "$d/old" "$d/new")
grep -qF '**Every row of this table comes from the full form**' <<<"$out" ||
	fail "a superseded quick run should not make the table mixed: $(sed -n 3,8p <<<"$out")"
mkrun late quick "inline release ffffffffffff6666 $(series_hash inline)"
out=$("$PB_ROOT/tests/reliability/report.sh" "$d/old" "$d/new" "$d/late")
grep -qF '**Forms are mixed in this table**: the rows of `late` come from the' <<<"$out" ||
	fail "a shown quick row should make the table mixed, naming its run: $(sed -n 3,8p <<<"$out")"
echo "ok - volumes rows name series and run, old ones marked; kernels and form from the rows shown"
