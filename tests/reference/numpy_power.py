#!/usr/bin/env python3
"""Independent numpy implementation of `annosat compare`'s power simulation.

Used by trainer/tests/compare.rs. It shares no code and no random stream with the Rust core, and
draws differently: every simulated evaluation picks I items with replacement and gives each a
fresh N-vote draw without replacement from its votes (annosat picks from a pool of 32 draws per
item). The test is the same: the mean per-item difference B − A (accuracy with the curves' tie
credit, KL with q clipped at 1e-15, JS distance, total variation, wins by JS distance) or the
difference of the entropy correlations, rejected where |d| is beyond the (1 − α) point of
|d − mu| over the same evaluations, mu the expected difference at N (estimated from 64 draws per
item); power is the share of evaluations rejected in the direction of the file's own difference
(all votes).

  numpy_power.py synth OUT_DIR --items 400 --votes 20 --eps 0.2 --seed 1
      -> votes.csv, a.csv, b.csv (B = A moved eps of the way towards the true distributions; a
         negative eps moves it |eps| of the way towards each item's least likely class)
  numpy_power.py power VOTES A B --items 50,200 --n 2,10 --resamples R --seed S
      -> JSON {metric: {"I,N": {"power": p, "diff": d}}}
"""
import argparse
import csv
import json
import os

import numpy as np

CLIP = 1e-15


def synth(args):
    rng = np.random.default_rng(args.seed)
    k = 3
    theta = rng.dirichlet([0.8] * k, size=args.items)
    counts = np.array([rng.multinomial(args.votes, t) for t in theta])
    qa = np.array([rng.dirichlet(10 * t + 0.3) for t in theta]) * 0.95 + 0.05 / k
    if args.eps >= 0:
        qb = (1 - args.eps) * qa + args.eps * theta
    else:
        # Away from the humans: towards each item's least likely class.
        far = np.eye(k)[theta.argmin(axis=1)]
        qb = (1 + args.eps) * qa - args.eps * far
    os.makedirs(args.out, exist_ok=True)
    names = ["x", "y", "z"]
    with open(os.path.join(args.out, "votes.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["item_id"] + names)
        for i, c in enumerate(counts):
            w.writerow([f"i{i}"] + [int(x) for x in c])
    for name, q in (("a.csv", qa), ("b.csv", qb)):
        with open(os.path.join(args.out, name), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["item_id"] + names)
            for i, row in enumerate(q):
                w.writerow([f"i{i}"] + [repr(float(x)) for x in row])


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return np.array([[float(x) for x in r[1:]] for r in rows[1:]])


def xlogy(p, q):
    out = np.zeros_like(p)
    m = p > 0
    out[m] = p[m] * np.log(q[m])
    return out


def kl(p, q):
    return (xlogy(p, p) - xlogy(p, np.maximum(q, CLIP))).sum(-1)


def js(p, q):
    m = 0.5 * (p + q)
    d = 0.5 * (xlogy(p, p) - xlogy(p, m)).sum(-1) + 0.5 * (xlogy(q, q) - xlogy(q, m)).sum(-1)
    return np.sqrt(np.maximum(d, 0.0))


def credit(model, human):
    a = model == model.max(-1, keepdims=True)
    b = human == human.max(-1, keepdims=True)
    return (a & b).sum(-1) / a.sum(-1)


def entropy(p):
    return -xlogy(p, p).sum(-1)


METRICS = ["accuracy", "kl", "js", "tv", "entropy_corr", "wins"]


def per_item(p, qa, qb):
    """Per-item B − A for the per-item metrics, and H(p_N)."""
    ja, jb = js(p, qa), js(p, qb)
    return {
        "accuracy": credit(qb, p) - credit(qa, p),
        "kl": kl(p, qb) - kl(p, qa),
        "js": jb - ja,
        "tv": 0.5 * np.abs(p - qb).sum(-1) - 0.5 * np.abs(p - qa).sum(-1),
        "wins": np.sign(ja - jb),
    }, entropy(p)


def padded(counts):
    """Each item's votes as class indices, padded with -1 to the widest item."""
    totals = counts.sum(-1)
    cls = np.full((len(counts), int(totals.max())), -1)
    for i, c in enumerate(counts):
        cls[i, : totals[i]] = np.repeat(np.arange(counts.shape[1]), c)
    return cls


def draw(cls, k, n, rng, rows):
    """One N-vote draw without replacement for each item in `rows` (shares): random keys, the
    padding sorted last, the first N of each row's order."""
    c = cls[rows]
    keys = rng.random(c.shape)
    keys[c < 0] = 2.0
    idx = np.argsort(keys, axis=1)[:, :n]
    picked = np.take_along_axis(c, idx, axis=1)
    return np.stack([(picked == j).sum(1) for j in range(k)], axis=1) / n


def stats(p, qa, qb, ha, hb):
    d, h = per_item(p, qa, qb)
    out = {m: v.mean() for m, v in d.items()}
    c = np.corrcoef(np.vstack([h, ha, hb]))
    out["entropy_corr"] = c[0, 2] - c[0, 1]
    return out


def power(args):
    rng = np.random.default_rng(args.seed)
    counts = read(args.votes).astype(np.int64)
    qa, qb = read(args.a), read(args.b)
    ha, hb = entropy(qa), entropy(qb)
    full = counts / counts.sum(-1, keepdims=True)
    truth = stats(full, qa, qb, ha, hb)
    res = {m: {} for m in METRICS}
    items_all = np.arange(len(counts))
    cls, k = padded(counts), counts.shape[1]
    for n in [int(x) for x in args.n.split(",")]:
        # The expected difference at N: 64 draws of every item.
        reps = [stats(draw(cls, k, n, rng, items_all), qa, qb, ha, hb) for _ in range(64)]
        mu = {m: np.mean([r[m] for r in reps]) for m in METRICS}
        for items in [int(x) for x in args.items.split(",")]:
            sims = {m: [] for m in METRICS}
            for _ in range(args.resamples):
                rows = rng.integers(0, len(counts), size=items)
                p = draw(cls, k, n, rng, rows)
                s = stats(p, qa[rows], qb[rows], ha[rows], hb[rows])
                for m in METRICS:
                    sims[m].append(s[m])
            for m in METRICS:
                d = np.array(sims[m])
                crit = np.quantile(np.abs(d - mu[m]), 1 - args.alpha)
                sign = np.sign(truth[m])
                hit = (np.abs(d) > crit) & ((sign == 0) | (np.sign(d) == sign))
                res[m][f"{items},{n}"] = {"power": float(hit.mean()), "diff": float(d.mean())}
    print(json.dumps(res))


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("synth")
    s.add_argument("out")
    s.add_argument("--items", type=int, default=400)
    s.add_argument("--votes", type=int, default=20)
    s.add_argument("--eps", type=float, default=0.2)
    s.add_argument("--seed", type=int, default=1)
    p = sub.add_parser("power")
    p.add_argument("votes")
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--items", default="50,200")
    p.add_argument("--n", default="2,10")
    p.add_argument("--resamples", type=int, default=1000)
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    {"synth": synth, "power": power}[args.cmd](args)


if __name__ == "__main__":
    main()
