#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Commit-ready copy of a run: data-add.sh RUN_DIR NAME
# Writes data/NAME/: raw.tar.xz (every raw file of the run, no derived
# one: fixed owner, mode and mtime, sorted, so the same run packs to the
# same bytes), run.json, and the analysis tool's report.md, answer.txt,
# summary.json, summary.csv (and scale.txt) rebuilt from the unpacked
# archive alone;
# fails unless that summary.json is byte-identical to one from RUN_DIR.
# data/NAME/README.md (what the run is for, where it ran) is left to write.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
run=${1:-} name=${2:-}
[ -n "$name" ] || die "usage: data-add.sh RUN_DIR NAME"
[ -f "$run/run.json" ] || die "$run is not a run (no run.json)"
[[ $name =~ ^[a-z0-9][a-z0-9.-]*$ ]] || die "NAME must be lower-case letters, digits, '.' and '-', got '$name'"
dest=$PB_ROOT/data/$name
[ ! -e "$dest/raw.tar.xz" ] || die "$dest/raw.tar.xz exists: data/ keeps runs, pick a new NAME"
need_tool tar xz
report=$PB_ROOT/analysis/pollbench-report
[ -x "$report" ] || die "build the analysis tool first: make analysis"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$dest"
# The derived files are left out: the archive holds what the guests wrote.
(cd "$run" && find . -mindepth 1 \( -name report.md -o -name answer.txt -o -name scale.txt -o -name 'summary.*' \
	-o -path ./plots -o -path './plots/*' \) -prune -o -print | LC_ALL=C sort) | sed 's|^\./||' >"$tmp/list"
tar -C "$run" --no-recursion --owner=0 --group=0 --numeric-owner --mtime=@0 \
	-cf - -T "$tmp/list" | xz -9e -T1 >"$dest/raw.tar.xz"
# Unpacked under the run's own folder name, which the answer names.
u=$tmp/u/$(basename "$(realpath "$run")")
mkdir -p "$u"
tar -xJf "$dest/raw.tar.xz" -C "$u"
"$report" "$u" --no-plots >"$tmp/report.log" 2>&1 || die "the report of the unpacked archive failed: $(tail -n 3 "$tmp/report.log")"
"$report" "$run" --out "$tmp/orig" --no-plots >/dev/null 2>&1 || die "the report of $run failed"
cmp -s "$u/summary.json" "$tmp/orig/summary.json" ||
	die "summary.json from the archive differs from the one from $run"
cp "$run/run.json" "$u/report.md" "$u/answer.txt" "$u/summary.json" "$u/summary.csv" "$dest/"
[ ! -f "$u/scale.txt" ] || cp "$u/scale.txt" "$dest/"
log "data/$name: raw.tar.xz $(du -h "$dest/raw.tar.xz" | cut -f1), summary.json rebuilt byte-identical from it; write data/$name/README.md"
