#!/usr/bin/env python3
"""How far `annosat extrapolate` can be trusted, on data that have the votes.

Each dense dataset (ChaosNLI SNLI, MNLI and αNLI: 100 votes per item; CIFAR-10H: 47 or more) is cut
to M = 5, 10 and 20 votes per item, extrapolated back and compared with its own curves (`annosat
extrapolate --check`); the first tables give (extrapolated − actual) / |actual| in percent per metric,
M and N. The fit check of the prior on the full votes says how well it describes each set. The last
table compares the 90% points themselves, over three cuts (seeds): the extrapolated point, its 95%
interval over items (the prior refitted on every item resample) and whether that interval contains
the point of the data that have the votes; the coverage is counted over every set, metric, M and seed.

  scripts/extrapolation_check.py ANNOSAT_BIN DATA_DIR [--readme docs/plan.md]
"""
import csv
import io
import json
import subprocess
import sys

# (set, votes per item every item has: the reference the cut data are extrapolated back to)
SETS = [("chaosnli_snli", 100), ("chaosnli_mnli", 100), ("chaosnli_alphanli", 100), ("cifar10h", 47)]
SEEDS = 3
MS = "5,10,20"
NS = [2, 5, 10, 20, 50]
REPEATS = "20"
METRICS = ["kl", "jsd", "entropy_corr", "majority_agreement"]


def run(binary, *args):
    return subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout


def points_table(point_rows):
    """The 90% points: full data vs extrapolated from M votes, per seed, and the coverage."""
    fmt = lambda v: "–" if v is None else str(v)
    out = ["**The 90% point itself**: the data's own point with all M' votes, and per cut (seed) the point "
           "extrapolated from M votes with its 95% interval over items; ✓ where the interval contains the "
           "data's point.", "",
           "| set | metric | M | with M' votes | " + " | ".join(f"seed {i + 1}" for i in range(SEEDS)) + " | mean error |",
           "|---|---|---|---|" + "---|" * SEEDS + "---|"]
    groups = {}
    for name, ref, p in point_rows:
        groups.setdefault((name, ref, p["metric"], p["m"]), []).append(p)
    by_metric, total, hit = {}, 0, 0
    for (name, ref, metric, m), ps in groups.items():
        ps.sort(key=lambda p: p["seed"])
        cells = []
        for p in ps:
            mark = {True: " ✓", False: " ✗", None: ""}[p["contained"]]
            cells.append(f"{fmt(p['extrapolated'])} ({fmt(p['lo'])}–{fmt(p['hi'])}){mark}")
            if p["contained"] is not None:
                total += 1
                hit += p["contained"]
                t = by_metric.setdefault(metric, [0, 0])
                t[0] += p["contained"]
                t[1] += 1
        errs = [p["error"] for p in ps if p["error"] is not None]
        mean_err = f"{sum(errs) / len(errs):+.1f}" if errs else "–"
        actual = ps[0]["actual"]
        out.append(f"| {name} | {metric} | {m} | {fmt(actual)} | " + " | ".join(cells) + f" | {mean_err} |")
    share = 100 * hit / max(total, 1)
    per = ", ".join(f"{m} {a} of {b}" for m, (a, b) in by_metric.items())
    out += ["", f"Coverage: the extrapolated 90% point's interval over items contained the point of the data "
            f"that have the votes in {hit} of {total} checks ({share:.0f}%; {per})."]
    # Where the misses come from: the mean error per metric and M, over every set and seed.
    errs = {}
    for _, _, p in point_rows:
        if p["error"] is not None:
            errs.setdefault(p["metric"], {}).setdefault(p["m"], []).append(p["error"])
    parts = []
    for metric, by_m in errs.items():
        cells = ", ".join(f"{sum(v) / len(v):+.1f} from {m}" for m, v in sorted(by_m.items()))
        low = sum(e < 0 for v in by_m.values() for e in v)
        n = sum(len(v) for v in by_m.values())
        parts.append(f"{metric} {cells} (below the data's point in {low} of {n})")
    out.append("Mean error of the extrapolated point in N, per metric and M over every set and seed: "
               + "; ".join(parts) + ". An error of one sign in most checks is a bias of the prior's model, "
               "which the interval over items does not hold.")
    return out


