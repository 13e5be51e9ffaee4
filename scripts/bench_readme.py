#!/usr/bin/env python3
"""Rewrites one generated block of a doc page from a benchmark run's output, so the numbers and the
goal verdicts there are the run's, never typed.

    bench_readme.py curves  OUTPUT docs/speed.md   (scripts/bench.sh --readme)
    bench_readme.py trainer OUTPUT docs/speed.md   (scripts/bench-trainer.sh --readme)
    bench_readme.py large   OUTPUT docs/limits.md  (scripts/bench-large.sh --readme; no goal, output only)
    bench_readme.py answer  OUTPUT docs/speed.md   (scripts/bench-answer.sh --docs)
    bench_readme.py ratings OUTPUT docs/speed.md   (scripts/bench-ratings.sh --docs)
    bench_readme.py --block NAME FILE DOC.md       (FILE's text as the block between
                                                    `<!-- NAME:begin -->` and `<!-- NAME:end -->`;
                                                    scripts/readme-cli-example.sh and others)

The block sits between `<!-- bench:KIND:begin -->` and `<!-- bench:KIND:end -->`: the run's output
verbatim, except that the data folder ($ANNOSAT_DATA, which scripts/bench.sh exports) is written
as `$ANNOSAT_DATA`, so no machine path lands in the docs; then a table of the speed goals with what
this run measured and whether each is met.
"""
import os
import re
import sys


def num(pattern, text, cast=float):
    m = re.search(pattern, text)
    if not m:
        raise SystemExit(f"bench_readme: no match for {pattern!r} in the run's output")
    return cast(m.group(1).replace(",", ""))


def verdict(ok):
    return "**met**" if ok else "**not met**"


def curves_rows(out):
    app_line = next(l for l in out.splitlines() if l.startswith("app, ") and "splitting" in l)
    workers = num(r"app, (\d+) worker", app_line, int)
    app_best = num(r"best ([\d.]+) ms \(goal", app_line)
    app_runs = num(r"(\d+) computations", app_line, int)
    one_ratio = num(r"ratio wasm one worker / native one thread: ([\d.]+)", out)
    numpy_ratio = num(r"ratio numpy/native one thread: ([\d.]+)x", out)
    dataset = num(r"annosat bench\.sh: (\S+),", out, str)
    step_worst = num(r"worst ([\d.]+) ms; longest", out)
    step_median = num(r"per step median ([\d.]+) ms", out)
    longest = num(r"traced drag ([\d.]+) ms", out)
    scale = re.findall(r"^([\d,]+) items, ([\d,]+) votes: native one thread ([\d.]+) s \(([\d,]+) votes/s\); app (.*)$",
                       out, re.M)
    rows = [
        (f"all target-side curves of {dataset} in the app ({workers} workers)", "≤ 50 ms",
         f"{app_best:g} ms (best of {app_runs})", app_best <= 50),
        ("wasm per thread against native (the app with one worker)", "≤ 2×", f"{one_ratio:.2f}×", one_ratio <= 2),
        ("native one thread against vectorised numpy", "≥ 200×", f"{numpy_ratio:.1f}×", numpy_ratio >= 200),
        ("one step of the N slider on the main thread", "≤ 16 ms",
         f"median {step_median:g} ms, worst {step_worst:g} ms; longest traced task {longest:g} ms",
         step_worst <= 16 and longest <= 16),
    ]
    boot = re.search(r"best ([\d.]+) ms; first curves with the bootstrap / without: ([\d.]+)", out)
    intervals = re.search(r"item intervals \(200 resamples\) after: .*best ([\d.]+) ms", out)
    if boot and intervals:
        rows.append((f"first curves of {dataset} not slower for the item bootstrap (intervals after them)",
                     "ratio ≤ 1.05 (best-of-15 noise)", f"{app_best:g} ms with, {float(boot.group(1)):g} ms without "
                     f"({float(boot.group(2)):.2f}); the item intervals after {float(intervals.group(1)):g} ms",
                     float(boot.group(2)) <= 1.05))
    upload = [s for s in scale if s[0] == "2,400,000"]
    if upload:
        secs = re.search(r"([\d.]+) s in (\d+) workers", upload[0][4])
        after = re.search(r"the item intervals after ([\d.]+) s", upload[0][4])
        if secs:
            rows.append(("the 50 MB upload (2.4 M items, 5–100 votes) in the app: first curves", "≤ 20 s",
                         f"{float(secs.group(1)):g} s in {secs.group(2)} workers"
                         + (f"; the item intervals after {float(after.group(1)):g} s" if after else ""),
                         float(secs.group(1)) <= 20))
    if len(scale) >= 2:
        rates = [int(s[3].replace(",", "")) for s in scale]
        spread = max(rates) / min(rates)
        rows.append((f"cost linear in votes ({scale[0][0]} to {scale[-1][0]} items, native one thread)",
                     "votes/s constant", f"{min(rates) / 1e6:.2f}–{max(rates) / 1e6:.2f} M votes/s "
                     f"(spread {100 * (spread - 1):.0f}%)", spread <= 1.25))
    return rows


