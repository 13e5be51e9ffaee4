#!/usr/bin/env python3
"""Krippendorff's α of a wide votes file with the PyPI package `krippendorff` (Santiago Castro's
implementation), from the items' value counts — the cross-check for annosat_core::agreement::alpha
(trainer/tests/agree.rs).

  krippendorff_reference.py VOTES.csv [--level nominal|ordinal|interval]  -> JSON {"alpha": …}

Ordinal ranks the classes in the file's column order; interval reads the class names as numbers.
"""
import argparse
import csv
import json

import krippendorff
import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("votes")
    ap.add_argument("--level", default="nominal", choices=["nominal", "ordinal", "interval"])
    a = ap.parse_args()
    with open(a.votes, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    counts = np.array([[int(x) for x in r[1:]] for r in rows[1:]], dtype=float)
    if a.level == "interval":
        domain = [float(c) for c in rows[0][1:]]
    else:
        domain = list(range(counts.shape[1]))
    alpha = krippendorff.alpha(value_counts=counts, value_domain=domain, level_of_measurement=a.level)
    print(json.dumps({"alpha": float(alpha)}))


if __name__ == "__main__":
    main()