def main():
    binary, data = sys.argv[1], sys.argv[2]
    readme = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--readme" else None
    command = "scripts/extrapolation-check.sh" + (" --readme" if readme else "")
    lines = [f"Written by `{command}` from its run (`annosat extrapolate --check {MS} --check-seeds {SEEDS} "
             f"--reference-votes M' --n {','.join(map(str, NS))} --repeats {REPEATS} --format json` per set): "
             "relative error of the extrapolated mean, (extrapolated − actual) / |actual|, in percent "
             "(first seed).", ""]
    worst, worst_one = {}, {}
    point_rows = []
    for name, ref in SETS:
        votes = f"{data}/{name}/votes.csv"
        fit = json.loads(run(binary, "extrapolate", "--votes", votes, "--reference-votes", str(ref), "--n", "2",
                             "--repeats", "2", "--draws", "1", "--bootstrap", "0", "--format", "json"))
        tv = fit["fit_check"]["total_variation"]
        checked = json.loads(run(
            binary, "extrapolate", "--votes", votes, "--reference-votes", str(ref), "--check", MS,
            "--check-seeds", str(SEEDS), "--n", ",".join(map(str, NS)), "--repeats", REPEATS, "--format", "json"))
        first = min(r["seed"] for r in checked["rows"])
        rows = [r for r in checked["rows"] if r["seed"] == first]
        point_rows += [(name, ref, p) for p in checked["points"]]
        err = {(r["metric"], int(r["m"]), int(r["n"])): r["relative_error"] for r in rows}
        # The same check with one Dirichlet forced: what the mixture (BIC's choice) changes.
        for r in csv.DictReader(io.StringIO(run(
                binary, "extrapolate", "--votes", votes, "--reference-votes", str(ref), "--check", MS,
                "--n", ",".join(map(str, NS)), "--repeats", REPEATS, "--components", "1", "--bootstrap", "0"))):
            if r["relative_error"] and r["metric"] in ("kl", "jsd"):
                key = (name, int(r["m"]))
                worst_one[key] = max(worst_one.get(key, 0.0), abs(float(r["relative_error"])))
        chosen = len(fit["prior"]["components"])
        lines += [f"**{name}** (prior on its {ref} votes: {chosen} Dirichlet{'s' if chosen > 1 else ''} by BIC, "
                  f"fit-check total variation {tv:.3f})", "",
                  "| metric | M | " + " | ".join(f"N={n}" for n in NS) + " |",
                  "|---|---|" + "---|" * len(NS)]
        for metric in METRICS:
            for m in map(int, MS.split(",")):
                cells = []
                for n in NS:
                    e = err.get((metric, m, n))
                    cells.append(f"{100 * float(e):+.1f}" if e is not None else "–")
                    if e is not None and metric in ("kl", "jsd"):
                        key = (name, m)
                        worst[key] = max(worst.get(key, 0.0), abs(float(e)))
                lines.append(f"| {metric} | {m} | " + " | ".join(cells) + " |")
        lines.append("")
    summary = "; ".join(f"{name} from M={m}: {100 * w:.1f}% ({100 * worst_one[(name, m)]:.1f}%)"
                        for (name, m), w in sorted(worst.items()))
    lines.append("Largest KL or JS-distance error over N with the prior BIC chose (in brackets: one Dirichlet "
                 f"forced, `--components 1`): {summary}.")
    lines += ["", *points_table(point_rows)]
    text = "\n".join(lines)
    print(text)
    if readme:
        sys.path.insert(0, "scripts")
        from bench_readme import write_block
        write_block(readme, "extrapolation", [text])


if __name__ == "__main__":
    main()
