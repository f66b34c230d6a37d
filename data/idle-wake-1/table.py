#!/usr/bin/env python3
# Markdown table of selected columns of an analyse.py summary.txt, rows
# grouped by condition and engine (the part of the sub-run name after the
# round), in first-seen order of the conditions.
# Usage: python3 table.py run*/summary.txt
import sys

COLS = ['ios', 'p50', 'p99', 'wakes_io', 'sleeps_io', 's2w50', 'w2r50', 'w2r90',
        'rem', 'w2rR50', 'n_frac', 'w2rX50', 'run50', 'wait_io', 'ic_io']
for path in sys.argv[1:]:
    rows = [l.split() for l in open(path) if l.strip()]
    head, rows = rows[0], rows[1:]
    idx = {c: i for i, c in enumerate(head)}
    order = []
    for r in rows:
        k = r[0].split('-', 1)[1]
        if k not in order:
            order.append(k)
    print('\n`%s`:\n' % path)
    print('| sub-run | ' + ' | '.join(COLS) + ' |')
    print('|---' * (len(COLS) + 1) + '|')
    for k in order:
        for r in rows:
            if r[0].split('-', 1)[1] == k:
                print('| %s | ' % r[0] + ' | '.join(r[idx[c]] for c in COLS) + ' |')
