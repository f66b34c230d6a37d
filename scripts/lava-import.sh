#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Import finished pollbench LAVA jobs into results/<run-id>/, laid out as
# bench.sh lays out a run, for analysis/ (make report RUN=results/<run-id>):
#   lava-import.sh [--host WORKER] JOB.yaml LOG [JOB.yaml LOG]...
# JOB.yaml: a job scripts/lava-jobs.sh wrote (jobs/<n>-<label>-r<rep>.yaml);
# LOG: that job's log, LAVA's YAML records one a line: lava-run's standard
# error, or a server's (`lavacli jobs logs --raw <id> >LOG`), or a folder
# holding it as output.yaml (lava-smoke.sh's lava-run/). --host: the
# worker that ran them, for the provenance (LAVA's log does not say).
# Each frame the guest printed (scripts/lava-guest.sh) must check out;
# a cell whose test case passed lands in <label>/<cell>/<rep>/ with its
# meta.json, the console in boots/<boot-id>/console.log; an incomplete
# job or a failed job/kernel-log test case is a failed boot, kept under
# boots/, never data. Bad input (no such log, a frame that does not check
# out, a job that is not pollbench's, another run's job, a log imported
# before) stops it with the reason and nothing written. The rest is
# scripts/lava-import.py's.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

host=""
while [ $# -gt 0 ]; do
	case $1 in
	--host) host=$2; shift 2 ;;
	-*) die "unknown option '$1' (see the header of $0)" ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || die "usage: lava-import.sh [--host WORKER] JOB.yaml LOG [JOB.yaml LOG]..."
[ $(($# % 2)) = 0 ] || die "give each job definition with its log: JOB.yaml LOG [JOB.yaml LOG]..."
for f in "$@"; do
	[ -e "$f" ] || die "'$f': no such file"
done
py=""
for p in python3 /usr/bin/python3; do
	"$p" -c 'import yaml' 2>/dev/null && { py=$p; break; }
done
[ -n "$py" ] || die "no python3 imports yaml (Debian's python3-yaml): run 'make deps' (as root)"
"$py" "$PB_ROOT/scripts/lava-import.py" --results "$RESULTS_DIR" ${host:+--host "$host"} "$@"
