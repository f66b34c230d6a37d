#!/bin/bash
# run.sh REP DEVICES RT
set -eu
d=/tmp/hyb/sweep/r$1; rm -rf $d; mkdir -p $d/share
{ echo "DEVICES='$2'"; echo "RT=$3"; cat /tmp/hyb/sweep/job.sh; } > $d/share/job.sh
cp /work/main/build/pinned/variants/hybrid/linux/_build/arch/x86/boot/bzImage $d/bzImage
/tmp/hyb/boot.sh $d/bzImage $d
