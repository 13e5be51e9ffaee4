#!/usr/bin/env python3
"""A vectorised numpy version of the target-side curves, timed: the same work as `annosat curves`
(every N from 1 to the most votes an item has, R repeats, the four metrics' means), for
scripts/bench.sh to set beside the native time in one run.

Vectorised the way numpy does best: per repeat, one random key per vote and one argsort shuffle
each item's votes; cumulative one-hot counts along the shuffled votes give the subsample for every N
at once (a shuffle's first N votes are a draw of N without replacement), and the metrics are array
expressions over items × N × classes. Its own random stream, so means agree with the CLI within
Monte-Carlo error, not bit for bit; `--check CLI.csv` says how far apart they are (in standard
errors of the difference, from the CLI's and this run's spread).

  numpy_curves_bench.py VOTES.csv [--repeats 50] [--seed 0] [--check CLI_OUTPUT.csv]
prints one line: the best of 3 timings in ms (and the check), e.g.
  numpy vectorised: best of 3 812.4 ms (1514 items, N=1..100, 50 repeats)
"""
import argparse
import csv
import time

import numpy as np


def read_wide(path):
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    return np.array([[int(x) for x in r[1:]] for r in rows[1:]], dtype=np.int64)


def xlogy(x, y):
    """x·ln(y) with 0·ln(0) = 0."""
    return np.where(x > 0, x * np.log(np.where(x > 0, y, 1.0)), 0.0)


def curves(counts, repeats, seed, alpha=None):
    """{metric: array (N_max, repeats)} of per-repeat values (NaN where undefined)."""
    items, k = counts.shape
    totals = counts.sum(axis=1)
    tmax = int(totals.max())
    alpha = 1.0 / k if alpha is None else alpha
    # Each item's votes as labels, padded with k (sorted last by an infinite key).
    labels = np.full((items, tmax), k, dtype=np.int64)
    for i in range(items):
        labels[i, : totals[i]] = np.repeat(np.arange(k), counts[i])
    pad = labels == k
    pf = counts / totals[:, None]
    hf = -xlogy(pf, pf).sum(axis=1)
    ns = np.arange(1, tmax + 1)
    valid = totals[:, None] >= ns[None, :]  # items × N
    rng = np.random.default_rng(seed)
    out = {m: np.full((tmax, repeats), np.nan) for m in ("jsd", "entropy_corr", "kl", "majority_agreement")}
    onehot = np.eye(k + 1, dtype=np.int32)[:, :k]
    for r in range(repeats):
        keys = rng.random((items, tmax))
        keys[pad] = np.inf
        shuffled = np.take_along_axis(labels, np.argsort(keys, axis=1), axis=1)
        c = np.cumsum(onehot[shuffled], axis=1)  # items × N × k: counts of the first N votes
        pn = c / ns[None, :, None]
        ref = pf[:, None, :]
        m = 0.5 * (pn + ref)
        js = 0.5 * (xlogy(pn, pn / np.where(m > 0, m, 1.0)).sum(axis=2)
                    + xlogy(ref, ref / np.where(m > 0, m, 1.0)).sum(axis=2))
        jsd = np.sqrt(np.maximum(js, 0.0))
        smooth = (c + alpha) / (ns[None, :, None] + k * alpha)
        kl = (xlogy(ref, ref) - xlogy(ref, smooth)).sum(axis=2)
        hn = -xlogy(pn, pn).sum(axis=2)
        a = pn == pn.max(axis=2, keepdims=True)
        b = ref == ref.max(axis=2, keepdims=True)
        maj = (a & b).sum(axis=2) / a.sum(axis=2)
        w = valid.astype(float)
        cnt = w.sum(axis=0)
        mean = lambda v: np.where(cnt > 0, (v * w).sum(axis=0) / np.maximum(cnt, 1), np.nan)
        out["jsd"][:, r] = mean(jsd)
        out["kl"][:, r] = mean(kl)
        out["majority_agreement"][:, r] = mean(maj)
        # Pearson r over the items used at each N (undefined where H(p_N) does not vary).
        mx = mean(hn)
        my = (hf[:, None] * w).sum(axis=0) / np.maximum(cnt, 1)
        dx = np.where(valid, hn - mx[None, :], 0.0)
        dy = np.where(valid, hf[:, None] - my[None, :], 0.0)
        sxy, sxx, syy = (dx * dy).sum(axis=0), (dx * dx).sum(axis=0), (dy * dy).sum(axis=0)
        ok = (sxx > 1e-24) & (syy > 0)
        out["entropy_corr"][:, r] = np.where(ok, sxy / np.sqrt(np.where(ok, sxx * syy, 1.0)), np.nan)
    return out


def check(out, cli_csv, repeats):
    """Largest |numpy mean − CLI mean| over N and metrics, in standard errors of the difference
    (this run's spread over repeats stands in for both sides' standard deviation)."""
    worst = 0.0
    with open(cli_csv) as f:
        for row in csv.DictReader(f):
            if not row["mean"]:
                continue
            v = out[row["metric"]][int(row["n"]) - 1]
            v = v[~np.isnan(v)]
            if len(v) < 2:
                continue
            se = np.sqrt(2.0 * v.var(ddof=1) / repeats)
            d = abs(v.mean() - float(row["mean"]))
            if d <= 1e-9:
                continue  # equal up to rounding (N = all votes: no randomness left)
            worst = max(worst, d / se) if se > 0 else float("inf")
    return worst


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("votes")
    ap.add_argument("--repeats", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--check")
    args = ap.parse_args()
    counts = read_wide(args.votes)
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        out = curves(counts, args.repeats, args.seed)
        times.append((time.perf_counter() - t0) * 1000)
    line = (f"numpy vectorised: best of 3 {min(times):.1f} ms ({len(counts)} items, "
            f"N=1..{int(counts.sum(axis=1).max())}, {args.repeats} repeats)")
    if args.check:
        line += f"; means within {check(out, args.check, args.repeats):.2f} standard errors of the CLI's"
    print(line)


if __name__ == "__main__":
    main()
