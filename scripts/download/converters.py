"""Converters: original files of one dataset (a folder laid out like <name>/original/) -> the
project's files in an output folder:

  votes.csv        item_id,<class...>   integer vote counts, one row per item
  annotations.csv  item_id,annotator_id,label   (where the source names its annotators)
  items.jsonl      {"item_id": ..., <text fields>, ...}   (where the source has texts)
  votes_*.csv      variants of votes.csv (ChaosNLI's original 5 labels, other questions, ...)

Class order, item ids and row order follow ../shared/data, and the CSVs are written with Python's
default csv dialect (CRLF) as the shared files are, so the output is byte-identical to them.
Standard library + numpy (CIFAR-10H's .npy) only.
"""
import collections
import csv
import gzip
import html
import json
import os
import re


# ---------------------------------------------------------------------------------------- writers

def write_votes(path, classes, rows):
    """rows: (item_id, [count per class, in `classes` order])."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["item_id", *classes])
        for item, counts in rows:
            w.writerow([item, *(int(c) for c in counts)])


def write_annotations(path, rows):
    """rows: (item_id, annotator_id, label)."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["item_id", "annotator_id", "label"])
        w.writerows(rows)


def write_items(path, items):
    with open(path, "w", encoding="utf-8") as f:
        for it in items:
            f.write(json.dumps(it, ensure_ascii=False) + "\n")


def numeric_first(item_id):
    """Sort key: numeric ids in numeric order, then the rest as strings."""
    try:
        return (0, int(item_id), "")
    except ValueError:
        return (1, 0, item_id)


def long_format(out, triples, codes, names=None):
    """(item, annotator, code) rows -> votes.csv + annotations.csv; returns the items in row order.

    `codes` are the labels as the source writes them, `names` the class names written out."""
    names = names or codes
    name_of = dict(zip(codes, names))
    counts = collections.defaultdict(collections.Counter)
    seen = set()
    for item, annotator, code in triples:
        if code not in name_of:
            raise ValueError(f"item {item}: unknown label {code!r}")
        if (item, annotator) in seen:
            raise ValueError(f"item {item}: annotator {annotator} labelled it twice")
        seen.add((item, annotator))
        counts[item][code] += 1
    order = sorted(counts, key=numeric_first)
    write_votes(os.path.join(out, "votes.csv"), names, ((i, [counts[i][c] for c in codes]) for i in order))
    write_annotations(os.path.join(out, "annotations.csv"), ((i, a, name_of[c]) for i, a, c in triples))
    return order


def _read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _read_tsv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


# ------------------------------------------------------------------------------------- converters

def chaosnli(ds, src, out):
    """ChaosNLI v1.0 jsonl: label_counter -> votes.csv; old_labels -> votes_old5.csv; texts."""
    path = os.path.join(src, ds.originals[0].local)
    rows = _read_jsonl(path)
    if ds.name.endswith("alphanli"):
        classes, keys = ["hyp1", "hyp2"], ["1", "2"]
        fields = ["obs1", "obs2", "hyp1", "hyp2", "source"]
        name = lambda k: f"hyp{k}"
    else:
        classes, keys = ["entailment", "neutral", "contradiction"], ["e", "n", "c"]
        fields = ["premise", "hypothesis", "source"]
        name = dict(zip(keys, classes)).get
    votes, items = [], []
    for r in rows:
        counts = [r["label_counter"].get(k, 0) for k in keys]
        if counts != r["label_count"]:
            raise ValueError(f"{r['uid']}: label_counter and label_count disagree")
        votes.append((r["uid"], counts))
        it = {"item_id": r["uid"], **{k: r["example"][k] for k in fields}, "old_label": name(r["old_label"])}
        if "old_labels" in r and not ds.name.endswith("alphanli"):
            it["old_labels"] = r["old_labels"]
        it["majority_label"] = name(r["majority_label"])
        items.append(it)
    write_votes(os.path.join(out, "votes.csv"), classes, votes)
    if not ds.name.endswith("alphanli"):
        old = ((r["uid"], [r["old_labels"].count(c) for c in classes]) for r in rows)
        write_votes(os.path.join(out, "votes_old5.csv"), classes, old)
    write_items(os.path.join(out, "items.jsonl"), items)


