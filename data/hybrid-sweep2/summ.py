#!/usr/bin/env python3
"""summ.py RUNDIR: the estimator over time, from job.sh's samplers.

For each run: per interval of about 1 s, the I/Os (task_waits), sleeps
per I/O, asked sleep and timer oversleep per I/O, polling time per I/O,
estimator samples, and the read_4096 estimate and oversleep tracker at
the end of the interval; then per phase (host-set device latency).
"""
import collections
import glob
import os
import sys

SUM = ("timer_sleeps", "timer_sleep_ns", "timer_oversleep_ns", "task_polls",
       "task_waits", "task_poll_ns", "samples", "declined")


def load(path):
    ticks = collections.OrderedDict()
    for line in open(path):
        w = line.split()
        if len(w) != 5:
            continue
        t, ph, _f, k, v = float(w[0]), w[1], w[2], w[3], int(w[4])
        d = ticks.setdefault(t, {"phase": ph})
        if k in SUM:
            d[k] = d.get(k, 0) + v
        else:
            d[k] = max(d.get(k, 0), v)
    return list(ticks.items())


def row(a, b):
    n = b.get("task_waits", 0) - a.get("task_waits", 0)
    dd = {k: b.get(k, 0) - a.get(k, 0) for k in SUM}
    per = (lambda x: dd[x] / n / 1000 if n else 0.0)
    return n, dd, per


def main():
    rd = sys.argv[1]
    for path in sorted(glob.glob(os.path.join(rd, "share/out/*.samples"))):
        name = os.path.basename(path)[:-8]
        ticks = load(path)
        if len(ticks) < 2:
            continue
        print(f"\n## {name}\n")
        print("| t (s) | phase | I/Os | sleeps/I/O | asked us/I/O | oversleep us/I/O"
              " | polling us/I/O | samples | est us | oversleep tracker us |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        t0 = ticks[0][0]
        prev = ticks[0]
        for t, d in ticks[1:]:
            if t - prev[0] < 0.95 and (t, d) != ticks[-1]:
                continue
            n, dd, per = row(prev[1], d)
            print(f"| {t - t0:.1f} | {d['phase']} | {n} | "
                  f"{dd['timer_sleeps'] / n if n else 0:.2f} | {per('timer_sleep_ns'):.1f} | "
                  f"{per('timer_oversleep_ns'):.1f} | {per('task_poll_ns'):.1f} | "
                  f"{dd['samples']} | {d.get('read_4096_est_ns', 0) / 1000:.1f} | "
                  f"{d.get('oversleep_ns', 0) / 1000:.1f} |")
            prev = (t, d)


main()
