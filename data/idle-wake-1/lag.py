#!/usr/bin/env python3
# Lag at each wake-up of fio's I/O thread, and the path of remote
# wake-ups, from the traces of job-lag.sh (run6): kprobes pb/pe
# (place_entity: se, vlag, flags), pb/rq (requeue_delayed_entity: the
# woken task was still queued by DELAY_DEQUEUE), pb/de (dequeue_entities
# in the sleeping task's context: se -> task), sched_wakeup/sched_switch,
# ipi_send_cpu (cpu 1) and reschedule_entry.
# Per wake-up of the I/O thread (the fio thread with the most D-state
# switch-outs): the placement event just before it for the thread's se
# ('delayed' if requeue_delayed_entity, else the lag it was placed with;
# lag is virtual time, = real time for a nice-0 task; a delayed entity's
# vlag field is not its lag - RUN_TO_PARITY keeps the deadline there while
# it runs - so no lag is shown for it), whether it set
# need-resched at once (local wake-ups), and wake-up -> running.
# For remote wake-ups (logged on vCPU0): wake-up -> reschedule IPI entry
# on vCPU1 -> switch-in.
# Usage: python3 lag.py out/<sub-run>...
import gzip
import os
import re
import sys

PAT = re.compile(r'^\s*(\S+)-(\d+)\s+\[(\d+)\]\s+(\S+)\s+([\d.]+): (\w+): (.*)$')


def pct(a, q):
    a = sorted(a)
    return a[min(len(a) - 1, int(q * len(a)))] if a else float('nan')


def one(d):
    ev = []
    with gzip.open(os.path.join(d, 'trace.txt.gz'), 'rt') as f:
        for line in f:
            m = PAT.match(line)
            if m:
                ev.append(m.groups())
    dsl = {}
    for e in ev:
        if e[5] == 'sched_switch' and 'prev_comm=fio ' in e[6] and 'prev_state=D' in e[6]:
            p = re.search(r'prev_pid=(\d+)', e[6]).group(1)
            dsl[p] = dsl.get(p, 0) + 1
    io = max(dsl, key=dsl.get)
    ses = {}
    for e in ev:
        if e[5] == 'de' and e[1] == io:
            s = re.search(r'se=(\S+)', e[6]).group(1)
            ses[s] = ses.get(s, 0) + 1
    se = max(ses, key=ses.get)
    last = {}          # cpu -> (kind, vlag) of the latest placement of se
    wake = None
    cats = {}          # category -> list of (local N?, w2r)
    remote = []        # (wake->resched entry, resched entry->run)
    resched1 = None
    for task, pid, cpu, flags, ts, name, rest in ev:
        ts = float(ts)
        if name in ('pe', 'rq') and re.search(r'se=(\S+)', rest).group(1) == se:
            vlag = int(re.search(r'vlag=(-?\d+)', rest).group(1))
            if name == 'rq':
                last[cpu] = ('delayed', vlag)
            elif last.get(cpu, ('',))[0] == 'delayed' and ' fl=0x0' in rest:
                last[cpu] = ('delayed, lag>0 re-placed', vlag)
            else:
                fl = int(re.search(r'fl=(0x[0-9a-f]+)', rest).group(1), 16)
                last[cpu] = ('placed' if fl & 1 else 'other', vlag)
        elif name == 'sched_wakeup' and re.search(r' pid=(\d+)', rest).group(1) == io:
            tgt = int(re.search(r'target_cpu=(\d+)', rest).group(1))
            kind, vlag = last.pop(cpu, ('none', 0))
            if kind == 'placed':
                kind = 'lag > 0' if vlag > 0 else ('lag = 0' if vlag == 0 else 'lag < 0')
            loc = 'R' if tgt != int(cpu) else ('N' if 'N' in flags else 'X')
            wake = (ts, kind, loc, vlag)
            resched1 = None
        elif name == 'reschedule_entry' and cpu == '001' and wake and resched1 is None:
            resched1 = ts
        elif name == 'sched_switch' and re.search(r'next_pid=(\d+)', rest).group(1) == io and wake:
            w2r = (ts - wake[0]) * 1e6
            cats.setdefault(wake[1], []).append((wake[2], w2r, wake[3]))
            if wake[2] == 'R':
                remote.append(((resched1 - wake[0]) * 1e6 if resched1 else float('nan'),
                               (ts - resched1) * 1e6 if resched1 else float('nan')))
            wake = None
    n = sum(len(v) for v in cats.values())
    print('%s: I/O thread %s, se %s, %d wake-ups' % (os.path.basename(d.rstrip('/')), io, se, n))
    for k in sorted(cats):
        v = cats[k]
        loc = [x for x in v if x[0] != 'R']
        nf = sum(1 for x in loc if x[0] == 'N') / len(loc) if loc else float('nan')
        lags = [x[2] / 1e3 for x in v] if k != 'delayed' else []
        print('  %-26s %5.1f%%  lag p10/p50/p90 %+7.0f %+7.0f %+7.0f us  preempt-at-once %.2f  w2r p50/p90 %6.0f %7.0f us  remote %d' % (
            k, 100 * len(v) / n, pct(lags, .1), pct(lags, .5), pct(lags, .9), nf,
            pct([x[1] for x in v], .5), pct([x[1] for x in v], .9), len(v) - len(loc)))
    if remote:
        a = [x[0] for x in remote if x[0] == x[0]]
        b = [x[1] for x in remote if x[1] == x[1]]
        print('  remote: %d, with a reschedule IPI seen on vCPU1 %d; wake-up -> IPI entry p50/p90 %.0f/%.0f us, IPI entry -> running p50/p90 %.0f/%.0f us' % (
            len(remote), len(a), pct(a, .5), pct(a, .9), pct(b, .5), pct(b, .9)))


for d in sys.argv[1:]:
    one(d)
