#!/usr/bin/env python3
# Summarise the sub-runs of data/idle-wake-1 (see job.sh): per sub-run
# directory, fio's I/Os and clat, the I/O thread's wake-ups and sleeps per
# I/O, wake-up -> running delays (all, and split by whether the wake-up
# already set need-resched on the CPU, the 'N' in the trace flags: the
# waker decided to preempt the hog), the wait after being preempted
# (switch-out in R -> switch-in); wake-ups logged on another CPU than the
# target (remote: the idle design's idle-loop poller on vCPU0) are counted
# apart, their trace flags being the waker CPU's, not the target's, run slices, the time per I/O spent
# runnable but not running, and the design's poll counters per I/O.
# The I/O thread is the fio thread that sleeps in D state most often
# (the main thread sleeps in S; with few I/Os it is woken more often).
# Usage: python3 analyse.py out/<sub-run>...   (trace.txt.gz, fio.json,
#        poll-stats-before.txt/after.txt in each)
import gzip
import json
import os
import re
import sys

PAT = re.compile(r'^\s*(\S+)-(\d+)\s+\[(\d+)\]\s+(\S+)\s+([\d.]+): (\w+): (.*)$')


def pct(a, q):
    a = sorted(a)
    return a[min(len(a) - 1, int(q * len(a)))] if a else float('nan')


def stats(path):
    d = {}
    try:
        with open(path) as f:
            for line in f:
                _, k, v = line.split()
                d[k] = d.get(k, 0) + int(v)
    except FileNotFoundError:
        pass
    return d


def one(d):
    ev = []
    with gzip.open(os.path.join(d, 'trace.txt.gz'), 'rt') as f:
        for line in f:
            m = PAT.match(line)
            if m:
                ev.append(m.groups())
    with open(os.path.join(d, 'fio.json')) as f:
        j = json.load(f)['jobs'][0]['read']
    ios = j['total_ios']
    cp = j['clat_ns']['percentile']
    woken, dsl = {}, {}
    for e in ev:
        if e[5] == 'sched_wakeup':
            p = int(re.search(r' pid=(\d+)', e[6]).group(1))
            woken[p] = woken.get(p, 0) + 1
        elif e[5] == 'sched_switch' and 'prev_comm=fio ' in e[6] and 'prev_state=D' in e[6]:
            p = int(re.search(r'prev_pid=(\d+)', e[6]).group(1))
            dsl[p] = dsl.get(p, 0) + 1
    io = max(dsl, key=dsl.get)
    wake = wflag = slept = ran = pre = None
    w2r, w2r_n, w2r_x, pw, runs, s2w = [], [], [], [], [], []
    sleeps = 0
    w2r_r = []
    for _, _, cpu, flags, ts, name, rest in ev:
        ts = float(ts)
        if name == 'sched_wakeup' and int(re.search(r' pid=(\d+)', rest).group(1)) == io:
            tgt = re.search(r'target_cpu=(\d+)', rest).group(1)
            wake = ts
            wflag = 'R' if int(tgt) != int(cpu) else ('N' if 'N' in flags else 'X')
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
                st = re.search(r'prev_state=(\S+)', rest).group(1)
                if st.startswith('D'):
                    slept = ts
                    sleeps += 1
                elif st.startswith('R'):
                    pre = ts
            if nxt == io:
                if wake is not None:
                    x = (ts - wake) * 1e6
                    w2r.append(x)
                    {'N': w2r_n, 'X': w2r_x, 'R': w2r_r}[wflag].append(x)
                    wake = None
                elif pre is not None:
                    pw.append((ts - pre) * 1e6)
                pre = None
                ran = ts
    b, a = stats(os.path.join(d, 'poll-stats-before.txt')), stats(os.path.join(d, 'poll-stats-after.txt'))
    pd = {k: a.get(k, 0) - b.get(k, 0) for k in a}
    return {
        'run': os.path.basename(d.rstrip('/')), 'ios': ios,
        'p50': cp['50.000000'] / 1e3, 'p99': cp['99.000000'] / 1e3,
        'wakes': woken[io], 'wakes_io': woken[io] / ios, 'sleeps_io': sleeps / ios,
        's2w50': pct(s2w, .5),
        'w2r50': pct(w2r, .5), 'w2r90': pct(w2r, .9), 'w2r99': pct(w2r, .99),
        'rem': len(w2r_r) / len(w2r) if w2r else float('nan'),
        'w2rR50': pct(w2r_r, .5), 'w2rR90': pct(w2r_r, .9),
        'n_frac': len(w2r_n) / (len(w2r_n) + len(w2r_x)) if w2r_n or w2r_x else float('nan'),
        'w2rN50': pct(w2r_n, .5), 'w2rX50': pct(w2r_x, .5), 'w2rX90': pct(w2r_x, .9),
        'pre_io': len(pw) / ios, 'pw50': pct(pw, .5),
        'run50': pct(runs, .5),
        'wait_io': (sum(w2r) + sum(pw)) / ios, 'run_io': sum(runs) / ios,
        'tw_io': pd.get('timer_waits', 0) / ios, 'tc_io': pd.get('timer_completions', 0) / ios,
        'ic_io': pd.get('idle_completions', 0) / ios,
    }


COLS = [('run', '%-34s'), ('ios', '%5d'), ('p50', '%7.0f'), ('p99', '%8.0f'),
        ('wakes_io', '%5.2f'), ('sleeps_io', '%5.2f'), ('s2w50', '%6.0f'),
        ('w2r50', '%6.0f'), ('w2r90', '%7.0f'), ('w2r99', '%7.0f'),
        ('rem', '%5.2f'), ('w2rR50', '%6.0f'), ('w2rR90', '%7.0f'),
        ('n_frac', '%5.2f'), ('w2rN50', '%6.0f'), ('w2rX50', '%6.0f'), ('w2rX90', '%7.0f'),
        ('pre_io', '%5.2f'), ('pw50', '%6.0f'), ('run50', '%6.0f'),
        ('wait_io', '%7.0f'), ('run_io', '%6.0f'),
        ('tw_io', '%5.2f'), ('tc_io', '%5.2f'), ('ic_io', '%5.2f')]
print(' '.join(c for c, _ in COLS))
for d in sys.argv[1:]:
    r = one(d)
    print(' '.join(fmt % r[c] for c, fmt in COLS))