def answer_rows(out):
    rows = []
    for name, what in (("koniq10k-5-votes.csv", "10,073 items with 5 votes each"),
                       ("koniq10k-all-votes.csv", "10,073 items with 93–157 votes each")):
        m = re.search(re.escape(name) + r": native one thread .*\(best ([\d.]+) s\); app ([\d.]+) s with (\d+) cores", out)
        if not m:
            continue
        native, app, cores = float(m.group(1)), float(m.group(2)), m.group(3)
        rows.append((f"the whole answer, {what}, natively on one thread", "≤ 10 s", f"{native:.2f} s", native <= 10))
        rows.append((f"the whole answer, {what}, in the app ({cores} cores)", "≤ 20 s", f"{app:.1f} s", app <= 20))
    return rows


def ratings_rows(out):
    ratio = num(r"ratio rating\+nominal / nominal: ([\d.]+)x", out)
    return [("KonIQ-10k's rating and nominal curves in the app, against its nominal curves alone",
             "≤ 1.5×", f"{ratio:.2f}×", ratio <= 1.5)]


def compare_rows(out):
    cli = num(r"CLI, one thread: [\d., ]+ s \(median ([\d.]+) s\)", out)
    app = num(r"app, Compare to heat map: [\d., ]+ s \(median ([\d.]+) s\)", out)
    return [("the power grid (10 × 10 cells, 1,000 evaluations) for 1,514 items, CLI on one thread",
             "≤ 5 s", f"{cli:.2f} s", cli <= 5),
            ("the same in the app, Compare to heat map", "≤ 15 s", f"{app:.2f} s", app <= 15)]


def trainer_rows(out):
    ratio = num(r"ratio annosat/PyTorch: +([\d.]+)x", out)
    rows = [("head sweep against PyTorch on CPU, same work", "≥ 1.5×", f"{ratio:.2f}×", ratio >= 1.5)]
    st = re.search(r"ratio annosat/sentence-transformers: ([\d.]+)x", out)
    if st:
        r = float(st.group(1))
        rows.append(("`annosat embed` against sentence-transformers on CPU, same texts and batch", "≥ 1×",
                     f"{r:.2f}×", r >= 1))
    return rows


def trainer_notes(out):
    """What the floor says about the goal, from the run's numbers."""
    torch_s = num(r"PyTorch [^:]*: +[\d.]+ heads\*epochs/s +\(([\d.]+) s[;)]", out)
    group_s = num(r"annosat sweep \(candle\): +[\d.]+ heads\*epochs/s +\(([\d.]+) s for the group[;)]", out)
    floor_s = num(r"floor: ([\d.]+) s", out)
    need = torch_s / 1.5
    side = "below" if need < floor_s else "above"
    return [f"1.5× PyTorch's {torch_s:.2f} s needs the group in {need:.2f} s, {side} the floor of "
            f"{floor_s:.2f} s that its GEMMs and AdamW passes take alone with these kernels; the group "
            f"took {group_s:.2f} s, {group_s / floor_s:.2f}× the floor."]


def write_block(readme_path, name, lines):
    """Replaces what stands between `<!-- NAME:begin -->` and `<!-- NAME:end -->` in the doc page."""
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    text = open(readme_path, encoding="utf-8").read()
    a, b = text.find(begin), text.find(end)
    if a < 0 or b < a:
        raise SystemExit(f"bench_readme: {readme_path} has no {begin} … {end} block")
    text = text[: a + len(begin)] + "\n" + "\n".join(lines) + "\n" + text[b:]
    open(readme_path, "w", encoding="utf-8").write(text)


def main():
    if sys.argv[1] == "--block":
        name, path, readme_path = sys.argv[2:5]
        write_block(readme_path, name, [open(path, encoding="utf-8").read().strip()])
        return
    kind, out_path, readme_path = sys.argv[1:4]
    out = open(out_path, encoding="utf-8").read().strip()
    data = os.environ.get("ANNOSAT_DATA", "").rstrip("/")
    if data:
        out = out.replace(data + "/", "$ANNOSAT_DATA/")
    rows = {"curves": curves_rows, "trainer": trainer_rows, "answer": answer_rows, "ratings": ratings_rows,
            "compare": compare_rows, "large": lambda _: []}[kind](out)
    flag = "--docs" if kind in ("answer", "ratings", "compare") else "--readme"
    command = f"scripts/bench{'' if kind == 'curves' else '-' + kind}.sh {flag}"
    block = [f"Written by `{command}` from its run{' (the output verbatim, then the goals)' if rows else ''}:",
             "", "```text", out, "```"]
    if rows:
        block += ["", "| goal | target | this run | |", "|---|---|---|---|"]
        block += [f"| {g} | {t} | {r} | {verdict(ok)} |" for g, t, r, ok in rows]
    notes = {"trainer": trainer_notes}.get(kind, lambda _: [])(out)
    if notes:
        block += [""] + notes
    write_block(readme_path, f"bench:{kind}", block)


if __name__ == "__main__":
    main()
