#!/usr/bin/env python3
"""The known answer of the synthetic controls (`annosat synth`), computed apart from the Rust code
(numpy only): where KL and the entropy correlation saturate for learners that can, or cannot,
memorise an item's twin.

- *ideal memoriser*: knows each item's twin (`--twins` folders only); its prediction is
  (p_N of the twin + the mean p_N) / 2, p_N being N of the twin's votes drawn without replacement;
- *kNN, reimplemented*: the kNN baseline's definition written again from its docs — 10 folds (a
  fold tested, every 8th other item for validation, the rest for training), cosine on features
  centred on the training items and scaled to unit mean squared norm, the mean p_N of the k
  nearest training items plus one pseudo-item of the training mean, k ∈ {1, 2, 3, 5, 10, 20, 50,
  100} chosen by cross-entropy to the validation items' p_N; every item tested once.

Both are scored against the truth (truth.csv) like `annosat sweep --truth`: each metric's first N
capturing 90% of its N=1 → N=100 change, over `--repeats` draws of the votes (and, for kNN, of the
folds). Also: the share of items whose nearest other item by the features is their twin — near 1,
a learner can memorise; near 0, it cannot.

    python3 scripts/memoriser-control.py DIR... [--repeats 20] [--docs FILE]

--docs FILE rewrites the block between `<!-- memoriser:begin -->` and `<!-- memoriser:end -->` in
FILE with the results and the command that made them.
"""
import argparse
import csv
import json
import re
import struct
import sys
from pathlib import Path

import numpy as np

GRID = [1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 100]


def read(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return [r[0] for r in rows[1:]], np.array([[float(x) for x in r[1:]] for r in rows[1:]])


def features(path):
    """The F16 `features` tensor of a features.safetensors, read from its header by hand."""
    raw = path.read_bytes()
    (size,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + size])
    t = header["features"]
    assert t["dtype"] == "F16", t
    lo, hi = t["data_offsets"]
    return np.frombuffer(raw[8 + size + lo : 8 + size + hi], dtype="<f2").astype(np.float64).reshape(t["shape"])


def n90(values, rising):
    v = np.array(values)
    level = v[0] + 0.9 * (v[-1] - v[0])
    return next(n for n, x in zip(GRID, v) if (x >= level - 1e-12 if rising else x <= level + 1e-12))


KS = [1, 2, 3, 5, 10, 20, 50, 100]


def unit(x, train):
    z = x - x[train].mean(0)
    z /= np.sqrt(max(((x[train] - x[train].mean(0)) ** 2).sum(1).mean(), 1e-24))
    return z / np.maximum(np.linalg.norm(z, axis=1, keepdims=True), 1e-12)


def twin_is_nearest(x, twin):
    z = unit(x, np.arange(len(x)))
    sim = z @ z.T
    np.fill_diagonal(sim, -np.inf)
    return float(np.mean(sim.argmax(1) == twin))


def knn_folds(x, rng, folds=10):
    """Per fold: (test items, validation items, training items, nearest training items of each)."""
    idx = rng.permutation(len(x))
    out = []
    for f in range(folds):
        test = idx[f::folds]
        rest = np.array([i for p, i in enumerate(idx) if p % folds != f])
        val, train = rest[7::8], np.delete(rest, np.s_[7::8])
        z = unit(x, train)
        near = lambda items: train[np.argsort(-(z[items] @ z[train].T), axis=1, kind="stable")[:, : KS[-1]]]
        out.append((test, val, train, near(val), near(test)))
    return out


def knn_predict(p, fold):
    test, val, train, nv, nt = fold
    const = p[train].mean(0)
    ks = [k for k in KS if k <= len(train)]
    pred = lambda nb, k: (p[nb[:, :k]].sum(1) + const) / (k + 1)
    ce = [-(p[val] * np.log(np.maximum(pred(nv, k), 1e-15))).sum() for k in ks]
    return pred(nt, ks[int(np.argmin(ce))])


