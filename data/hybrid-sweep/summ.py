#!/usr/bin/env python3
"""Summarise a hybrid sweep: summ.py RUNDIR... (each with share/out/*.json)."""
import json, sys, glob, os, re, statistics
from collections import defaultdict

def kv(path):
    d = {}
    for line in open(path):
        p = line.split()
        if p[0] == 'cpu':
            continue
        if len(p) == 3:
            f = p[0].split('/')[-1]
            d[f + ':' + p[1]] = int(p[2])
    return d

rows = defaultdict(list)
for run in sys.argv[1:]:
    for j in sorted(glob.glob(os.path.join(run, 'share/out/*.json'))):
        tag = os.path.basename(j)[:-5]
        try:
            job = json.load(open(j))['jobs'][0]
        except Exception as e:
            print('bad', j, e, file=sys.stderr); continue
        r = job['read']
        ios = r['total_ios']
        if not ios: continue
        pct = r['clat_ns']['percentile']
        cpu_us = (job['usr_cpu'] + job['sys_cpu']) / 100 * job['job_runtime'] * 1000 / ios
        b, a = kv(j[:-5] + '.before'), kv(j[:-5] + '.after')
        delta = {k: a.get(k, 0) - b.get(k, 0) for k in a}
        g = lambda k: delta.get('poll_stats:' + k, 0)
        waits = g('task_waits') or 1
        sleeps = g('timer_sleeps')
        est = a.get('poll_hybrid:read_4096_est_ns', 0)
        rows[tag].append(dict(iops=r['iops'], p50=pct['50.000000']/1000, p99=pct['99.000000']/1000,
            mean=r['clat_ns']['mean']/1000, cpu=cpu_us, poll=g('task_poll_ns')/waits/1000,
            sleepfrac=sleeps/waits, slept=(g('timer_sleep_ns')/sleeps/1000 if sleeps else 0),
            over=(g('timer_oversleep_ns')/sleeps/1000 if sleeps else 0), est=est/1000,
            samples=delta.get('poll_hybrid:samples', 0), ov=a.get('poll_hybrid:oversleep_ns', 0)/1000))

def key(t):
    m = re.match(r'nullb-(\d+)us\.(\w+?)(\d*)$', t)
    order = ['psync', 'classic', 'adaptive', 'fixed']
    return (int(m.group(1)), order.index(m.group(2)), int(m.group(3) or 0))

cols = ['iops','p50','p99','mean','cpu','poll','sleepfrac','slept','over','est','ov','samples']
print('%-24s %3s ' % ('cell', 'n') + ' '.join('%9s' % c for c in cols))
for t in sorted(rows, key=key):
    rs = rows[t]
    med = {c: statistics.median(x[c] for x in rs) for c in cols}
    print('%-24s %3d ' % (t, len(rs)) + ' '.join('%9.1f' % med[c] if c != 'sleepfrac' else '%9.2f' % med[c] for c in cols))
