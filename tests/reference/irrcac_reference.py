#!/usr/bin/env python3
"""Gwet's AC1 and AC2 of a wide vote file by the PyPI package irrCAC (Gwet's own formulas, in
the package maintained from his R code), for trainer/tests/gwet.rs.

Each item's counts become a row of raters (its ratings, then empty cells), as irrCAC reads raw
ratings; the categories are the file's classes (numbers: an interval scale; else ranks in the
header's order), all of them, so a category nobody chose still counts in q.

  irrcac_reference.py VOTES.csv [--scale]   -> JSON {gwet_ac1: v, gwet_ac2_ordinal: v, ...}
"""
import argparse
import csv
import json
import sys

import numpy as np
import pandas as pd
from irrCAC.raw import CAC


def main():
    p = argparse.ArgumentParser()
    p.add_argument("votes")
    p.add_argument("--scale", action="store_true", help="also AC2 with ordinal, linear, quadratic weights")
    a = p.parse_args()
    with open(a.votes, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    classes = rows[0][1:]
    try:
        values = [float(c) for c in classes]
    except ValueError:
        values = [float(i + 1) for i in range(len(classes))]
    counts = np.array([[int(x) for x in r[1:]] for r in rows[1:]], dtype=np.int64)
    width = int(counts.sum(axis=1).max())
    table = np.full((len(counts), width), np.nan)
    for i, c in enumerate(counts):
        r = np.repeat(values, c)
        table[i, :len(r)] = r
    ratings = pd.DataFrame(table)
    out = {}
    kinds = [("gwet_ac1", "identity")]
    if a.scale:
        kinds += [("gwet_ac2_ordinal", "ordinal"), ("gwet_ac2_linear", "linear"),
                  ("gwet_ac2_quadratic", "quadratic")]
    for name, w in kinds:
        cac = CAC(ratings, weights=w, categories=sorted(values), digits=15)
        out[name] = float(cac.gwet()["est"]["coefficient_value"])
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
