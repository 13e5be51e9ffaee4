#!/usr/bin/env python3
"""Independent numpy/scipy implementation of annosat's multilabel target-side curves.

Used by trainer/tests/numpy_reference.rs to cross-check the Rust core (core/src/multilabel). It
shares no code and no random stream with it: each repeat draws a numpy permutation of every
item's annotators, metrics come from scipy (Jensen-Shannon distance, KL) and numpy.

  numpy_multilabel.py curves RATINGS.csv --n 1,5,15 --repeats R --seed S
      RATINGS.csv: item_id,annotator_id,<label...> with 0/1 cells (the wide multilabel layout)
      -> JSON {metric: {n: {mean, sd}}}, sd over repeats; null where undefined (entropy_corr at N=1)

Definitions (per item with M annotators, N of them drawn without replacement; p = share of all M
who ticked a label, q = share of the N, q~ = (c + 1/2)/(N + 1)):
  kl = mean over labels of KL([p, 1-p] || [q~, 1-q~]); jsd = mean of the JS distance of [p, 1-p]
  and [q, 1-q]; brier = mean of (q - p)^2; soft_bce = mean of -(p ln q~ + (1-p) ln(1-q~));
  entropy_corr = Pearson over items of sum_l H(q_l) vs sum_l H(p_l); macro_f1 / micro_f1 of q >= 1/2
  against p >= 1/2 (macro over labels with a positive among the full-vote labels); exact_set = share
  of items whose thresholded sets are equal. Items average first, then repeats.
"""
import argparse
import csv
import json
from collections import OrderedDict

import numpy as np
from reference_cli import add_curves
from scipy.spatial.distance import jensenshannon
from scipy.stats import entropy


def read(path):
    items = OrderedDict()
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = csv.reader(f)
        header = next(rows)
        for r in rows:
            items.setdefault(r[0], []).append([int(x) for x in r[2:]])
    return header[2:], [np.array(v, dtype=np.int64) for v in items.values()]


def bern_h(p):
    return entropy(np.stack([p, 1 - p]), axis=0)


def curves(args):
    labels, items = read(args.ratings)
    grid = [int(x) for x in args.n.split(",")]
    rng = np.random.default_rng(args.seed)
    names = ["kl", "jsd", "brier", "soft_bce", "entropy_corr", "macro_f1", "micro_f1", "exact_set"]
    per = {m: {n: [] for n in grid} for m in names}
    full = [v.mean(axis=0) for v in items]
    for _ in range(args.repeats):
        draws = [v[rng.permutation(len(v))] for v in items]
        for n in grid:
            use = [i for i, v in enumerate(items) if len(v) >= n]
            p = np.array([full[i] for i in use])
            c = np.array([draws[i][:n].sum(axis=0) for i in use])
            q = c / n
            qt = (c + 0.5) / (n + 1)
            P, Q, QT = np.stack([p, 1 - p]), np.stack([q, 1 - q]), np.stack([qt, 1 - qt])
            per["kl"][n].append(entropy(P, QT, axis=0).mean())
            per["jsd"][n].append(jensenshannon(P, Q, axis=0).mean())
            per["brier"][n].append(((q - p) ** 2).mean())
            with np.errstate(divide="ignore", invalid="ignore"):
                bce = -(p * np.log(qt) + (1 - p) * np.log(1 - qt))
            per["soft_bce"][n].append(bce.mean())
            x, y = bern_h(q).sum(axis=1), bern_h(p).sum(axis=1)
            corr = np.corrcoef(x, y)[0, 1] if x.std() > 0 and y.std() > 0 else None
            per["entropy_corr"][n].append(corr)
            pred, truth = q >= 0.5, p >= 0.5
            tp = (pred & truth).sum(axis=0)
            fp = (pred & ~truth).sum(axis=0)
            fn = (~pred & truth).sum(axis=0)
            has = (tp + fn) > 0
            per["macro_f1"][n].append((2 * tp[has] / (2 * tp[has] + fp[has] + fn[has])).mean())
            per["micro_f1"][n].append(2 * tp.sum() / (2 * tp.sum() + fp.sum() + fn.sum()))
            per["exact_set"][n].append((pred == truth).all(axis=1).mean())
    out = {}
    for m in names:
        out[m] = {}
        for n in grid:
            v = per[m][n]
            if any(x is None for x in v):
                out[m][str(n)] = None
            else:
                a = np.array(v, dtype=float)
                out[m][str(n)] = {"mean": float(a.mean()), "sd": float(a.std(ddof=1))}
    print(json.dumps(out))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sp = ap.add_subparsers(dest="cmd", required=True)
    add_curves(sp, curves, "ratings", seed=0)
    args = ap.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
