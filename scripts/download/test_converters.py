#!/usr/bin/env python3
"""The download path reproduces the shared datasets.

For every dataset in sources.py, the converter run on the shared originals (`fetch.py --from`)
gives the shared votes.csv and votes_*.csv (same classes, ids, order and counts), annotations.csv
(same rows as a multiset), items.jsonl (same ids and fields) and a SOURCE.md from which `annosat
bundle` reads the same title, source and license. The download itself is run against a file://
copy of the repositories (same layout as raw.githubusercontent.com, the Snow files inside a .tgz),
including a failing dataset. Data: $ANNOSAT_DATA, else ../shared/data beside the clone.
The shared crowdtruth_medrelex folder has no original/ (its originals hold worker IPs); with
$ANNOSAT_ORIGINALS=DIR holding DIR/crowdtruth_medrelex/original/ (the 46 batch files, gzipped, as
fetch.py keeps them) it is checked too.

    python3 scripts/download/test_converters.py [-v]
"""
import collections
import csv
import gzip
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest
from contextlib import redirect_stderr
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fetch  # noqa: E402
from converters import BUILT  # noqa: E402
from sources import BY_NAME, DATASETS, DEFAULT  # noqa: E402

ROOT = HERE.parent.parent


def data_dir():
    if os.environ.get("ANNOSAT_DATA"):
        return Path(os.environ["ANNOSAT_DATA"])
    return ROOT.parent / "shared" / "data"


DATA = data_dir()
# Datasets an issue brought in before they moved beside the others (../shared/incoming): their
# folders are checked the same way, their SOURCE.md (written by hand there) aside.
INCOMING = ROOT.parent / "shared" / "incoming"


def home(name):
    """The folder holding a dataset's shared files: the data folder, else the incoming one."""
    return DATA / name if (DATA / name).is_dir() or not (INCOMING / name).is_dir() else INCOMING / name
# Shared folders that keep no original/ by design (the originals hold worker IPs and locations).
NO_SHARED_ORIGINALS = {"crowdtruth_medrelex"}


def originals_root(ds):
    """Where a dataset's original/ folder is: the data folder, else $ANNOSAT_ORIGINALS; or None."""
    extra = Path(os.environ["ANNOSAT_ORIGINALS"]) if os.environ.get("ANNOSAT_ORIGINALS") else None
    for root in [DATA, INCOMING, extra]:
        if root is not None and (root / ds.name / "original").is_dir():
            return root
    return None


# Datasets whose originals are there: all but NO_SHARED_ORIGINALS in ../shared/data; a download
# cache may lack some.
AVAILABLE = [d for d in DATASETS if originals_root(d) is not None]
NO_DATA = f"no dataset with an original/ folder at {DATA}"


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def votes_table(path):
    header, rows = read_csv(path)
    return header, [(r[0], [int(x) for x in r[1:]]) for r in rows]


def items(path):
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def bundle_fields(path):
    """Title, source and license as trainer/src/bundle_cmd.rs `read_source` takes them from SOURCE.md."""
    text = Path(path).read_text(encoding="utf-8")
    lines = text.splitlines()
    title = next((l[2:] for l in lines if l.startswith("# ")), "").strip()
    source = next((l[len("- Repository:"):] for l in lines if l.startswith("- Repository:")), None)
    source = source.split(" (")[0].replace("`", "").strip() if source is not None else "not stated"
    parts = text.split("## License")
    lic = next((l.strip() for l in parts[1].splitlines() if l.strip() and not l.strip().startswith("(")),
               "not stated") if len(parts) > 1 else "not stated"
    return title, source, lic[:240]


