"""sentence-transformers on CPU, the reference for `annosat embed`'s speed: the same distinct texts
of a dataset (every premise and hypothesis of a pair dataset, or every text), the same checkpoint
folder, batch size and token limit, timed around `encode` only (after a one-batch warm-up, as the
model is loaded before annosat's timer starts too). With --cache, also the largest difference
from annosat's embeddings of the same texts (the independent implementation check).

    python st_embed.py --data DIR --model DIR [--batch 64] [--threads N] [--cache FILE.safetensors]

Prints one JSON line: sentence_transformers and torch versions, texts, seconds, texts_per_s,
max_abs_diff (or null); with --ours LINE (annosat embed's timing line), one line comparing both.
"""
import argparse
import json
import os
import time


def texts_of(data):
    rows = [json.loads(l) for l in open(os.path.join(data, "items.jsonl"), encoding="utf-8") if l.strip()]
    fields = ["premise", "hypothesis"] if "premise" in rows[0] else ["text"]
    return rows, fields


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--model", required=True)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--repeats", type=int, default=1, help="timed encodes; the best is reported")
    ap.add_argument("--cache")
    ap.add_argument("--ours", help="annosat embed's timing line: prints the comparison line instead")
    a = ap.parse_args()
    import torch
    import sentence_transformers
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(a.threads)
    model = SentenceTransformer(a.model, device="cpu")
    model.max_seq_length = 256  # annosat_encoder::MAX_TOKENS
    rows, fields = texts_of(a.data)
    unique = sorted({r[f] for r in rows for f in fields})
    model.encode(unique[: a.batch], batch_size=a.batch)
    runs = []
    for _ in range(max(1, a.repeats)):
        t = time.perf_counter()
        emb = model.encode(unique, batch_size=a.batch, convert_to_numpy=True, normalize_embeddings=True)
        runs.append(time.perf_counter() - t)
    seconds = min(runs)
    diff = None
    if a.cache:
        from safetensors.numpy import safe_open

        at = {text: i for i, text in enumerate(unique)}
        by_id = {r["item_id"]: r for r in rows}
        with safe_open(a.cache, "numpy") as f:
            ids = json.loads(f.metadata()["item_ids"])
            diff = 0.0
            for field in fields:
                mine = f.get_tensor(field)
                for i, item in enumerate(ids):
                    diff = max(diff, float(abs(mine[i] - emb[at[by_id[item][field]]]).max()))
    rate = len(unique) / seconds
    if a.ours:
        import re

        m = re.search(r"embedded (\d+) texts in [\d.]+ s \((\d+) texts/s\)", a.ours)
        if not m or int(m.group(1)) != len(unique):
            raise SystemExit(f"st_embed: annosat's line {a.ours!r} is not about the same {len(unique)} texts")
        print(f"sentence-transformers {sentence_transformers.__version__} (torch {torch.__version__}): "
              f"{len(unique)} texts in {seconds:.1f} s ({rate:.0f} texts/s; runs: "
              f"{', '.join(f'{r:.1f}' for r in runs)} s); ratio annosat/sentence-transformers: "
              f"{int(m.group(2)) / rate:.2f}x; largest |difference| from annosat's embeddings "
              + (f"{diff:.1e}" if diff is not None else "not checked"))
        return
    print(json.dumps({
        "sentence_transformers": sentence_transformers.__version__,
        "torch": torch.__version__,
        "texts": len(unique),
        "seconds": round(seconds, 3),
        "texts_per_s": round(rate, 1),
        "max_abs_diff": diff,
    }))


if __name__ == "__main__":
    main()
