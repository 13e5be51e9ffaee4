#!/usr/bin/env python3
"""The generated part of docs/compare.md: `annosat compare` on two arms of the bundled ChaosNLI-SNLI
export (hard labels against soft labels), the total-variation budget table and the sentences that
read it; the papers' setting (two models close to the humans, built from each item's 100-vote
distribution) with the most powerful split per metric; and the few-vote check (the same comparison
from each item's 5 original votes, extrapolated, against its 100 votes) — every number from this
run, with the command that reruns it.

  python3 scripts/compare_docs.py BIN DATA docs/compare.md   (scripts/compare-docs.sh runs it)
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from bench_readme import write_block  # noqa: E402

N = "1,2,3,5,7,10,15,20,30,50,100"
ITEMS = "50,100,200,500,1000,2000,5000,10000,20000"
EXPORT = "public/models/chaosnli_snli"
BUDGET = 20000


def run(bin_, *args):
    out = subprocess.run([bin_, "compare", *args, "--format", "json"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def along(report, metric, votes):
    """{N: cell} of the cells simulated along `votes`."""
    return {c["n"]: cell for c in report["columns"] for v, cell in c["along"]
            if v == votes and cell["metric"] == metric}


CUT_SEED = 5


def cut_file(votes, m):
    """A temporary wide vote file with m of each item's votes, drawn without replacement."""
    import csv
    import tempfile
    import numpy as np
    rng = np.random.default_rng(CUT_SEED)
    rows = list(csv.reader(open(votes, newline="", encoding="utf-8")))
    fd, path = tempfile.mkstemp(suffix=".csv")
    with os.fdopen(fd, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(rows[0])
        for r in rows[1:]:
            c = np.array([int(x) for x in r[1:]])
            pick = rng.permutation(np.repeat(np.arange(len(c)), c))[:m]
            w.writerow([r[0]] + list(np.bincount(pick, minlength=len(c))))
    return path


def grid_cell(report, metric, items, n):
    for c in report["columns"]:
        for cell in c["cells"]:
            if cell["metric"] == metric and cell["items"] == items and cell["n"] == n:
                return cell
    return None


CLOSE_SEED = 1
CLOSE = (20, 40)
CLOSE_N = "1,2,3,5,7,10,15,20,30,50"
CLOSE_ITEMS = "10,20,50,100,200,500,1000,2000,5000,10000"
CLOSE_METRICS = [("tv", "total variation"), ("js", "JS distance"), ("kl", "KL"), ("accuracy", "accuracy")]


def close_models(votes, folder):
    """Two prediction files close to the humans, as the papers simulate models: each item's
    distribution redrawn from a Dirichlet centred on its 100-vote distribution, with concentration
    CLOSE[0] for A and CLOSE[1] for B (B is closer on average, not on every item). Returns each
    model's mean total variation to the 100 votes."""
    import csv
    import numpy as np
    rng = np.random.default_rng(CLOSE_SEED)
    rows = list(csv.reader(open(votes, newline="", encoding="utf-8")))
    tv = []
    for name, c in zip(("a.csv", "b.csv"), CLOSE):
        with open(os.path.join(folder, name), "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(rows[0])
            dist = []
            for r in rows[1:]:
                p = np.array([float(x) for x in r[1:]])
                p /= p.sum()
                q = rng.dirichlet(c * p + 0.05)
                dist.append(0.5 * np.abs(q - p).sum())
                w.writerow([r[0]] + [repr(float(x)) for x in q])
        tv.append(float(np.mean(dist)))
    return tv


def close_section(bin_, votes, hs_n):
    """The papers' qualitative finding, shown on the bundled 100-vote set."""
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        tv = close_models(votes, folder)
        rep = run(bin_, "--votes", votes, "--a", os.path.join(folder, "a.csv"), "--b",
                  os.path.join(folder, "b.csv"), "--n", CLOSE_N, "--item-counts", CLOSE_ITEMS)
    r = rep["report"]
    out = [f"Korn et al.'s models are close to the humans and to each other. The same set with two "
           f"such models (numpy seed {CLOSE_SEED}): each item's distribution redrawn from a Dirichlet "
           f"centred on its 100 votes with concentration {CLOSE[0]} (A, mean total variation "
           f"{tv[0]:.3f} to the 100 votes) and {CLOSE[1]} (B, {tv[1]:.3f}), so B is closer on average "
           f"but not on every item; `--n {CLOSE_N} --item-counts {CLOSE_ITEMS}`, the file's 100 votes "
           f"left out of the grid so that no cell is the reference itself:", "",
           "```"] + [ln for ln in rep["lines"] if ln.startswith("power:")] + ["```", ""]
    best = {m: {b["votes"]: b for b in r["budgets"] if b["metric"] == m} for m, _ in CLOSE_METRICS}
    shown = [v for v in sorted(best["tv"]) if 0.1 <= best["tv"][v]["power"] <= 0.99]
    out += ["Most powerful split per budget (items × votes per item, its power):", "",
            "| votes | " + " | ".join(w for _, w in CLOSE_METRICS) + " |",
            "|---:|" + "---|" * len(CLOSE_METRICS)]
    for v in shown:
        cells = [f"{best[m][v]['items']:,} × {best[m][v]['n']} ({best[m][v]['power']:.2f})"
                 for m, _ in CLOSE_METRICS]
        out.append(f"| {v:,} | " + " | ".join(cells) + " |")
    out.append("")
    # Each metric's span of best splits over the budgets where its own power is informative.
    ns = {m: sorted({b["n"] for b in best[m].values() if 0.1 <= b["power"] <= 0.99})
          for m, _ in CLOSE_METRICS}
    span = {m: f"{n[0]}" if n[0] == n[-1] else f"{n[0]}–{n[-1]}" for m, n in ns.items()}
    verdict = ("more than 10 votes per item, as Korn et al. report" if ns["tv"][0] > 10 else
               "not always more than 10 votes per item")
    out += [f"From {shown[0]:,} to {shown[-1]:,} votes (where total variation's power lies between "
            f"0.1 and 0.99) the most powerful split for total variation uses {span['tv']} votes per "
            f"item: {verdict}. Where their own power lies in that range, JS "
            f"distance's uses {span['js']}, KL's {span['kl']}, accuracy's {span['accuracy']}: the more a metric reads the whole distribution, the more votes per "
            f"item pay. For the bundled hard and soft models above the most powerful split for total "
            f"variation at {BUDGET:,} votes used {hs_n} votes per item; the closer two models are to "
            f"the humans and to each other, the more votes per item an evaluation needs.", ""]
    return out


def main():
    bin_, data, doc = sys.argv[1:4]
    votes = os.path.join(data, "chaosnli_snli", "votes.csv")
    args = ["--votes", votes, "--a", f"{EXPORT}:hard", "--b", f"{EXPORT}:soft"]
    full = run(bin_, *args, "--n", N, "--item-counts", ITEMS)
    r = full["report"]
    cmd = (f"annosat compare --votes $ANNOSAT_DATA/chaosnli_snli/votes.csv --a {EXPORT}:hard "
           f"--b {EXPORT}:soft --n {N} --item-counts {ITEMS}")
    out = [f"Written by `scripts/compare-docs.sh` from this run of `{cmd}` "
           f"({r['config']['resamples']:,} simulated evaluations per cell, seed {r['config']['seed']}):", ""]
    out += ["```"] + [ln for ln in full["lines"] if ln.startswith(("observed:", "power:", "wrong way:"))] + ["```", ""]

    budgets = [b for b in r["budgets"] if b["metric"] == "tv"]
    out += ["Total variation along fixed budgets (each split simulated; 1 and 3 votes per item where "
            "the items fit the grid):", "",
            "| votes | most powerful split | its power | power at 3 votes per item | at 1 vote: power, opposite finding |",
            "|---:|---|---:|---:|---:|"]
    for b in budgets:
        cells = along(r, "tv", b["votes"])
        three = f"{cells[3]['power']:.2f}" if 3 in cells else "–"
        one = f"{cells[1]['power']:.2f}, {cells[1]['wrong_sign']:.2f}" if 1 in cells else "–"
        out.append(f"| {b['votes']:,} | {b['items']:,} items × {b['n']} vote{'s' if b['n'] > 1 else ''} | {b['power']:.2f} | {three} | {one} |")
    out.append("")

    best = next(b for b in budgets if b["votes"] == BUDGET)
    cells = along(r, "tv", BUDGET)
    near = sorted(n for n, c in cells.items() if c["power"] >= best["power"] - 0.05)
    one_item = grid_cell(r, "tv", 5000, 1)
    three = cells.get(3)
    sentence = (f"At {BUDGET:,} votes the most powerful split for total variation is "
                f"{best['items']:,} items × {best['n']} votes per item (power {best['power']:.2f}); "
                f"every split within 0.05 of it uses {near[0] if near[0] == near[-1] else f'{near[0]}–{near[-1]}'} votes per item")
    if three:
        sentence += f", while 3 votes per item reach {three['power']:.2f}"
    sentence += "."
    if one_item:
        sentence += (f" With one vote per item, evaluations of 5,000 items find the opposite of the "
                     f"file's difference in {one_item['wrong_sign']:.0%} of runs: one vote measures "
                     f"how much probability a model puts on a random annotator's label, not how close "
                     f"its distribution is.")
    verdict = ("more than 10, as Korn et al. report" if best["n"] > 10 else
               f"{best['n']}, not more than 10 as Korn et al. report for their models, but far above "
               f"the usual 3–5" if best["n"] >= 6 else f"{best['n']}")
    sentence += f" The most powerful number of votes per item here is {verdict}."
    out += [sentence, ""]
    out += close_section(bin_, votes, best["n"])

    # Few votes: 5 of each item's 100 votes (a seeded cut), extrapolated, against all 100.
    cut = cut_file(votes, 5)
    gaps = {}
    try:
        ns = "10,20,50"
        few = run(bin_, "--votes", cut, "--a", f"{EXPORT}:hard", "--b", f"{EXPORT}:soft",
                  "--n", ns, "--item-counts", "1000")["report"]
        out += [f"The same comparison from 5 of each item's 100 votes (drawn without replacement, "
                f"numpy seed {CUT_SEED}; `--n {ns} --item-counts 1000`): past 5 votes the pool draws "
                f"from the extrapolation's posterior. Against the 100-vote file at 1,000 items:", "",
                "| metric | N | B − A, 100 votes | B − A, from 5 | power, 100 votes | power, from 5 |",
                "|---|---:|---:|---:|---:|---:|"]
        for m in ["kl", "js", "tv", "entropy_corr"]:
            for n in [10, 20, 50]:
                a, b = grid_cell(r, m, 1000, n), grid_cell(few, m, 1000, n)
                if a and b:
                    out.append(f"| {m} | {n} | {a['diff']:.4f} | {b['diff']:.4f} | {a['power']:.2f} | {b['power']:.2f} |")
                    gaps.setdefault(m, []).append((b["diff"] / a["diff"], b["power"] - a["power"]))
        out.append("")
        words = []
        for m, g in gaps.items():
            r = [x[0] for x in g]
            p = [x[1] for x in g]
            words.append(f"{m}: {min(r):.2f}–{max(r):.2f} times the 100-vote difference, power "
                         f"{min(p):+.2f} to {max(p):+.2f}")
        out += ["From 5 votes per item, extrapolated: " + "; ".join(words) + ". Past a file's votes "
                "the power is an estimate from what the votes say about each item, not a bound "
                "in either direction; where it matters, a pilot with more votes on some items "
                "(the Plan room's pilot advice) settles it.", ""]
    finally:
        os.remove(cut)
    write_block(doc, "compare-example", out)


if __name__ == "__main__":
    main()