class Reproduces:
    """Assertions that a converted dataset folder equals the shared one."""

    def assert_same_dataset(self, name, ours):
        theirs = home(name)
        for f in ["ratings_multilabel.csv", "labels_long.csv"]:
            if (theirs / f).exists():
                self.assertEqual((ours / f).read_bytes(), (theirs / f).read_bytes(), f"{name}/{f}")
        for f in sorted(os.listdir(theirs)):
            if f.startswith("votes") and f.endswith(".csv"):
                self.assertTrue((ours / f).exists(), f"{name}/{f} not produced")
                self.assertEqual(votes_table(ours / f), votes_table(theirs / f), f"{name}/{f}")
        for f in ["annotations.csv", "items.jsonl"]:
            self.assertEqual((ours / f).exists(), (theirs / f).exists(), f"{name}/{f} present in one only")
        if (theirs / "annotations.csv").exists():
            a, b = read_csv(ours / "annotations.csv"), read_csv(theirs / "annotations.csv")
            self.assertEqual(a[0], b[0], f"{name}/annotations.csv header")
            self.assertEqual(collections.Counter(map(tuple, a[1])), collections.Counter(map(tuple, b[1])),
                             f"{name}/annotations.csv rows")
        if (theirs / "items.jsonl").exists():
            a, b = items(ours / "items.jsonl"), items(theirs / "items.jsonl")
            self.assertEqual([x["item_id"] for x in a], [x["item_id"] for x in b], f"{name}/items.jsonl ids")
            self.assertEqual(a, b, f"{name}/items.jsonl fields")
        if theirs.parent == DATA:
            self.assertEqual(bundle_fields(ours / "SOURCE.md"), bundle_fields(theirs / "SOURCE.md"),
                             f"{name}/SOURCE.md title/source/license")


