#!/usr/bin/env python3
"""Convert ChaosNLI v1.0 jsonl files (SRC dir) into OUT/<set>/votes.csv (+ votes_old5.csv, items.jsonl).

Kept for callers that have the three chaosNLI_*.jsonl files in one folder (trainer/tests/
download_converter.rs); it runs the same converter as scripts/download/fetch.py, which downloads
and converts every dataset. Column order matches the project's data: entailment,neutral,
contradiction (SNLI, MNLI) and hyp1,hyp2 (alphaNLI).
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "download"))
from fetch import convert  # noqa: E402
from sources import BY_NAME  # noqa: E402

src, out = sys.argv[1], sys.argv[2]
for name in ["chaosnli_snli", "chaosnli_mnli", "chaosnli_alphanli"]:
    ds = BY_NAME[name]
    d = os.path.join(out, name)
    os.makedirs(os.path.join(d, "original"), exist_ok=True)
    jsonl = ds.originals[0].local
    # Keep the source file as given, as the shared datasets do (tests re-convert it).
    if os.path.abspath(src) != os.path.abspath(os.path.join(d, "original")):
        shutil.copy(os.path.join(src, jsonl), os.path.join(d, "original"))
    convert(ds, src, d)
    print(name, file=sys.stderr)
