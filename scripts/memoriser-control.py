#!/usr/bin/env python3
"""The known answer of a twins control (`annosat synth --twins`): where an ideal *partial memoriser*
saturates. Its prediction for an item is 0.7 × its twin's smoothed p_N + 0.3 × the mean truth,
where p_N is N of the twin's votes drawn without replacement, smoothed with 1/K pseudo-votes. Scored
against the truth (truth.csv) like `annosat sweep --truth`, it gives each metric's first N capturing
90% of its N=1 → N=100 change, over `--repeats` vote draws. numpy only: independent of the Rust code.

    python3 scripts/memoriser-control.py DIR [--repeats 20] [--weight 0.7]
"""
import argparse
import csv
from pathlib import Path

import numpy as np

GRID = [1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 100]


def read(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return [r[0] for r in rows[1:]], np.array([[float(x) for x in r[1:]] for r in rows[1:]])


def n90(values, rising):
    v = np.array(values)
    level = v[0] + 0.9 * (v[-1] - v[0])
    return next(n for n, x in zip(GRID, v) if (x >= level - 1e-12 if rising else x <= level + 1e-12))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", type=Path)
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--weight", type=float, default=0.7)
    a = ap.parse_args()
    ids, truth = read(a.dir / "truth.csv")
    ids2, counts = read(a.dir / "votes.csv")
    assert ids == ids2
    counts = counts.astype(int)
    k = truth.shape[1]
    twin = np.arange(len(ids)) ^ 1
    mean = truth.mean(0)
    h_truth = -(truth * np.log(np.clip(truth, 1e-300, None))).sum(1)
    rng = np.random.default_rng(0)
    points = []
    for _ in range(a.repeats):
        votes = [rng.permutation(np.repeat(np.arange(k), c)) for c in counts]
        kl, r = [], []
        for n in GRID:
            c = np.stack([np.bincount(v[:n], minlength=k) for v in votes])
            p = (c + 1 / k) / (n + 1)
            q = a.weight * p[twin] + (1 - a.weight) * mean
            kl.append(np.mean((truth * (np.log(np.clip(truth, 1e-300, None)) - np.log(q))).sum(1)))
            r.append(np.corrcoef(-(q * np.log(q)).sum(1), h_truth)[0, 1])
        points.append((n90(kl, False), n90(r, True)))
    kl_points = sorted(p[0] for p in points)
    r_points = sorted(p[1] for p in points)
    print(f"{a.dir.name}: partial memoriser (weight {a.weight}), {a.repeats} vote draws")
    print(f"  KL 90% point: median N={int(np.median(kl_points))}, range {kl_points[0]}–{kl_points[-1]}")
    print(f"  entropy correlation 90% point: median N={int(np.median(r_points))}, range {r_points[0]}–{r_points[-1]}")
    print(f"  KL before entropy correlation in {sum(x < y for x, y in points)} of {a.repeats} draws")


if __name__ == "__main__":
    main()