@unittest.skipUnless(AVAILABLE, NO_DATA)
class FromMirror(unittest.TestCase, Reproduces):
    """`fetch.py --from DATA` on every dataset gives the shared files."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="annosat-convert-"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_table_covers_the_shared_datasets(self):
        missing = [d.name for d in DATASETS if d not in AVAILABLE and d.name not in NO_SHARED_ORIGINALS]
        if missing:
            self.skipTest(f"only {len(AVAILABLE)} of {len(DATASETS)} datasets at {DATA}")
        built = {"votes.csv", *BUILT.values()}
        folders = [*DATA.iterdir(), *(INCOMING.iterdir() if INCOMING.is_dir() else [])]
        shared = sorted({p.name for p in folders if any((p / f).exists() for f in built)})
        self.assertEqual(sorted(d.name for d in DATASETS), shared)
        self.assertEqual(len(DATASETS), 19)

    def test_every_dataset(self):
        byte_equal = []
        for ds in AVAILABLE:
            with self.subTest(ds.name):
                out = Path(fetch.build(ds, str(self.tmp), mirror=str(originals_root(ds))))
                self.assert_same_dataset(ds.name, out)
                same = all((out / f).read_bytes() == (home(ds.name) / f).read_bytes()
                           for f in os.listdir(home(ds.name))
                           if f.endswith((".csv", ".jsonl")) and (out / f).exists())
                byte_equal.append(same)
                print(f"  {ds.name}: reproduced{' byte for byte' if same else ' (as tables)'}", file=sys.stderr)
        for ds in DATASETS:
            if ds not in AVAILABLE:
                why = " (set ANNOSAT_ORIGINALS)" if ds.name in NO_SHARED_ORIGINALS else ""
                print(f"  {ds.name}: not checked (no originals at {DATA}){why}", file=sys.stderr)
        self.assertEqual(len(byte_equal), len(AVAILABLE))

    def test_chaosnli_to_votes_script(self):
        """The script trainer/tests/download_converter.rs runs, on a flat folder of the jsonl files."""
        if not all(BY_NAME[n] in AVAILABLE for n in ["chaosnli_snli", "chaosnli_mnli", "chaosnli_alphanli"]):
            self.skipTest("ChaosNLI originals missing")
        src, out = self.tmp / "chaos-src", self.tmp / "chaos-out"
        src.mkdir()
        for name in ["chaosnli_snli", "chaosnli_mnli", "chaosnli_alphanli"]:
            for f in (DATA / name / "original").glob("chaosNLI_*.jsonl"):
                shutil.copy(f, src)
        subprocess.run([sys.executable, str(ROOT / "scripts/chaosnli_to_votes.py"), str(src), str(out)],
                       check=True, stderr=subprocess.DEVNULL)
        for name in ["chaosnli_snli", "chaosnli_mnli", "chaosnli_alphanli"]:
            for f in ["votes.csv", "votes_old5.csv"]:
                if (DATA / name / f).exists():
                    self.assertEqual(votes_table(out / name / f), votes_table(DATA / name / f), f"{name}/{f}")


def fake_github(root, mirror, skip=()):
    """Lays the mirror's originals out as raw.githubusercontent.com serves them: <repo>/<commit>/<path>.
    Archive members go into one .tgz per path; gzipped locals of plain files are served unzipped."""
    archives = collections.defaultdict(list)
    for ds in AVAILABLE:
        if ds.name in skip:
            continue
        for o in ds.originals:
            src = (originals_root(ds) or mirror) / ds.name / "original" / o.local
            dest = root / ds.repo / ds.commit / o.path
            if o.member:
                archives[dest].append((o.member, src))
                continue
            dest.parent.mkdir(parents=True, exist_ok=True)
            if dest.exists():
                continue
            if o.local.endswith(".gz") and not o.path.endswith(".gz"):
                dest.write_bytes(gzip.decompress(src.read_bytes()))
            else:
                dest.symlink_to(src)
    for dest, members in archives.items():
        dest.parent.mkdir(parents=True, exist_ok=True)
        with tarfile.open(dest, "w:gz") as tar:
            for member, src in members:
                tar.add(src, arcname=f"all_collected_data/{member}")


@unittest.skipUnless(AVAILABLE, NO_DATA)
class Download(unittest.TestCase, Reproduces):
    """fetch.py's download path, against a file:// copy of the repositories."""

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="annosat-download-"))
        self.old = os.environ.get("ANNOSAT_FETCH_BASE")

    def tearDown(self):
        if self.old is None:
            os.environ.pop("ANNOSAT_FETCH_BASE", None)
        else:
            os.environ["ANNOSAT_FETCH_BASE"] = self.old
        shutil.rmtree(self.tmp, ignore_errors=True)

    def need(self, *names):
        if not all(BY_NAME[n] in AVAILABLE for n in names):
            self.skipTest(f"needs {', '.join(names)} at {DATA}")

    def fetch(self, *args, skip=()):
        fake_github(self.tmp / "github", DATA, skip)
        os.environ["ANNOSAT_FETCH_BASE"] = (self.tmp / "github").as_uri()
        log = io.StringIO()
        with redirect_stderr(log):
            rc = fetch.main([str(self.tmp / "out"), *args])
        return rc, log.getvalue()

    def test_downloads_and_converts_every_dataset(self):
        rc, log = self.fetch("--strict", "--only", ",".join(d.name for d in AVAILABLE))
        self.assertEqual(rc, 0, log)
        for ds in AVAILABLE:
            with self.subTest(ds.name):
                out = self.tmp / "out" / ds.name
                self.assert_same_dataset(ds.name, out)
                for o in ds.originals:  # originals kept as in the shared folder
                    self.assertTrue((out / "original" / o.local).exists(), o.local)
                    if not o.local.endswith(".gz"):
                        self.assertEqual((out / "original" / o.local).read_bytes(),
                                         (originals_root(ds) / ds.name / "original" / o.local).read_bytes(),
                                         o.local)

    def test_a_failing_dataset_is_reported_and_skipped(self):
        self.need("cifar10h", "crowdti_dogs", DEFAULT)
        rc, log = self.fetch("--only", "cifar10h,crowdti_dogs,chaosnli_snli", skip=["cifar10h"])
        self.assertEqual(rc, 0, log)
        self.assertIn("cifar10h: FAILED", log)
        self.assertFalse((self.tmp / "out" / "cifar10h").exists())
        self.assertFalse((self.tmp / "out" / "cifar10h.part").exists())
        self.assertTrue((self.tmp / "out" / "crowdti_dogs" / "votes.csv").exists())
        self.assertTrue((self.tmp / "out" / DEFAULT / "votes.csv").exists())

    def test_the_default_dataset_failing_is_an_error(self):
        self.need(DEFAULT)
        rc, log = self.fetch("--only", f"{DEFAULT},crowdti_faces", skip=[DEFAULT])
        self.assertEqual(rc, 1, log)
        self.assertIn(f"{DEFAULT} is required; stopping", log)
        self.assertFalse((self.tmp / "out" / DEFAULT).exists())

    def test_a_changed_original_is_rejected(self):
        self.need("crowdti_dogs")
        fake_github(self.tmp / "github", DATA)
        ds = next(d for d in DATASETS if d.name == "crowdti_dogs")
        answer = self.tmp / "github" / ds.repo / ds.commit / ds.originals[0].path
        data = answer.read_bytes()
        answer.unlink()
        answer.write_bytes(data.replace(b"1,1,3", b"1,1,2", 1))
        os.environ["ANNOSAT_FETCH_BASE"] = (self.tmp / "github").as_uri()
        log = io.StringIO()
        with redirect_stderr(log):
            rc = fetch.main([str(self.tmp / "out"), "--only", "crowdti_dogs", "--strict"])
        self.assertEqual(rc, 1)
        self.assertIn("sha256", log.getvalue())


if __name__ == "__main__":
    unittest.main()
