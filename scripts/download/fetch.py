#!/usr/bin/env python3
"""Download the public sources of annosat's datasets and convert them.

  python3 scripts/download/fetch.py OUT                 download + convert every dataset into OUT/<name>/
  python3 scripts/download/fetch.py OUT --from DIR      read the originals from DIR/<name>/original/ instead
  python3 scripts/download/fetch.py OUT --only a,b      just these datasets
  python3 scripts/download/fetch.py OUT --from DIR --missing-from DATA
                                                        those of DIR's datasets that DATA lacks
  python3 scripts/download/fetch.py --list              the table: name, repository, commit, files, license

Downloads come from raw.githubusercontent.com at the pinned commits in sources.py; every original
file is checked against its sha256 prefix, kept under OUT/<name>/original/, and converted
(converters.py) into votes.csv, annotations.csv, items.jsonl, votes_*.csv and a SOURCE.md whose
title, source and license lines are the ones `annosat bundle` shows. A dataset already in OUT
(votes.csv present) is left alone unless --force. A dataset that fails is reported and skipped,
except the default one (chaosnli_snli, first in the table): then it stops with exit status 1.
With --strict any failure gives exit status 1.
"""
import argparse
import gzip
import hashlib
import os
import shutil
import sys
import tarfile
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from converters import BUILT, CONVERTERS  # noqa: E402
from sources import BY_NAME, DATASETS, DEFAULT, raw_url  # noqa: E402


def sha16(data):
    return hashlib.sha256(data).hexdigest()[:16]


class Downloader:
    """Fetches repository files over HTTPS, once per URL per run (the Snow archive serves three sets)."""

    def __init__(self, tmp):
        self.tmp, self.cache = tmp, {}

    def get(self, url):
        if url not in self.cache:
            path = os.path.join(self.tmp, f"dl{len(self.cache)}")
            for attempt in range(3):
                try:
                    req = urllib.request.Request(url, headers={"User-Agent": "annosat-fetch"})
                    with urllib.request.urlopen(req, timeout=60) as r, open(path, "wb") as f:
                        shutil.copyfileobj(r, f)
                    break
                except OSError as e:
                    if attempt == 2:
                        raise RuntimeError(f"cannot download {url}: {e}") from e
                    time.sleep(2 * (attempt + 1))
            self.cache[url] = path
        return self.cache[url]

    def file(self, ds, orig):
        """The bytes of one original file (taken out of its archive where it is in one)."""
        path = self.get(raw_url(ds, orig.path))
        if orig.member is None:
            with open(path, "rb") as f:
                return f.read()
        with tarfile.open(path) as tar:
            found = [m for m in tar.getmembers() if m.isfile() and os.path.basename(m.name) == orig.member]
            if len(found) != 1:
                raise RuntimeError(f"{orig.path}: expected one {orig.member}, found {len(found)}")
            return tar.extractfile(found[0]).read()


def check(ds, orig, data):
    if orig.sha and sha16(data) != orig.sha:
        raise RuntimeError(f"{ds.name}: {orig.local} has sha256 {sha16(data)}..., expected {orig.sha}... "
                           f"(from {ds.repo}@{ds.commit[:10]}:{orig.path})")


def download_originals(ds, dl, dest):
    """Saves every original of `ds` under dest/ (gzipped where its local name ends in .gz)."""
    for orig in ds.originals:
        data = dl.file(ds, orig)
        check(ds, orig, data)
        path = os.path.join(dest, orig.local)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if orig.local.endswith(".gz") and not orig.path.endswith(".gz"):
            with gzip.GzipFile(path, "wb", mtime=0) as f:
                f.write(data)
        else:
            with open(path, "wb") as f:
                f.write(data)


def check_mirror(ds, src):
    """Checks the originals in a local mirror (DIR/<name>/original/) against the table."""
    for orig in ds.originals:
        path = os.path.join(src, orig.local)
        if not os.path.exists(path):
            raise RuntimeError(f"{ds.name}: {path} is missing")
        with open(path, "rb") as f:
            data = f.read()
        if orig.local.endswith(".gz") and not orig.path.endswith(".gz"):
            data = gzip.decompress(data)
        check(ds, orig, data)


