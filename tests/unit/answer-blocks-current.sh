#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: every answer table that the README and docs/debate.md
# quote (<!-- answer: data/RUN --> blocks) is the run's own answer.txt,
# as analysis/pollbench-report wrote it, and scripts/answer-update.sh
# --check notices a number changed by hand or a run that does not exist.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR"
docs=("$PB_ROOT/README.md" "$PB_ROOT/docs/debate.md")
n=$(cat "${docs[@]}" | grep -c '^<!-- answer: ' || true)
[ "$n" -gt 0 ] || fail "no answer block in ${docs[*]}"
"$PB_ROOT/scripts/answer-update.sh" --check "${docs[@]}" || fail "an answer block is stale"
echo "ok - $n answer blocks match their runs' answer.txt"
# A number edited by hand.
cp "$PB_ROOT/README.md" "$TEST_DIR/README.md"
sed -i '0,/ref  /s/[0-9][0-9]*\.[0-9][0-9]  *ref/99.99     ref/' "$TEST_DIR/README.md"
! cmp -s "$TEST_DIR/README.md" "$PB_ROOT/README.md" || fail "the edit did not change the copy"
expect_fail "a number changed by hand" "differs from its run's answer.txt" \
	"$PB_ROOT/scripts/answer-update.sh" --check "$TEST_DIR/README.md"
printf '<!-- answer: data/no-such-run -->\n<!-- end answer -->\n' >"$TEST_DIR/bad.md"
expect_fail "a run that does not exist" "no .*data/no-such-run/answer.txt" \
	"$PB_ROOT/scripts/answer-update.sh" --check "$TEST_DIR/bad.md"
