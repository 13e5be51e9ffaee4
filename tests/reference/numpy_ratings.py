#!/usr/bin/env python3
"""Independent numpy/scipy implementation of annosat's rating curves (`annosat ratings`).

Used by trainer/tests/ratings.rs. It shares no code and no random stream with the Rust core: each
item's ratings are permuted with numpy's generator (random keys sorted: the first N of a
permutation are a draw without replacement); the metrics come from numpy and scipy — Spearman's ρ
from scipy.stats.spearmanr, ICC(1,k) from the one-way ANOVA's mean squares written out from the
sampled ratings, the Wasserstein-1 distance from the cumulative shares, checked equal to
scipy.stats.wasserstein_distance (to 1e-9) on the first 200 items at every N of the first repeat;
kRR at k from scipy.stats.pearsonr of the mean ratings of the first k and the next k of N = 2k.

  numpy_ratings.py curves VOTES.csv --n 1,10 --repeats R   -> JSON {metric: {n: {mean, sd}}}
  numpy_ratings.py icc VOTES.csv                           -> JSON {icc1, icc1k, k} via pingouin
                                                              (every item must have the same k)

Class names are the scale's values (an interval scale: the wide file's header are numbers).
"""
import argparse
import csv
import json
import sys

import numpy as np
from reference_cli import add_curves
from scipy.stats import pearsonr, spearmanr, wasserstein_distance


def read_wide(path):
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    values = np.array([float(c) for c in rows[0][1:]])
    counts = np.array([[int(x) for x in r[1:]] for r in rows[1:]], dtype=np.int64)
    return values, counts


def expand(values, counts):
    return [np.repeat(values, c) for c in counts]


def curves(args):
    values, counts = read_wide(args.votes)
    order = np.argsort(values)
    values, counts = values[order], counts[:, order]           # ascending scale
    gaps = np.diff(values)
    totals = counts.sum(axis=1)
    width = int(totals.max())
    # Each item's ratings as class indices, padded to the widest item.
    cls = np.full((len(counts), width), -1)
    for i, c in enumerate(counts):
        cls[i, :totals[i]] = np.repeat(np.arange(len(values)), c)
    means = (counts * values).sum(axis=1) / totals
    cdf_all = np.cumsum(counts, axis=1)[:, :-1] / totals[:, None]
    grid = [int(n) for n in args.n.split(",")]
    rng = np.random.default_rng(args.seed)
    names = ["mean_error", "mean_rmse", "reliability", "rank_corr", "wasserstein"]
    per = {m: {n: [] for n in grid} for m in names}
    # kRR: two disjoint groups of k raters (the first k and the next k of N = 2k drawn ratings),
    # Pearson's r of their mean ratings over the items.
    per["krr"] = {n // 2: [] for n in grid if n % 2 == 0}
    checked = 0
    for r in range(args.repeats):
        # A uniform permutation of each item's ratings: sort random keys, padding last.
        keys = rng.random(cls.shape)
        keys[cls < 0] = 2.0
        perm = np.take_along_axis(cls, np.argsort(keys, axis=1), axis=1)
        for n in grid:
            keep = np.flatnonzero(totals >= n)
            if len(keep) == 0:
                continue
            x = values[perm[keep, :n]]                          # items x n ratings
            m_n, m = x.mean(axis=1), means[keep]
            err = m_n - m
            per["mean_error"][n].append(np.abs(err).mean())
            per["mean_rmse"][n].append(np.sqrt((err ** 2).mean()))
            onehot = perm[keep, :n, None] == np.arange(len(values))[None, None, :]
            cdf_n = np.cumsum(onehot.sum(axis=1), axis=1)[:, :-1] / n
            w1 = (np.abs(cdf_n - cdf_all[keep]) * gaps).sum(axis=1)
            if r == 0:
                # The CDF form is scipy's distance: checked on the first items of the first repeat.
                for j, i in enumerate(keep[:200]):
                    want = wasserstein_distance(x[j], values[cls[i, :totals[i]]])
                    assert abs(w1[j] - want) < 1e-9, (i, n, w1[j], want)
                    checked += 1
            per["wasserstein"][n].append(w1.mean())
            if len(keep) > 1 and np.ptp(m_n) > 0 and np.ptp(m) > 0:
                per["rank_corr"][n].append(spearmanr(m_n, m).statistic)
            if n % 2 == 0 and len(keep) >= 3:
                a, b = x[:, : n // 2].mean(axis=1), x[:, n // 2:].mean(axis=1)
                if np.ptp(a) > 0 and np.ptp(b) > 0:
                    per["krr"][n // 2].append(pearsonr(a, b).statistic)
            if n >= 2 and len(keep) >= 2:
                grand = x.mean()
                msb = n * ((m_n - grand) ** 2).sum() / (len(keep) - 1)
                msw = ((x - m_n[:, None]) ** 2).sum() / (len(keep) * (n - 1))
                if msb > 0:
                    per["reliability"][n].append((msb - msw) / msb)
    out = {"scipy_wasserstein_checked": checked}
    for m in names + ["krr"]:
        out[m] = {}
        for n in per[m]:
            v = np.array(per[m][n])
            out[m][str(n)] = None if len(v) == 0 else {
                "mean": float(v.mean()), "sd": float(v.std(ddof=1)) if len(v) > 1 else 0.0}
    json.dump(out, sys.stdout)


def icc(args):
    import pandas as pd
    import pingouin as pg
    values, counts = read_wide(args.votes)
    k = int(counts[0].sum())
    if not (counts.sum(axis=1) == k).all():
        sys.exit("icc needs every item to have the same number of ratings")
    rows = [(i, j, v) for i, x in enumerate(expand(values, counts)) for j, v in enumerate(x)]
    df = pd.DataFrame(rows, columns=["item", "rater", "rating"])
    t = pg.intraclass_corr(df, targets="item", raters="rater", ratings="rating").set_index("Type")
    json.dump({"icc1": float(t.loc["ICC1", "ICC"]), "icc1k": float(t.loc["ICC1k", "ICC"]), "k": k},
              sys.stdout)


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    add_curves(sub, curves, "votes", seed=7)
    i = sub.add_parser("icc")
    i.add_argument("votes")
    i.set_defaults(run=icc)
    a = p.parse_args()
    a.run(a)


if __name__ == "__main__":
    main()
