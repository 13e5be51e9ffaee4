#!/usr/bin/env python3
"""A big wide vote file for the large-file measurement (scripts/bench-large.sh): ITEMS rows of
`item_<8 digits>,<a>,<b>,<c>` with 5-100 votes each, from a fixed seed (the same bytes every run).
    python3 scripts/make-big-votes.py ITEMS OUT.csv      (9800000 items: about 212 MB)
"""
import random, sys
n = int(sys.argv[1]); out = sys.argv[2]
r = random.Random(7)
with open(out, 'w') as f:
    f.write('item_id,entailment,neutral,contradiction\n')
    buf = []
    for i in range(n):
        t = r.randint(5, 100)
        a = r.randint(0, t); b = r.randint(0, t - a)
        buf.append(f'item_{i:08d},{a},{b},{t-a-b}\n')
        if len(buf) >= 100000:
            f.write(''.join(buf)); buf = []
    f.write(''.join(buf))