def source_md(ds, mirror=None):
    paths = "; ".join(f"`{o.path}" + (f" ({o.member})`" if o.member else "`") for o in ds.originals)
    how = (f"read from the local mirror `{mirror}`" if mirror
           else "downloaded by scripts/download/fetch.py from raw.githubusercontent.com")
    kept = ("- Original files are kept unchanged under `original/`.\n" if not mirror
            else f"- Original files: `{mirror}/{ds.name}/original/`.\n")
    return (f"# {ds.title}\n\n"
            f"## Source\n"
            f"- Repository: github `{ds.repo}` at commit `{ds.commit}` ({how}).\n"
            f"- Path(s): {paths}\n{kept}\n"
            f"## License (as stated in the source)\n{ds.license}\n\n"
            f"## Citation\n{ds.citation}\n\n"
            f"## Files here\n{ds.notes}\n")


def convert(ds, src, out, mirror=None):
    """Converts the originals in `src` into `out` (created), with a SOURCE.md."""
    os.makedirs(out, exist_ok=True)
    CONVERTERS[ds.convert](ds, src, out)
    with open(os.path.join(out, "SOURCE.md"), "w", encoding="utf-8") as f:
        f.write(source_md(ds, mirror))


def build(ds, out_root, mirror=None, dl=None):
    """Makes out_root/<name>/ for one dataset; written beside it first, so it appears whole or not at all."""
    final = os.path.join(out_root, ds.name)
    part = final + ".part"
    shutil.rmtree(part, ignore_errors=True)
    os.makedirs(part)
    try:
        if mirror:
            src = os.path.join(mirror, ds.name, "original")
            check_mirror(ds, src)
        else:
            src = os.path.join(part, "original")
            download_originals(ds, dl, src)
        convert(ds, src, part, mirror)
    except BaseException:
        shutil.rmtree(part, ignore_errors=True)
        raise
    shutil.rmtree(final, ignore_errors=True)
    os.rename(part, final)
    return final


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("out", nargs="?", help="output folder (one sub-folder per dataset)")
    ap.add_argument("--from", dest="mirror", metavar="DIR", help="read originals from DIR/<name>/original/")
    ap.add_argument("--only", help="comma-separated dataset names")
    ap.add_argument("--force", action="store_true", help="rebuild datasets already in OUT")
    ap.add_argument("--strict", action="store_true", help="exit 1 if any dataset failed")
    ap.add_argument("--list", action="store_true", help="print the table of sources and exit")
    ap.add_argument("--missing-from", metavar="DIR",
                    help="only the datasets of the table that DIR has no folder for")
    a = ap.parse_args(argv)
    if a.list:
        for ds in DATASETS:
            print(f"{ds.name}\n  github.com/{ds.repo} @ {ds.commit}\n  files: "
                  + ", ".join(o.path + (f" ({o.member})" if o.member else "") for o in ds.originals)
                  + f"\n  license: {ds.license}\n  cite: {ds.citation}")
        return 0
    if not a.out:
        ap.error("OUT is required")
    names = a.only.split(",") if a.only else [d.name for d in DATASETS]
    if a.missing_from:
        names = [n for n in names if not os.path.isdir(os.path.join(a.missing_from, n))
                 and (not a.mirror or os.path.isdir(os.path.join(a.mirror, n, "original")))]
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        ap.error(f"unknown dataset(s): {', '.join(unknown)}; see --list")
    os.makedirs(a.out, exist_ok=True)
    failed = []
    with tempfile.TemporaryDirectory(prefix="annosat-fetch-") as tmp:
        dl = Downloader(tmp)
        for name in names:
            built = BUILT.get(BY_NAME[name].convert, "votes.csv")
            if not a.force and os.path.exists(os.path.join(a.out, name, built)):
                continue
            try:
                build(BY_NAME[name], a.out, a.mirror, dl)
                print(f"fetch: {name}: ok", file=sys.stderr)
            except Exception as e:  # one dataset failing must not stop the others...
                failed.append(name)
                print(f"fetch: {name}: FAILED{'' if name == DEFAULT else ', skipped'}: {e}", file=sys.stderr)
                if name == DEFAULT:  # ...except the default one, which the app and tests need
                    print(f"fetch: {DEFAULT} is required; stopping", file=sys.stderr)
                    return 1
    if failed:
        print(f"fetch: {len(failed)} of {len(names)} dataset(s) not available: {', '.join(failed)}; "
              f"`python3 {sys.argv[0]} {a.out}` retries them", file=sys.stderr)
    if not names:
        return 0
    default_missing = DEFAULT in names and not os.path.exists(os.path.join(a.out, DEFAULT, "votes.csv"))
    return 1 if default_missing or (a.strict and failed) else 0


if __name__ == "__main__":
    sys.exit(main())
