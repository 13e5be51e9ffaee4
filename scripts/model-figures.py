#!/usr/bin/env python3
"""Prints the figures the README's "What the MiniLM heads show" paragraph quotes, from the committed
manifests (public/models/<dataset>/manifest.json): the largest mean entropy correlation over arms and
N, soft vs hard KL at N=100, and how many (split, seed) units have soft below hard on KL at N=10."""
import json
import statistics as st
import sys
from pathlib import Path

models = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "public/models")
for ds in ["chaosnli_snli", "chaosnli_mnli", "chaosnli_alphanli"]:
    m = json.loads((models / ds / "manifest.json").read_text())
    by = {}
    for r in m["runs"]:
        by.setdefault((r["arm"], r["n"]), []).append(r)
    ec = {k: st.mean(x["metrics"]["entropy_corr"] for x in v if x["metrics"]["entropy_corr"] is not None)
          for k, v in by.items() if any(x["metrics"]["entropy_corr"] is not None for x in v)}
    (arm, n), top = max(ec.items(), key=lambda kv: kv[1])
    kl = lambda arm, n: st.mean(x["metrics"]["kl"] for x in by[(arm, n)])
    hard, soft = kl("hard", 100), kl("soft", 100)
    unit = {(x["split"], x["seed"]): x["metrics"]["kl"] for x in by[("soft", 10)]}
    wins = sum(x["metrics"]["kl"] > unit[(x["split"], x["seed"])] for x in by[("hard", 10)])
    print(f"{ds}: max mean entropy correlation {top:.3f} ({arm}, N={n}); KL at N=100 hard {hard:.3f} -> "
          f"soft {soft:.3f} ({(soft / hard - 1) * 100:+.1f}%); soft < hard on KL at N=10 in {wins} of {len(unit)} runs")