def scores(q, truth, h_truth):
    kl = np.mean((truth * (np.log(np.clip(truth, 1e-300, None)) - np.log(np.maximum(q, 1e-15)))).sum(1))
    r = np.corrcoef(-(q * np.log(np.clip(q, 1e-300, None))).sum(1), h_truth)[0, 1]
    return kl, r


def study(folder, repeats):
    ids, truth = read(folder / "truth.csv")
    ids2, counts = read(folder / "votes.csv")
    assert ids == ids2, "truth.csv and votes.csv list other items"
    counts = counts.astype(int)
    k = truth.shape[1]
    twins = "twin" in (folder / "SOURCE.md").read_text() if (folder / "SOURCE.md").exists() else False
    twin = np.arange(len(ids)) ^ 1
    x = features(folder / "features.safetensors")
    h_truth = -(truth * np.log(np.clip(truth, 1e-300, None))).sum(1)
    rng = np.random.default_rng(0)
    points = {"memoriser": [], "knn": []}
    for _ in range(repeats):
        votes = [rng.permutation(np.repeat(np.arange(k), c)) for c in counts]
        folds = knn_folds(x, rng)
        curves = {"memoriser": ([], []), "knn": ([], [])}
        for n in GRID:
            p = np.stack([np.bincount(v[:n], minlength=k) for v in votes]) / n
            q = np.zeros_like(p)
            for fold in folds:
                q[fold[0]] = knn_predict(p, fold)
            for name, pred in [("memoriser", (p[twin] + p.mean(0)) / 2), ("knn", q)]:
                kl, r = scores(pred, truth, h_truth)
                curves[name][0].append(kl)
                curves[name][1].append(r)
        for name, (kl, r) in curves.items():
            points[name].append((n90(kl, False), n90(r, True), r[-1] - r[0]))
    out = {"name": folder.name, "repeats": repeats, "nearest": twin_is_nearest(x, twin) if twins else None}
    for name, pts in points.items():
        if name == "memoriser" and not twins:
            continue
        out[name] = {
            "kl": sorted(p[0] for p in pts),
            "r": sorted(p[1] for p in pts),
            "first": sum(p[0] < p[1] for p in pts),
            "dr": sorted(p[2] for p in pts),
        }
    return out


def words(s):
    med = lambda v: v[(len(v) - 1) // 2]  # the lower median: a grid N
    parts = []
    for name, label in [("memoriser", "ideal memoriser"), ("knn", "kNN reimplemented")]:
        if name in s:
            m = s[name]
            parts.append(
                f"{label}: KL N={med(m['kl'])} ({m['kl'][0]}–{m['kl'][-1]}), entropy correlation "
                f"N={med(m['r'])} ({m['r'][0]}–{m['r'][-1]}), KL first in {m['first']} of {s['repeats']}; "
                f"entropy correlation change N=1 → 100 {med(m['dr']):+.3f} ({m['dr'][0]:+.3f} to {m['dr'][-1]:+.3f})"
            )
    near = "" if s["nearest"] is None else f"; the twin is the nearest item by the features for {s['nearest']:.0%} of items"
    return f"`{s['name']}`: " + "; ".join(parts) + near


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dirs", type=Path, nargs="+")
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--docs", type=Path)
    a = ap.parse_args()
    lines = [words(study(d, a.repeats)) for d in a.dirs]
    for line in lines:
        print(line)
    if a.docs:
        names = " ".join(f"DIR/{d.name}" for d in a.dirs)
        block = (
            "<!-- memoriser:begin -->\n"
            f"`python3 scripts/memoriser-control.py {names} --repeats {a.repeats}` (the folders "
            "`scripts/sweep-all.sh` makes with `annosat synth`) gives each learner's 90% points, "
            "median (range) over the vote draws:\n\n"
            + "".join(f"- {line}\n" for line in lines)
            + "<!-- memoriser:end -->"
        )
        text = a.docs.read_text()
        new, n = re.subn(r"<!-- memoriser:begin -->.*?<!-- memoriser:end -->", lambda _: block, text, flags=re.S)
        if n != 1:
            sys.exit(f"{a.docs}: no memoriser:begin/end block")
        a.docs.write_text(new)


if __name__ == "__main__":
    main()
