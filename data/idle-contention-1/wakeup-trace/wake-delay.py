#!/usr/bin/env python3
# Wake-up delays of fio's I/O thread from a sched_wakeup/sched_switch trace
# (ftrace text, events filtered on comm "fio"; see job.sh):
#   sleep -> wake-up: from its switch-out in D state to its next wake-up,
#   wake-up -> running: from a wake-up to its next switch-in,
#   run slice: from a switch-in to the next switch-out.
# The I/O thread is the fio thread woken most often.
# Usage: python3 wake-delay.py trace-*.txt
import re
import sys

PAT = re.compile(r'^\s*(\S+)-(\d+)\s+\[(\d+)\]\s+(\S+)\s+([\d.]+): (\w+): (.*)$')


def pct(a, q):
    a = sorted(a)
    return a[min(len(a) - 1, int(q * len(a)))] if a else float('nan')


def summary(name, a):
    return '%s n=%d p50=%.0f p90=%.0f p99=%.0f max=%.0f us' % (
        name, len(a), pct(a, .5), pct(a, .9), pct(a, .99), max(a) if a else 0)


for path in sys.argv[1:]:
    ev = []
    with open(path) as f:
        for line in f:
            m = PAT.match(line)
            if m:
                ev.append(m.groups())
    woken = {}
    for _, _, _, _, _, name, rest in ev:
        if name == 'sched_wakeup':
            p = int(re.search(r' pid=(\d+)', rest).group(1))
            woken[p] = woken.get(p, 0) + 1
    if not woken:
        print(path + ': no wake-up of fio')
        continue
    io = max(woken, key=woken.get)
    wake = slept = ran = None
    w2r, s2w, runs = [], [], []
    for _, _, _, _, ts, name, rest in ev:
        ts = float(ts)
        if name == 'sched_wakeup' and int(re.search(r' pid=(\d+)', rest).group(1)) == io:
            wake = ts
            if slept is not None:
                s2w.append((ts - slept) * 1e6)
                slept = None
        elif name == 'sched_switch':
            nxt = int(re.search(r'next_pid=(\d+)', rest).group(1))
            prev = int(re.search(r'prev_pid=(\d+)', rest).group(1))
            if prev == io:
                if ran is not None:
                    runs.append((ts - ran) * 1e6)
                    ran = None
                if 'prev_state=D' in rest:
                    slept = ts
            if nxt == io:
                if wake is not None:
                    w2r.append((ts - wake) * 1e6)
                    wake = None
                ran = ts
    print('%s: I/O thread %d, %d wake-ups' % (path, io, woken[io]))
    print('  ' + summary('sleep -> wake-up:', s2w))
    print('  ' + summary('wake-up -> running:', w2r))
    print('  ' + summary('run slice:', runs))
