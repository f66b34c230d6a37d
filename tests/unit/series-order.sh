#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: a variant's series is patches-harness, patches-common, then its own folder, in
# the order of each series file, '#' comments ignored; a series file naming
# a missing patch is an error that names it.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR"/patches-{common,inline,idle,hybrid}
real_root=$PB_ROOT
PB_ROOT=$TEST_DIR
printf '# base\n0002-b.patch\n0001-a.patch  # out of name order on purpose\n' >"$TEST_DIR/patches-common/series"
printf '0001-x.patch\n' >"$TEST_DIR/patches-inline/series"
printf '# nothing yet\n' >"$TEST_DIR/patches-idle/series"
printf '0001-gone.patch\n' >"$TEST_DIR/patches-hybrid/series"
touch "$TEST_DIR"/patches-common/000{1-a,2-b}.patch "$TEST_DIR/patches-inline/0001-x.patch"
got=$(series_files inline | sed "s|$TEST_DIR/||" | tr '\n' ' ')
[ "$got" = "patches-common/0002-b.patch patches-common/0001-a.patch patches-inline/0001-x.patch " ] ||
	fail "inline series: '$got'"
[ -z "$(series_files baseline)" ] || fail "baseline has patches"
[ "$(series_files common | wc -l)" = 2 ] || fail "common series"
variant_has_patches idle && fail "idle has only a comment but counts as having patches"
variant_has_patches inline || fail "inline has patches but does not count"
# The harness series goes first under every variant, baseline included.
mkdir -p "$TEST_DIR/patches-harness"
printf '0001-h.patch\n' >"$TEST_DIR/patches-harness/series"
touch "$TEST_DIR/patches-harness/0001-h.patch"
[ "$(series_files baseline | sed "s|$TEST_DIR/||")" = patches-harness/0001-h.patch ] || fail "baseline lacks the harness"
[ "$(series_files inline | head -n1 | sed "s|$TEST_DIR/||")" = patches-harness/0001-h.patch ] || fail "inline: harness not first"
[ "$(series_files inline | wc -l)" = 4 ] || fail "inline with harness: $(series_files inline | wc -l) patches"
expect_fail "missing patch" "lists '0001-gone.patch', which does not exist" bash -c \
	". '$real_root/scripts/lib.sh'; PB_ROOT='$TEST_DIR'; series_files hybrid"
echo "ok"
