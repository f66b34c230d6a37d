#!/usr/bin/env python3
# Lag of fio's threads and the hog on cpu#1 from the samples of
# /sys/kernel/debug/sched/debug taken by job.sh (sched-debug.txt):
# lag = cpu#1 avg_vruntime - task vruntime (ms of virtual time; > 0 means
# the task is owed CPU time), E/N = eligible or not, state letter
# (>R running, R runnable, D/S sleeping; a sleeping task's vruntime is
# its value when it last ran).
# Ends with a summary per file: the I/O thread (the fio thread with the
# most D-state switch-outs in the sub-run's trace.txt.gz, as analyse.py)
# and the hog, lag by state.
# Usage: python3 sched-debug.py out/dbg-*/sched-debug.txt
import gzip
import os
import re
import sys

TASK = re.compile(r'^\s*(>R|[A-Z])\s+(\S+)\s+(\d+)\s+([-\d.]+)\s+([EN])\s+([-\d.]+)\s+(S?)\s*([\d.]+)\s+([\d.]+)\s+(\d+)')
for path in sys.argv[1:]:
    print('==', path)
    cpu = None
    avg = None
    seen = []
    for line in open(path):
        if line.startswith('== sample'):
            print(line.strip())
        elif line.startswith('cpu#'):
            cpu = line.split(',')[0]
        elif '.avg_vruntime' in line and cpu == 'cpu#1':
            avg = float(line.split(':')[1])
        else:
            m = TASK.match(line)
            if m and cpu == 'cpu#1' and avg is not None:
                st, comm, pid, vr, el, dl, cs, sl, _, sw = m.groups()
                seen.append((st, comm, pid, avg - float(vr), el, int(sw)))
                print('  %-2s %-7s %5s lag %+8.3f ms %s deadline-avg %+8.3f ms slice %s%s switches %s' % (
                    st, comm, pid, avg - float(vr), el, float(dl) - avg, sl, cs, sw))
    dsl = {}
    with gzip.open(os.path.join(os.path.dirname(path), 'trace.txt.gz'), 'rt') as f:
        for line in f:
            m = re.search(r'prev_comm=fio prev_pid=(\d+) .*prev_state=D', line)
            if m:
                dsl[m.group(1)] = dsl.get(m.group(1), 0) + 1
    if not dsl:
        continue
    io = max(dsl, key=dsl.get)
    for who, sel in (('I/O thread ' + io, lambda r: r[1] == 'fio' and r[2] == io),
                     ('cpuhog', lambda r: r[1] == 'cpuhog')):
        rs = [r for r in seen if sel(r)]
        for st in ('>R', 'R', 'D', 'S'):
            lags = sorted(r[3] for r in rs if r[0] == st)
            if lags:
                print('summary %s state %-2s n=%2d lag median %+.3f min %+.3f max %+.3f ms, eligible %d' % (
                    who, st, len(lags), lags[len(lags) // 2], lags[0], lags[-1],
                    sum(1 for r in rs if r[0] == st and r[4] == 'E')))
