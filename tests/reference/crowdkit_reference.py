#!/usr/bin/env python3
"""Dawid–Skene with PyPI's `crowd-kit` (1.4.2, its DawidSkene: 100 EM rounds at most, tol 1e-5) on a
long votes file `item_id,annotator_id,label` — the cross-check for annosat_core::agreement::
dawid_skene (trainer/tests/agree.rs). Labels are read as text, so classes are compared by name.

  crowdkit_reference.py ANNOTATIONS.csv  -> JSON {"iterations": …, "items": {id: {class: p}}}
"""
import json
import sys

import pandas as pd
from crowdkit.aggregation import DawidSkene


def main():
    df = pd.read_csv(sys.argv[1], dtype=str, keep_default_na=False, encoding="utf-8-sig")
    df.columns = ["task", "worker", "label"]
    df = df.apply(lambda s: s.str.strip())
    ds = DawidSkene(n_iter=100, tol=1e-5).fit(df)
    items = {str(t): {str(c): float(p) for c, p in row.items()} for t, row in ds.probas_.iterrows()}
    print(json.dumps({"iterations": len(ds.loss_history_), "items": items}))


if __name__ == "__main__":
    main()