def cifar10h(ds, src, out):
    """cifar10h-counts.npy (10000 x 10) -> votes.csv; item_id = index in the CIFAR-10 test set."""
    import numpy as np
    counts = np.load(os.path.join(src, "cifar10h-counts.npy"))
    classes = ["airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"]
    if counts.shape[1] != len(classes):
        raise ValueError(f"expected 10 columns, got {counts.shape}")
    write_votes(os.path.join(out, "votes.csv"), classes, ((str(i), row.tolist()) for i, row in enumerate(counts)))


def pavlick(ds, src, out):
    """Slider scores in [-50, 50] binned into thirds (a DERIVED 3-class vote)."""
    third = 50.0 / 3
    votes, items = [], []
    for r in _read_jsonl(os.path.join(src, "preprocessed-data.jsonl")):
        c = [0, 0, 0]
        for s in r["labels"]:
            c[0 if s > third else 2 if s < -third else 1] += 1
        votes.append((r["id"], c))
        items.append({"item_id": r["id"], "premise": r["premise"], "hypothesis": r["hypothesis"],
                      "task": r["task"], "original_dataset_label": r["original-dataset-label"],
                      "num_NA": r["num-NA"]})
    write_votes(os.path.join(out, "votes.csv"), ["entailment", "neutral", "contradiction"], votes)
    write_items(os.path.join(out, "items.jsonl"), items)


def orchid(ds, src, out):
    """Venanzi et al. CSV without header: worker,task,label,gold[,seconds]."""
    with open(os.path.join(src, ds.originals[0].local), newline="", encoding="utf-8") as f:
        rows = [r for r in csv.reader(f) if r]
    long_format(out, [(r[1], r[0], r[2]) for r in rows], ["0", "1"], ["negative", "positive"])


SNOW_CLASSES = {
    "rte": (["0", "1"], ["not_entailed", "entailed"]),
    "temp": (["1", "2"], ["1", "2"]),
    "wsd": (["1", "2", "3"], ["sense1", "sense2", "sense3"]),
}


def snow(ds, src, out):
    """O'Connor's standardized.tsv (orig_id, !amt_worker_ids, response); RTE texts from rte1.tsv."""
    task = ds.name.split("_")[1]
    rows = _read_tsv(os.path.join(src, f"{task}.standardized.tsv"))
    order = long_format(out, [(r["orig_id"], r["!amt_worker_ids"], r["response"]) for r in rows],
                        *SNOW_CLASSES[task])
    if task == "rte":
        texts = {r["id"]: {"item_id": r["id"], "text": html.unescape(r["text"]),
                           "hypothesis": html.unescape(r["hypothesis"]), "rte_task": r["task"],
                           "gold": "entailed" if r["value"] == "TRUE" else "not_entailed"}
                 for r in _read_tsv(os.path.join(src, "rte1.tsv"))}
        write_items(os.path.join(out, "items.jsonl"), (texts[i] for i in order if i in texts))


