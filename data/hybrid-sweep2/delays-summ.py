#!/usr/bin/env python3
"""delays-summ.py RUNDIR: the fixed-delay sweep of a bench.sh run of
matrix/hybrid-delays.matrix, per device and label, medians over reps:
p50 and mean completion time (fio clat), CPU per I/O (fio usr+sys, and
perf task-clock of fio), polling time, sleeps and oversleep per I/O (the
poll_stats deltas of the device under test), the share of sleeps that
woke after their completion (poll_hybrid's read_4096_late/_early, where the
cell recorded it), and each label's share of inline's p50 gain over
baseline (interrupts) and of inline's CPU per I/O.
"""
import glob
import json
import os
import statistics
import sys


def stats(path, dev):
    d = {}
    for line in open(path):
        w = line.split()
        if len(w) == 3 and w[0].startswith(dev + "/"):
            d[w[1]] = d.get(w[1], 0) + int(w[2])
    return d


def task_clock_ms(path):
    for line in open(path):
        w = line.strip().split(",")
        if len(w) > 2 and w[2] == "task-clock":
            return float(w[0])
    return None


def cell(d, dev):
    job = json.load(open(os.path.join(d, "fio.json")))["jobs"][0]
    r = job["read"]
    ios = r["total_ios"]
    b = stats(os.path.join(d, "poll-stats-before.txt"), dev)
    a = stats(os.path.join(d, "poll-stats-after.txt"), dev)
    g = lambda k: a.get(k, 0) - b.get(k, 0)
    sleeps = g("timer_sleeps")
    # The poll_stats snapshots also cover fio's ramp: kernel counters are
    # per task wait (one per polled I/O), fio's CPU per fio-counted I/O.
    waits = g("task_waits")
    tc = task_clock_ms(os.path.join(d, "perf-stat.txt"))
    late = early = 0
    hb, ha = (os.path.join(d, f"poll-hybrid-{p}.txt") for p in ("before", "after"))
    if os.path.isfile(ha):
        hyb = stats(hb, dev) if os.path.isfile(hb) else {}
        hya = stats(ha, dev)
        late = hya.get("read_4096_late", 0) - hyb.get("read_4096_late", 0)
        early = hya.get("read_4096_early", 0) - hyb.get("read_4096_early", 0)
    return dict(
        ios=ios, p50=r["clat_ns"]["percentile"]["50.000000"] / 1000,
        mean=r["clat_ns"]["mean"] / 1000,
        cpu=(job["usr_cpu"] + job["sys_cpu"]) / 100 * job["job_runtime"] * 1000 / ios,
        tclk=tc * 1000 / ios if tc else float("nan"),
        poll=g("task_poll_ns") / waits / 1000 if waits else 0.0,
        sleeps=sleeps / waits if waits else 0.0,
        over=g("timer_oversleep_ns") / sleeps / 1000 if sleeps else 0.0,
        late=late / (late + early) * 100 if late + early else float("nan"))


def main():
    run = sys.argv[1]
    rows = {}
    for d in glob.glob(os.path.join(run, "*", "randread-4k-qd1-pvsync2-hipri@alone*", "*")):
        if not os.path.isfile(os.path.join(d, "fio.json")):
            continue
        label = d.split(os.sep)[-3]
        cellname = d.split(os.sep)[-2]
        device = cellname.split("@")[2] if cellname.count("@") == 2 else "nvme"
        dev = "nullb0" if device.startswith("nullb") else "nvme0n1"
        try:
            rows.setdefault((device, label), []).append(cell(d, dev))
        except (OSError, ValueError, KeyError, ZeroDivisionError) as e:
            print(f"skipped {d}: {e}", file=sys.stderr)
    cols = ["p50", "mean", "cpu", "tclk", "poll", "sleeps", "over", "late"]
    med = {k: {c: statistics.median(x[c] for x in v) for c in cols} | {"n": len(v)}
           for k, v in rows.items()}
    order = ["baseline", "inline", "hybrid-classic", "hybrid-adaptive"]
    for device in sorted({k[0] for k in med}):
        labels = sorted((k[1] for k in med if k[0] == device),
                        key=lambda l: (order.index(l) if l in order else 9,
                                       int(l[8:]) if l.startswith("hybrid-f") else 0))
        base, inl = med.get((device, "baseline")), med.get((device, "inline"))
        print(f"\n### {device}\n")
        print("| label | reps | p50 us | share of inline's p50 gain | mean us | CPU us/I/O (fio usr+sys) | share of inline's | task-clock us/I/O (incl. ramp) | polling us/wait | sleeps/wait | oversleep us/sleep | sleeps woken late |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for l in labels:
            m = med[(device, l)]
            gain = (f"{(base['p50'] - m['p50']) / (base['p50'] - inl['p50']) * 100:.0f}%"
                    if base and inl and base["p50"] > inl["p50"] else "- (no gain)")
            cshare = f"{m['cpu'] / inl['cpu'] * 100:.0f}%" if inl else "-"
            print(f"| {l} | {m['n']} | {m['p50']:.1f} | {gain} | {m['mean']:.0f} | {m['cpu']:.0f} | {cshare} | "
                  f"{m['tclk']:.0f} | {m['poll']:.0f} | {m['sleeps']:.2f} | {m['over']:.0f} | "
                  + ("-" if m["late"] != m["late"] else f"{m['late']:.0f}%") + " |")


main()
