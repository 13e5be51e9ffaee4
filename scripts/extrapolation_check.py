#!/usr/bin/env python3
"""How far `annosat extrapolate` can be trusted, on data that have the votes.

Each dense dataset (ChaosNLI SNLI, MNLI and αNLI: 100 votes per item) is cut to M = 5, 10 and 20
votes per item, extrapolated back to 100 and compared with its own curves (`annosat extrapolate
--check`); the table gives (extrapolated − actual) / |actual| in percent per metric, M and N. The fit
check of one Dirichlet on the full 100 votes says how well a single prior describes each set.

  scripts/extrapolation_check.py ANNOSAT_BIN DATA_DIR [--readme README.md]
"""
import csv
import io
import json
import subprocess
import sys

SETS = ["chaosnli_snli", "chaosnli_mnli", "chaosnli_alphanli"]
MS = "5,10,20"
NS = [2, 5, 10, 20, 50]
REPEATS = "20"
METRICS = ["kl", "jsd", "entropy_corr", "majority_agreement"]


def run(binary, *args):
    return subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout


def main():
    binary, data = sys.argv[1], sys.argv[2]
    readme = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--readme" else None
    command = "scripts/extrapolation-check.sh" + (" --readme" if readme else "")
    lines = [f"Written by `{command}` from its run (`annosat extrapolate --check {MS} --reference-votes 100 "
             f"--n {','.join(map(str, NS))} --repeats {REPEATS}` per set): relative error of the extrapolated "
             "mean, (extrapolated − actual) / |actual|, in percent.", ""]
    worst, worst_one = {}, {}
    for name in SETS:
        votes = f"{data}/{name}/votes.csv"
        fit = json.loads(run(binary, "extrapolate", "--votes", votes, "--reference-votes", "100", "--n", "2",
                             "--repeats", "2", "--draws", "1", "--format", "json"))
        tv = fit["fit_check"]["total_variation"]
        rows = list(csv.DictReader(io.StringIO(run(
            binary, "extrapolate", "--votes", votes, "--reference-votes", "100", "--check", MS,
            "--n", ",".join(map(str, NS)), "--repeats", REPEATS))))
        err = {(r["metric"], int(r["m"]), int(r["n"])): r["relative_error"] for r in rows}
        # The same check with one Dirichlet forced: what the mixture (BIC's choice) changes.
        for r in csv.DictReader(io.StringIO(run(
                binary, "extrapolate", "--votes", votes, "--reference-votes", "100", "--check", MS,
                "--n", ",".join(map(str, NS)), "--repeats", REPEATS, "--components", "1"))):
            if r["relative_error"] and r["metric"] in ("kl", "jsd"):
                key = (name, int(r["m"]))
                worst_one[key] = max(worst_one.get(key, 0.0), abs(float(r["relative_error"])))
        chosen = len(fit["prior"]["components"])
        lines += [f"**{name}** (prior on its 100 votes: {chosen} Dirichlet{'s' if chosen > 1 else ''} by BIC, "
                  f"fit-check total variation {tv:.3f})", "",
                  "| metric | M | " + " | ".join(f"N={n}" for n in NS) + " |",
                  "|---|---|" + "---|" * len(NS)]
        for metric in METRICS:
            for m in map(int, MS.split(",")):
                cells = []
                for n in NS:
                    e = err.get((metric, m, n), "")
                    cells.append(f"{100 * float(e):+.1f}" if e else "–")
                    if e and metric in ("kl", "jsd"):
                        key = (name, m)
                        worst[key] = max(worst.get(key, 0.0), abs(float(e)))
                lines.append(f"| {metric} | {m} | " + " | ".join(cells) + " |")
        lines.append("")
    summary = "; ".join(f"{name} from M={m}: {100 * w:.1f}% ({100 * worst_one[(name, m)]:.1f}%)"
                        for (name, m), w in sorted(worst.items()))
    lines.append("Largest KL or JS-distance error over N with the prior BIC chose (in brackets: one Dirichlet "
                 f"forced, `--components 1`): {summary}.")
    text = "\n".join(lines)
    print(text)
    if readme:
        sys.path.insert(0, "scripts")
        from bench_readme import write_block
        write_block(readme, "extrapolation", [text])


if __name__ == "__main__":
    main()