def crowdti(ds, src, out):
    """Zheng et al. 2017 benchmark answer.csv: question,worker,answer (classes 0..3)."""
    with open(os.path.join(src, "answer.csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    long_format(out, [(r["question"], r["worker"], r["answer"]) for r in rows], ["0", "1", "2", "3"])


def popquorn(ds, src, out):
    """POPQUORN raw_data.csv: one row per (instance, user) with a 1..5 rating and the text."""
    with open(os.path.join(src, "offensiveness_raw_data.csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    triples = [(r["instance_id"], r["user_id"], str(int(float(r["offensiveness"])))) for r in rows]
    order = long_format(out, triples, ["1", "2", "3", "4", "5"])
    text = {}
    for r in rows:
        text.setdefault(r["instance_id"], r["text"])
    write_items(os.path.join(out, "items.jsonl"), ({"item_id": i, "text": text[i]} for i in order))


def koniq(ds, src, out):
    """KonIQ-10k's per-image rating shares (c1..c5) and rating count: votes.csv with the counts
    round(share x c_total), columns 1..5 in scale order; item_id = the image name without .jpg.
    Every row must sum to c_total (the shares are exact to 1e-10)."""
    rows = []
    with open(os.path.join(src, "koniq10k_distributions_sets.csv"), newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            total = int(r["c_total"])
            counts = [round(float(r[f"c{k}"]) * total) for k in range(1, 6)]
            if sum(counts) != total:
                raise ValueError(f"{r['image_name']}: counts {counts} do not sum to {total}")
            rows.append((r["image_name"].removesuffix(".jpg"), counts))
    write_votes(os.path.join(out, "votes.csv"), ["1", "2", "3", "4", "5"], rows)


def gal(ds, src, out):
    """Get-Another-Label labels.txt (worker<TAB>url<TAB>label). Some workers labelled a site more
    than once: votes.csv/annotations.csv keep each (worker, site)'s first label, votes_all_labels.csv
    counts every row. Classes: those of G, P, R, X, B that occur."""
    first = {}
    every = collections.defaultdict(collections.Counter)
    with open(os.path.join(src, "labels.txt"), encoding="utf-8") as f:
        lines = [line for line in f if line.strip()]
    for line in lines:
        worker, site, label = re.split(r"\t+", line.rstrip("\n"))
        label = label.strip()
        every[site][label] += 1
        first.setdefault((site, worker), label)
    once = collections.defaultdict(collections.Counter)
    for (site, _), label in first.items():
        once[site][label] += 1
    order = sorted(once)
    classes = [c for c in "GPRXB" if any(once[s][c] for s in order)]
    if any(c not in "GPRXB" for s in order for c in every[s]):
        raise ValueError("unknown category in labels.txt")
    write_votes(os.path.join(out, "votes.csv"), classes, ((s, [once[s][c] for c in classes]) for s in order))
    write_votes(os.path.join(out, "votes_all_labels.csv"), classes,
                ((s, [every[s][c] for c in classes]) for s in order))
    write_annotations(os.path.join(out, "annotations.csv"), ((s, w, l) for (s, w), l in first.items()))


def lewidi2023(ds, src, out):
    """LeWiDi 2023 harmonised json (HS-Brexit, MD-Agreement): train/dev/test, item_id = <split>_<key>."""
    prefix = ds.originals[0].local.rsplit("_", 1)[0]
    extra = ["aggressive", "offensive"] if prefix == "HS-Brexit" else []
    classes = ["0", "1"]
    votes, ann, items = [], [], []
    variants = {e: [] for e in extra}
    for split in ["train", "dev", "test"]:
        data = _read_json(os.path.join(src, f"{prefix}_{split}.json"))
        for key, v in data.items():
            item = f"{split}_{key}"
            labels, annotators = v["annotations"].split(","), v["annotators"].split(",")
            if not len(labels) == len(annotators) == v["number of annotations"]:
                raise ValueError(f"{item}: annotation and annotator lists differ")
            if set(labels) - set(classes):
                raise ValueError(f"{item}: labels outside 0/1")
            votes.append((item, [labels.count(c) for c in classes]))
            ann.extend((item, a, l) for a, l in zip(annotators, labels))
            info = v.get("other_info", {})
            it = {"item_id": item, "split": split, "text": v["text"], "lang": v["lang"], "hard_label": v["hard_label"]}
            if "domain" in info:
                it["domain"] = info["domain"]
            if "annotators group" in info:
                it["annotator_groups"] = dict(zip(annotators, info["annotators group"].split(",")))
            items.append(it)
            for e in extra:
                # Three offensive-language entries hold the string "No" for 0.
                other = ["0" if x == "No" else x for x in info["other annotations"][f"{e} language detection"].split(",")]
                if len(other) != len(labels) or set(other) - set(classes):
                    raise ValueError(f"{item}: bad {e} annotations")
                variants[e].append((item, [other.count(c) for c in classes]))
    write_votes(os.path.join(out, "votes.csv"), classes, votes)
    write_annotations(os.path.join(out, "annotations.csv"), ann)
    write_items(os.path.join(out, "items.jsonl"), items)
    for e, rows in variants.items():
        write_votes(os.path.join(out, f"votes_{e}.csv"), classes, rows)


def multipico(ds, src, out):
    """LeWiDi 2025 MultiPICo json (dev + test): annotations are {annotator: label}."""
    classes = ["0", "1"]
    votes, ann, items = [], [], []
    for split in ["dev", "test"]:
        data = _read_json(os.path.join(src, f"MP_{split}.json"))
        for key, v in data.items():
            item = f"{split}_{key}"
            labels = list(v["annotations"].values())
            if set(labels) - set(classes):
                raise ValueError(f"{item}: labels outside 0/1")
            votes.append((item, [labels.count(c) for c in classes]))
            ann.extend((item, a, l) for a, l in v["annotations"].items())
            info = v["other_info"]
            items.append({"item_id": item, "split": split, "post": v["text"]["post"], "reply": v["text"]["reply"],
                          "lang": v["lang"], "source": info.get("source"), "level": info.get("level"),
                          "language_variety": info.get("language_variety")})
    write_votes(os.path.join(out, "votes.csv"), classes, votes)
    write_annotations(os.path.join(out, "annotations.csv"), ann)
    write_items(os.path.join(out, "items.jsonl"), items)


RELEX_LABELS = ["treats", "prevents", "diagnose_by_test_or_drug", "causes", "location", "symptom",
                "manifestation", "contraindicates", "associated_with", "side_effect", "is_a", "part_of",
                "other", "none"]
RELEX_ITEM = ["sent_id", "term1", "term2", "b1", "e1", "b2", "e2"]
RELEX_SOURCE = ["relation", "rel-type", "expertdecision", "expdec", "baselinedec"]


def medrelex(ds, src, out):
    """CrowdFlower exports of the RelEx task, one row per (unit, worker) judgment, the ticked boxes
    newline-separated as `[LABEL]` in step_1_select_the_valid_relations -> the multilabel layouts
    (no votes.csv: single-label tools would misread them). Item = `_unit_id`, annotator =
    `_worker_id`; a repeated (unit, worker) keeps its first row; worker location, IP, channel, trust
    and times are not copied. Written with "\n" line ends, as the shared files are."""
    ratings, items = {}, {}
    for orig in ds.originals:
        path = os.path.join(src, orig.local)
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", newline="", encoding="utf-8") as f:
            rows = csv.reader(f)
            header = next(rows)
            for row in rows:
                if not row:
                    continue
                rec = {}
                for k, v in zip(header, row):
                    rec.setdefault(k, v)  # a repeated column name: the first one counts
                item, worker = rec["_unit_id"].strip(), rec["_worker_id"].strip()
                ticked = {t.strip()[1:-1].lower() for t in rec["step_1_select_the_valid_relations"].split("\n")
                          if t.strip()}
                unknown = ticked - set(RELEX_LABELS)
                if unknown or not ticked:
                    raise ValueError(f"{orig.local}: unit {item}: unexpected answer {sorted(unknown) or 'empty'}")
                if item not in items:
                    info = {"item_id": item, "text": rec["sentence"]}
                    info.update({k: rec[k] for k in RELEX_ITEM})
                    info["source_batch"] = os.path.basename(orig.path)
                    info["source_fields"] = {k: rec[k] for k in RELEX_SOURCE if k in rec}
                    items[item] = info
                ratings.setdefault((item, worker), ticked)
    with open(os.path.join(out, "ratings_multilabel.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["item_id", "annotator_id", *RELEX_LABELS])
        for (item, worker), ticked in ratings.items():
            w.writerow([item, worker, *(int(l in ticked) for l in RELEX_LABELS)])
    with open(os.path.join(out, "labels_long.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["item_id", "annotator_id", "label"])
        for (item, worker), ticked in ratings.items():
            w.writerows([item, worker, l] for l in RELEX_LABELS if l in ticked)
    write_items(os.path.join(out, "items.jsonl"), items.values())


CONVERTERS = {f.__name__: f for f in [chaosnli, cifar10h, pavlick, orchid, snow, crowdti, popquorn, gal,
                                      lewidi2023, multipico, medrelex, koniq]}
# The file whose presence says a dataset is built (fetch.py leaves it alone); votes.csv by default.
BUILT = {"medrelex": "ratings_multilabel.csv"}
