#!/usr/bin/env python3
"""Independent numpy/scipy implementation of annosat's metrics and target-side curves.

Used by trainer/tests/numpy_reference.rs to cross-check the Rust core. It shares no code and no
random stream with it: subsamples come from numpy's multivariate hypergeometric sampler, metrics
from scipy. Deterministic quantities must agree to 1e-9, curve means within Monte-Carlo error.

  numpy_reference.py distance REFERENCE.csv OTHER.csv      -> CSV item_id,entropy_reference,entropy_other,kl,jsd
  numpy_reference.py curves VOTES.csv --n 1,10 --repeats R  -> JSON {metric: {n: {mean, sd}}}
  numpy_reference.py dirichlet VOTES.csv                    -> JSON {alpha, log_likelihood}
  numpy_reference.py mixture VOTES.csv PRIOR.json           -> JSON {log_likelihood, improved}

`dirichlet` maximises the Dirichlet-multinomial marginal likelihood of the items' counts (without
the multinomial coefficients) with scipy's L-BFGS-B over log α and scipy.special.gammaln — not
the fixed-point iteration annosat uses.
"""
import argparse
import csv
import json
import sys

import numpy as np
from scipy.spatial.distance import jensenshannon
from scipy.stats import entropy


def read_wide(path):
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    ids = [r[0] for r in rows[1:]]
    counts = np.array([[int(x) for x in r[1:]] for r in rows[1:]], dtype=np.int64)
    return rows[0][1:], ids, counts


def distance(args):
    classes_r, ids_r, cr = read_wide(args.reference)
    classes_o, ids_o, co = read_wide(args.other)
    assert classes_r == classes_o
    where = {i: j for j, i in enumerate(ids_o)}
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["item_id", "entropy_reference", "entropy_other", "kl", "jsd"])
    for i, item in enumerate(ids_r):
        if item not in where:
            continue
        p = cr[i] / cr[i].sum()
        q = co[where[item]] / co[where[item]].sum()
        kl = float(np.sum(np.where(p > 0, p * np.log(np.where(p > 0, p, 1) / np.maximum(q, 1e-15)), 0.0)))
        out.writerow([item, repr(float(entropy(p))), repr(float(entropy(q))), repr(kl),
                      repr(float(jensenshannon(p, q)))])


def majority_credit(pn, pf):
    """|argmax(pn) ∩ argmax(pf)| / |argmax(pn)| per row."""
    a = pn == pn.max(axis=1, keepdims=True)
    b = pf == pf.max(axis=1, keepdims=True)
    return (a & b).sum(axis=1) / a.sum(axis=1)


def curves(args):
    _, _, counts = read_wide(args.votes)
    k = counts.shape[1]
    alpha = args.alpha if args.alpha is not None else 1.0 / k
    rng = np.random.default_rng(args.seed)
    totals = counts.sum(axis=1)
    pf = counts / totals[:, None]
    hf = entropy(pf, axis=1)
    result = {m: {} for m in ("jsd", "entropy_corr", "kl", "majority_agreement")}
    for n in args.n:
        use = np.flatnonzero(totals >= n)
        # sub[r, i, :] = counts of n votes drawn without replacement from item i, repeat r
        sub = np.stack([rng.multivariate_hypergeometric(counts[i], n, size=args.repeats) for i in use], axis=1)
        pn = sub / n
        ref = pf[use][None, :, :].repeat(args.repeats, axis=0)
        jsd = jensenshannon(pn, ref, axis=2).mean(axis=1)
        smooth = (sub + alpha) / (n + k * alpha)
        kl = entropy(ref, smooth, axis=2).mean(axis=1)
        hn = entropy(pn, axis=2)
        corr = np.array([np.corrcoef(hn[r], hf[use])[0, 1] if np.ptp(hn[r]) > 0 else np.nan
                         for r in range(args.repeats)])
        maj = np.array([majority_credit(pn[r], ref[r]).mean() for r in range(args.repeats)])
        for name, v in (("jsd", jsd), ("entropy_corr", corr), ("kl", kl), ("majority_agreement", maj)):
            v = v[~np.isnan(v)]
            result[name][str(n)] = None if len(v) == 0 else {
                "mean": float(v.mean()), "sd": float(v.std(ddof=1)) if len(v) > 1 else 0.0, "repeats": int(len(v))}
    json.dump(result, sys.stdout, indent=1)


def dirichlet(args):
    from scipy.optimize import minimize
    from scipy.special import gammaln

    _, _, counts = read_wide(args.votes)
    counts = counts[counts.sum(axis=1) > 0].astype(np.float64)
    n = counts.sum(axis=1)

    def nll(log_a):
        a = np.exp(log_a)
        a0 = a.sum()
        return -np.sum(gammaln(a0) - gammaln(n + a0) + np.sum(gammaln(counts + a) - gammaln(a), axis=1))

    share = counts.sum(axis=0) / counts.sum()
    res = minimize(nll, np.log(share), method="L-BFGS-B", options={"ftol": 1e-15, "gtol": 1e-10, "maxiter": 10000})
    print(json.dumps({"alpha": np.exp(res.x).tolist(), "log_likelihood": -float(res.fun), "converged": bool(res.success)}))


def mixture(args):
    """ℓ of annosat's fitted mixture (its `prior` JSON) computed here, and how much scipy's L-BFGS-B,
    started at that mixture, can still raise it (a local maximum: next to nothing)."""
    from scipy.optimize import minimize
    from scipy.special import gammaln, logsumexp

    _, _, counts = read_wide(args.votes)
    counts = counts[counts.sum(axis=1) > 0].astype(np.float64)
    n = counts.sum(axis=1)
    prior = json.load(open(args.prior))["prior"]
    comps = prior["components"]
    c, k = len(comps), counts.shape[1]

    def ll(x):
        log_w = x[:c] - logsumexp(x[:c])
        a = np.exp(x[c:]).reshape(c, k)
        a0 = a.sum(axis=1)
        per = (gammaln(a0)[None, :] - gammaln(n[:, None] + a0[None, :])
               + np.sum(gammaln(counts[:, None, :] + a[None, :, :]) - gammaln(a)[None, :, :], axis=2))
        return float(np.sum(logsumexp(per + log_w[None, :], axis=1)))

    x0 = np.concatenate([np.log([m["weight"] for m in comps]), np.log([m["alpha"] for m in comps]).ravel()])
    at = ll(x0)
    res = minimize(lambda x: -ll(x), x0, method="L-BFGS-B", options={"maxiter": 200})
    print(json.dumps({"log_likelihood": at, "improved": max(0.0, -float(res.fun) - at)}))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sp = ap.add_subparsers(dest="cmd", required=True)
    d = sp.add_parser("distance")
    d.add_argument("reference")
    d.add_argument("other")
    c = sp.add_parser("curves")
    c.add_argument("votes")
    c.add_argument("--n", type=lambda s: [int(x) for x in s.split(",")], required=True)
    c.add_argument("--repeats", type=int, default=200)
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--alpha", type=float, default=None)
    dl = sp.add_parser("dirichlet")
    dl.add_argument("votes")
    mx = sp.add_parser("mixture")
    mx.add_argument("votes")
    mx.add_argument("prior")
    args = ap.parse_args()
    {"distance": distance, "curves": curves, "dirichlet": dirichlet, "mixture": mixture}[args.cmd](args)


if __name__ == "__main__":
    main()
