#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: the reliability suite's completion bound (tests/reliability/
# bounds.env, sourced by the guest cases under busybox sh) is a number for
# every variant and flavour, the reference kernels with a '-' in their
# names included: an empty bound failed every bounded case of
# iouring-hybrid's full form ("longest I/O 18771 us > bound  us").
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
env=$PB_ROOT/tests/reliability/bounds.env
for v in $PB_VARIANTS $PB_REFERENCE_VARIANTS; do
	got=""
	for f in release debug rt; do
		# busybox sh, as in the guest.
		b=$(busybox sh -c ". '$env'; bound_us '$v' '$f'" 2>&1) || fail "$v $f: bound_us failed: $b"
		[[ $b =~ ^[0-9]+$ ]] && [ "$b" -ge 5000000 ] || fail "$v $f: bound '$b' is not a number of at least 5 s"
		got+=" $f $b us"
	done
	echo "ok - $v:$got"
done
