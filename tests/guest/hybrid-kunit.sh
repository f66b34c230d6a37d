#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: the hybrid polling estimator's KUnit suite (block/blk-poll-test.c)
# passes: the hybrid kernel's kunit flavour (configs/kunit.config on top of
# the release config) is built and booted, and the suite's KTAP report on
# the console has one "ok" per KUNIT_CASE in the source, no "not ok", and
# an "ok" for the suite.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
variant_has_patches hybrid || skip "the hybrid series has no patches"
suite=blk-poll-hybrid

# The kunit flavour is a separate O= build: CONFIG_KUNIT changes autoconf.h,
# so the first one rebuilds every object (see docs/hybrid.md for its cost).
start=$(date +%s)
"$PB_ROOT/scripts/kernel-build.sh" hybrid kunit || fail "the hybrid kunit kernel does not build"
echo "kunit kernel built (or up to date) in $(($(date +%s) - start)) s"

guest_job hybrid --flavour kunit <<'EOT' || fail "boot failed: $(cat "$TEST_DIR/boot/status")"
exit 0
EOT

want=$(grep -c 'KUNIT_CASE(' "$(variant_src hybrid)/block/blk-poll-test.c")
[ "$want" -gt 0 ] || fail "no KUNIT_CASE in block/blk-poll-test.c"
# The suite's KTAP lines, console timestamps stripped, from its subtest
# header to its own result line.
ktap=$(sed -E 's/\r$//; s/^\[ *[0-9]+\.[0-9]+\] //' "$TEST_DIR/boot/console.log" |
	awk -v s="$suite" '$0 ~ "# Subtest: " s "$" { on = 1 } on { print }
		on && $0 ~ "^(not )?ok [0-9]+ " s "$" { exit }')
[ -n "$ktap" ] || fail "no KTAP report of suite $suite on the console"
grep -E '^ +# ' <<<"$ktap" || true
plan=$(grep -E '^ +1\.\.[0-9]+$' <<<"$ktap" | tr -d ' ') || true
[ "$plan" = "1..$want" ] || fail "suite plan '$plan', but the source has $want cases"
bad=$(grep -E '^ +not ok ' <<<"$ktap") || true
[ -z "$bad" ] || fail "failed cases: $bad"
ok=$(grep -cE '^ +ok [0-9]+ blk_hp_test_' <<<"$ktap") || true
[ "$ok" = "$want" ] || fail "$ok cases ok, $want expected"
grep -qE "^ok [0-9]+ $suite\$" <<<"$ktap" || fail "suite result: $(tail -n1 <<<"$ktap")"
echo "ok - $suite: $ok/$want cases ok"
