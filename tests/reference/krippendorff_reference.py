#!/usr/bin/env python3
"""Krippendorff's α (nominal) of a wide votes file with the PyPI package `krippendorff`
(Santiago Castro's implementation), from the items' value counts — the cross-check for
annosat_core::agreement (trainer/tests/agree.rs).

  krippendorff_reference.py VOTES.csv   -> JSON {"alpha": …}
"""
import csv
import json
import sys

import krippendorff
import numpy as np


def main():
    with open(sys.argv[1], newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    counts = np.array([[int(x) for x in r[1:]] for r in rows[1:]], dtype=float)
    print(json.dumps({"alpha": float(krippendorff.alpha(value_counts=counts, level_of_measurement="nominal"))}))


if __name__ == "__main__":
    main()
