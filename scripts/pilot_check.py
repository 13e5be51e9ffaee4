#!/usr/bin/env python3
"""The pilot's closed loop on real votes: a dense set cut to few votes per item, the pilot that
`annosat curves` recommends for each wide answer, then those real votes added to the cut file (the
pilot's items keep their few votes and get the rest from their own real ones) and the file
answered again. Each row: the answer before, the pilot and the width it promised, the answer
after, and the full data's own point.

  scripts/pilot_check.py ANNOSAT_BIN DATA_DIR [--docs FILE]   (scripts/pilot-check.sh)
"""
import csv
import json
import os
import random
import subprocess
import sys
import tempfile

SETS = [("chaosnli_snli", 100), ("chaosnli_alphanli", 100)]
CUT = 5
SEED = 1
LABEL = {"kl": "KL", "jsd": "JS distance", "entropy_corr": "entropy correlation",
         "majority_agreement": "majority agreement"}


def read(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return rows[0], [(r[0], list(map(int, r[1:]))) for r in rows[1:]]


def write(path, header, items):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for i, c in items:
            w.writerow([i] + c)


def draw(counts, n, rng):
    """n of the votes `counts` hold, without replacement; returns (drawn, left)."""
    pool = [k for k, c in enumerate(counts) for _ in range(c)]
    rng.shuffle(pool)
    got = [0] * len(counts)
    for k in pool[:n]:
        got[k] += 1
    return got, [a - b for a, b in zip(counts, got)]


def curves(binary, path):
    out = subprocess.run([binary, "curves", "--votes", path, "--format", "json"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)["headline"]


def span(h):
    it = h["items"] or {}
    hi = it.get("hi")
    return f"{h['n']} ({it.get('lo')}–{hi if hi is not None else 'over 100'})"


def half(h):
    it = h["items"] or {}
    if h["n"] is None or it.get("lo") is None or it.get("hi") is None:
        return None
    return (it["hi"] - it["lo"]) / 2 / h["n"]


def holds(h, actual):
    it = h["items"] or {}
    return it.get("lo") is not None and it["lo"] <= actual and (it.get("hi") is None or actual <= it["hi"])


def main():
    binary, data = sys.argv[1], sys.argv[2]
    opts = dict(zip(sys.argv[3::2], sys.argv[4::2]))
    rows = []
    tmp = tempfile.mkdtemp()
    for name, ref in SETS:
        path = os.path.join(data, name, "votes.csv")
        header, items = read(path)
        full = curves(binary, path)
        rng = random.Random(SEED)
        cut, rest = [], {}
        for i, c in items:
            got, left = draw(c, CUT, rng)
            cut.append((i, got))
            rest[i] = left
        cut_path = os.path.join(tmp, f"{name}-{CUT}.csv")
        write(cut_path, header, cut)
        before = curves(binary, cut_path)
        for metric, h in before.items():
            p = h.get("pilot")
            if not p:
                continue
            chosen = set(random.Random(SEED + 1).sample([i for i, _ in cut], p["items"]))
            piloted = []
            for i, c in cut:
                if i in chosen:
                    more, _ = draw(rest[i], p["votes"] - CUT, rng)
                    c = [a + b for a, b in zip(c, more)]
                piloted.append((i, c))
            pilot_path = os.path.join(tmp, f"{name}-{metric}-pilot.csv")
            write(pilot_path, header, piloted)
            after = curves(binary, pilot_path)[metric]
            actual = full[metric]["n"]
            promised = p["points"][["jsd", "entropy_corr", "kl", "majority_agreement"].index(metric)]
            rows.append({
                "set": name, "metric": metric, "before": span(before[metric]),
                "pilot": f"{p['votes']} votes on {p['items']} items ({p['extra']:,} more)",
                "promised": half({"n": promised["n"], "items": promised["items"]}),
                "after": span(after), "after_half": half(after), "from": after.get("from"),
                "actual": actual, "held": holds(after, actual),
                "narrowed": (half(after) or 9) < (half(before[metric]) or 9),
            })
    pct = lambda v: "open" if v is None else f"±{100 * v:.0f}%"
    lines = [f"Written by `scripts/pilot-check.sh{' --docs' if '--docs' in opts else ''}` from its run: "
             f"each set cut to {CUT} votes per item (seed {SEED}), `annosat curves` on the cut file; for "
             "each answer with a pilot line, the pilot's items get their real votes up to the pilot's "
             "count (their cut votes plus as many of their other real votes) and the file is answered "
             "again. *Full data*: the 90% point of all the set's votes.", "",
             "| set | metric | with 5 votes | pilot | promised | after the pilot | width after | "
             "full data | held | narrowed |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['set']} | {LABEL[r['metric']]} | {r['before']} | {r['pilot']} | "
                     f"{pct(r['promised'])} | {r['after']} | {pct(r['after_half'])} | {r['actual']} | "
                     f"{'✓' if r['held'] else '✗'} | {'✓' if r['narrowed'] else '✗'} |")
    held = sum(r["held"] for r in rows)
    narrowed = sum(r["narrowed"] for r in rows)
    lines += ["", f"{held} of {len(rows)} answers after the pilot held the full data's point; "
              f"{narrowed} of {len(rows)} were narrower than before."]
    print("\n".join(lines))
    print(json.dumps(rows), file=sys.stderr)
    if "--docs" in opts:
        sys.path.insert(0, "scripts")
        from bench_readme import write_block
        write_block(opts["--docs"], "pilot", lines)


if __name__ == "__main__":
    main()
