#!/usr/bin/env python3
"""Convert ChaosNLI v1.0 jsonl files (SRC dir) into OUT/<set>/votes.csv (+ votes_old5.csv, items.jsonl).

Used by fetch-data.sh when ../shared/data is not there. Column order matches the project's data:
entailment,neutral,contradiction (SNLI, MNLI) and hyp1,hyp2 (alphaNLI).
"""
import collections
import csv
import json
import os
import shutil
import sys

src, out = sys.argv[1], sys.argv[2]
NLI = ["entailment", "neutral", "contradiction"]
for sub, name in [("snli", "chaosnli_snli"), ("mnli_m", "chaosnli_mnli"), ("alphanli", "chaosnli_alphanli")]:
    rows = [json.loads(line) for line in open(os.path.join(src, f"chaosNLI_{sub}.jsonl"), encoding="utf-8")]
    d = os.path.join(out, name)
    os.makedirs(os.path.join(d, "original"), exist_ok=True)
    # Keep the source file as downloaded, as the shared datasets do (tests re-convert it).
    if os.path.abspath(src) != os.path.abspath(os.path.join(d, "original")):
        shutil.copy(os.path.join(src, f"chaosNLI_{sub}.jsonl"), os.path.join(d, "original"))
    alpha = sub == "alphanli"
    classes = ["hyp1", "hyp2"] if alpha else NLI
    keys = ["1", "2"] if alpha else ["e", "n", "c"]
    with open(os.path.join(d, "votes.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["item_id"] + classes)
        for r in rows:
            w.writerow([r["uid"]] + [r["label_counter"].get(k, 0) for k in keys])
    if not alpha:
        with open(os.path.join(d, "votes_old5.csv"), "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["item_id"] + classes)
            for r in rows:
                c = collections.Counter(r["old_labels"])
                w.writerow([r["uid"]] + [c.get(k, 0) for k in NLI])
    with open(os.path.join(d, "items.jsonl"), "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps({"item_id": r["uid"], **r["example"]}) + "\n")
    print(name, len(rows), file=sys.stderr)
