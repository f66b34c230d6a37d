#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Percentile ladder and estimator counters of a hybrid-p99 run.

usage: summ.py RUN-DIR
Per label and device: total latency percentiles from fio's json+ clat bins
(pvsync2 is synchronous: clat is the whole call; fio's bins are exact to
about 1.6% here), per boot; then the poll_hybrid and poll_stats deltas of
the fio cell summed over both boots (per I/O).
"""
import glob
import json
import os
import sys

PCTS = (50, 80, 90, 95, 99, 99.9)


def ladder(bins):
    pts = sorted((int(k), v) for k, v in bins.items())
    total = sum(v for _, v in pts)
    out, acc, i = [], 0, 0
    for p in PCTS:
        need = total * p / 100
        while acc + pts[i][1] < need:
            acc += pts[i][1]
            i += 1
        out.append(pts[i][0])
    return out, pts[-1][0], total


def counters(path):
    d = {}
    if not os.path.exists(path):
        return d
    for line in open(path):
        f = line.split()
        if len(f) == 3 and f[0].startswith('nullb0/'):
            d[f[1]] = d.get(f[1], 0) + int(f[2])
    return d


def main(run):
    for cell in sorted(glob.glob(os.path.join(run, '*', '*@nullb-*'))):
        if os.path.basename(os.path.dirname(cell)) == 'plots':
            continue
        label = os.path.basename(os.path.dirname(cell))
        dev = cell.rsplit('@', 1)[1]
        tot = {}
        for rep in sorted(glob.glob(os.path.join(cell, '[0-9]*'))):
            job = json.load(open(os.path.join(rep, 'fio.json')))['jobs'][0]
            lad, mx, n = ladder(job['read']['clat_ns']['bins'])
            print(f"{label:18} {dev:11} rep {os.path.basename(rep)}: "
                  + ' '.join(f"p{p} {v / 1000:.2f}" for p, v in zip(PCTS, lad))
                  + f" max {mx / 1000:.1f} us, {n} I/Os")
            for name in ('poll-stats', 'poll-hybrid'):
                a = counters(os.path.join(rep, f'{name}-after.txt'))
                b = counters(os.path.join(rep, f'{name}-before.txt'))
                for k, v in a.items():
                    tot[k] = tot.get(k, 0) + v - b.get(k, 0)
            tot['ios'] = tot.get('ios', 0) + n
        n = tot['ios']
        keys = ('task_polls', 'task_poll_ns', 'timer_sleeps')
        print(f"{label:18} {dev:11} per I/O: "
              + ', '.join(f"{k} {tot.get(k, 0) / n:.2f}" for k in keys)
              + f"; sleeps late {tot.get('read_4096_late', 0)}"
              f" early {tot.get('read_4096_early', 0)}")


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
