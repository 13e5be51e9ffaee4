#!/usr/bin/env python3
"""PyTorch CPU reference for the throughput of `annosat sweep`'s batched head training.

It does the work of one sweep group (trainer/src/sweep/{group,heads,arms,pca}.rs) the idiomatic fast
PyTorch way, on the same cached embeddings, so scripts/bench-trainer.sh can compare heads×epochs/s:

- features: the embeddings cache written by `annosat embed` (safetensors, parsed here with numpy:
  8-byte little-endian header length, JSON header, raw F32 data), pair layout [u, v, |u-v|, u*v],
  projected on the top `--pca` principal components (numpy eigh of the covariance, not whitened);
- items: a seeded 80/10/10 train/validation/test split;
- heads: every trained arm (hard, ls0.05/0.1/0.2/0.3/0.5, soft, dirichlet, sls, multipass and the
  controls deterministic and shuffled_sls; see arms.rs) at every N of the grid capped at the smallest
  vote count, each N-vote subsample a prefix of one seeded shuffle of the item's votes; sls, multipass
  and shuffled_sls (another training item's votes) targets are rebuilt every epoch, deterministic's
  are one vote per item, fixed;
- model: per head Linear(d, hidden)-ReLU-Linear(hidden, K), all heads started from one
  initialisation; the first layers of all heads are one torch.baddbmm over heads with the input rows
  broadcast to every head (about 30% faster here than `--layout wide`, one (d, heads·hidden) matmul
  as the trainer does), the second layers one torch.baddbmm; loss = sum over heads of the per-head
  mean cross-entropy to soft targets; AdamW (lr 1e-3, weight decay 1e-2, PyTorch's betas/eps equal
  to candle's defaults), batch 64, one shared minibatch order per epoch;
- every epoch: the training pass, then validation and test forward passes, per-head validation loss,
  and each head's best-so-far validation/test logits kept (model selection as in heads.rs).

Unlike `annosat sweep` it runs a FIXED number of epochs (no early stopping), so with
`annosat sweep --epochs E --patience E` both sides do the same work. Random streams are numpy's, not
the trainer's ChaCha8 ones: the numbers trained differ, the amount of work does not.

  torch_heads.py --features ~/.cache/annosat/features/chaosnli_snli/all-MiniLM-L6-v2.safetensors \
                 --votes ../shared/data/chaosnli_snli/votes.csv --epochs 10

Prints a summary on stderr and one JSON line on stdout: torch version, threads, heads, epochs, seconds,
heads_epochs_per_s.
"""
import argparse
import csv
import json
import struct
import sys
import time

import numpy as np
import torch

N_GRID = [1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 100]
ARMS = ["hard", "ls0.05", "ls0.1", "ls0.2", "ls0.3", "ls0.5", "soft", "dirichlet", "sls", "multipass",
        "deterministic", "shuffled_sls"]


def read_safetensors(path):
    """{name: ndarray} and the metadata dict of a safetensors file (F32 tensors only)."""
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    meta = header.pop("__metadata__", {})
    body = memoryview(raw)[8 + n :]
    out = {}
    for name, t in header.items():
        if t["dtype"] != "F32":
            raise SystemExit(f"{path}: tensor {name} is {t['dtype']}, expected F32")
        a, b = t["data_offsets"]
        out[name] = np.frombuffer(body[a:b], dtype="<f4").reshape(t["shape"])
    return out, meta


def read_votes(path):
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    return rows[0][1:], [r[0] for r in rows[1:]], np.array([[int(x) for x in r[1:]] for r in rows[1:]])


def pair_features(tensors, meta):
    if meta.get("layout") != "Pair":
        raise SystemExit(f"layout {meta.get('layout')!r}: this reference builds pair features only")
    u, v = tensors["premise"], tensors["hypothesis"]
    return np.concatenate([u, v, np.abs(u - v), u * v], axis=1)


def pca(x, k):
    """Top-k principal component scores (not whitened), sign fixed as in pca.rs; and variance kept."""
    xc = x.astype(np.float64) - x.astype(np.float64).mean(axis=0)
    cov = xc.T @ xc / max(len(x) - 1, 1)
    vals, vecs = np.linalg.eigh(cov)
    order = np.argsort(vals)[::-1][:k]
    vecs = vecs[:, order]
    big = np.argmax(np.abs(vecs), axis=0)
    vecs = vecs * np.sign(vecs[big, np.arange(vecs.shape[1])])
    return (xc @ vecs).astype(np.float32), vals[order].clip(0).sum() / vals.clip(0).sum()


def targets_for(arm, firsts, k, rng):
    """Static targets (items, K) of `arm` from each item's first N votes `firsts` (items, N)."""
    n_items, n = firsts.shape
    counts = np.stack([(firsts == j).sum(axis=1) for j in range(k)], axis=1).astype(np.float64)
    if arm == "hard" or arm.startswith("ls"):
        eps = float(arm[2:]) if arm.startswith("ls") else 0.0
        tied = counts == counts.max(axis=1, keepdims=True)
        # Uniform tie-break: the tied class with the largest random key.
        winner = np.argmax(np.where(tied, rng.random(counts.shape), -1.0), axis=1)
        onehot = np.eye(k)[winner]
        return (1 - eps) * onehot + eps / k
    if arm in ("soft", "sls", "multipass", "shuffled_sls"):  # per-epoch arms validate against p_N
        return counts / n
    if arm == "deterministic":  # no cycling: one vote per item, the same every epoch
        return np.eye(k)[firsts[:, 0]]
    if arm == "dirichlet":
        return (counts + 1.0 / k) / (n + 1.0)
    raise SystemExit(f"unknown arm {arm}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--features", required=True, help="embeddings cache (.safetensors) from `annosat embed`")
    ap.add_argument("--votes", required=True, help="the dataset's votes.csv (wide counts)")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--arms", default=",".join(ARMS))
    ap.add_argument("--ns", default=",".join(map(str, N_GRID)))
    ap.add_argument("--pca", type=int, default=256)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--weight-decay", type=float, default=1e-2)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--layout", choices=["perhead", "wide"], default="perhead",
                    help="first layer as one bmm over heads (perhead, the faster here) or one wide matmul")
    ap.add_argument("--adamw", choices=["fused", "foreach", "loop"], default="fused",
                    help="torch.optim.AdamW implementation (fused is the fastest on CPU)")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    log = lambda *s: print(*s, file=sys.stderr, flush=True)

    # --- Data (not timed, like the trainer's prepare step before the group) ---
    tensors, meta = read_safetensors(a.features)
    classes, ids, counts = read_votes(a.votes)
    if json.loads(meta.get("item_ids", "[]")) != ids:
        raise SystemExit("the embeddings' item_ids are not votes.csv's items in order")
    x = pair_features(tensors, meta)
    t0 = time.perf_counter()
    if 0 < a.pca < x.shape[1]:
        x, kept = pca(x, a.pca)
        log(f"pca: {x.shape[1]} components, {kept * 100:.1f}% of variance, {time.perf_counter() - t0:.1f} s")
    k, n_items, d = len(classes), len(ids), x.shape[1]
    max_n = int(counts.sum(axis=1).min())
    ns = [n for n in map(int, a.ns.split(",")) if 1 <= n <= max_n]
    arms = a.arms.split(",")
    heads = [(arm, n) for arm in arms for n in ns]
    m, h = len(heads), a.hidden

    # PyTorch loads parts of itself lazily on the first optimiser step (about 2 s here): start-up
    # cost, not training work, so it is paid before the clock starts.
    opt_kw = {"fused": {"fused": True}, "foreach": {"foreach": True}, "loop": {"foreach": False}}[a.adamw]
    warm = torch.nn.Parameter(torch.zeros(2, 2))
    warm_opt = torch.optim.AdamW([warm], lr=a.lr, weight_decay=a.weight_decay, **opt_kw)
    torch.log_softmax(torch.baddbmm(warm[None], warm[None], warm[None]), -1).sum().backward()
    warm_opt.step()

    # --- One group, timed: vote orders and targets, then training with evaluation every epoch ---
    start = time.perf_counter()
    rng = np.random.default_rng(a.seed)
    perm = rng.permutation(n_items)
    n_tr = n_items * 8 // 10
    n_val = (n_items - n_tr) // 2
    tr, va, te = perm[:n_tr], perm[n_tr : n_tr + n_val], perm[n_tr + n_val :]
    # Each item's votes in one seeded order; the N-vote subsample is its first N (nested in N).
    orders = np.stack([rng.permutation(np.repeat(np.arange(k), c))[:max_n] for c in counts])
    static_tr = np.zeros((m, n_tr, k), dtype=np.float32)
    static_va = np.zeros((m, n_val, k), dtype=np.float32)
    dynamic = []
    for i, (arm, n) in enumerate(heads):
        static_tr[i] = targets_for(arm, orders[tr, :n], k, rng)
        static_va[i] = targets_for(arm, orders[va, :n], k, rng)
        if arm in ("sls", "multipass", "shuffled_sls"):
            dynamic.append((i, arm, n))
    t_train = torch.from_numpy(static_tr)
    t_val = torch.from_numpy(static_va)
    orders_tr = torch.from_numpy(orders[tr])
    # shuffled_sls: each training item is fed another's votes (a cyclic shift of a shuffled order,
    # as arms.rs's partners: item p[j] gets p[j+1]'s).
    p = rng.permutation(n_tr)
    partner = torch.empty(n_tr, dtype=torch.long)
    partner[torch.from_numpy(p)] = torch.from_numpy(np.roll(p, -1))
    eye = torch.eye(k)
    x_tr, x_va, x_te = (torch.from_numpy(np.ascontiguousarray(x[s])) for s in (tr, va, te))

    # One initialisation (PyTorch's Linear default, U(±1/√fan_in)) copied to every head.
    one1, one2 = torch.nn.Linear(d, h), torch.nn.Linear(h, k)
    with torch.no_grad():
        if a.layout == "wide":
            w1 = torch.nn.Parameter(one1.weight.T.repeat(1, m).contiguous())  # (d, m·h), head-major columns
            b1 = torch.nn.Parameter(one1.bias.repeat(m).contiguous())  # (m·h,)
        else:
            w1 = torch.nn.Parameter(one1.weight.T.expand(m, d, h).contiguous())  # (m, d, h)
            b1 = torch.nn.Parameter(one1.bias.expand(m, 1, h).contiguous())  # (m, 1, h)
        w2 = torch.nn.Parameter(one2.weight.T.expand(m, h, k).contiguous())  # (m, h, k)
        b2 = torch.nn.Parameter(one2.bias.expand(m, 1, k).contiguous())  # (m, 1, k)
    params = [w1, b1, w2, b2]
    opt = torch.optim.AdamW(params, lr=a.lr, weight_decay=a.weight_decay, **opt_kw)

    def forward(xb):  # (rows, d) -> (m, rows, k)
        if a.layout == "wide":  # one (rows, d)·(d, m·h) matmul, then heads to the front
            hid = torch.relu(torch.addmm(b1, xb, w1)).view(len(xb), m, h).transpose(0, 1)
        else:  # one batched matmul over heads, the rows broadcast (no copy) to every head
            hid = torch.relu(torch.baddbmm(b1, xb.expand(m, *xb.shape), w1))
        return torch.baddbmm(b2, hid, w2)

    def per_head_ce(logits, t):  # (m,) mean cross-entropy over rows
        return -(t * torch.log_softmax(logits, dim=-1)).sum(dim=(1, 2)) / logits.shape[1]

    best = torch.full((m,), float("inf"))
    best_val = torch.zeros(m, n_val, k)
    best_test = torch.zeros(m, len(te), k)
    best_epoch = torch.zeros(m, dtype=torch.long)
    train_hist, val_hist = [], []
    gen = torch.Generator().manual_seed(a.seed)
    for epoch in range(a.epochs):
        # Per-epoch arms: sls draws one of the N votes per item, multipass takes vote epoch mod N.
        for i, arm, n in dynamic:
            rows = partner if arm == "shuffled_sls" else torch.arange(n_tr)
            if arm in ("sls", "shuffled_sls"):
                col = torch.randint(0, n, (n_tr,), generator=gen)
            else:
                col = torch.full((n_tr,), epoch % n)
            t_train[i] = eye[orders_tr[rows, col]]
        order = torch.randperm(n_tr, generator=gen)
        train_sum = torch.zeros(m)
        for idx in order.split(a.batch):
            per_head = per_head_ce(forward(x_tr[idx]), t_train[:, idx])
            opt.zero_grad(set_to_none=True)
            per_head.sum().backward()
            opt.step()
            train_sum += per_head.detach() * len(idx)
        with torch.no_grad():
            val_logits = forward(x_va)
            val_loss = per_head_ce(val_logits, t_val)
            test_logits = forward(x_te)
            better = val_loss < best
            best = torch.where(better, val_loss, best)
            best_epoch[better] = epoch
            best_val[better] = val_logits[better]
            best_test[better] = test_logits[better]
        train_hist.append((train_sum / n_tr).tolist())
        val_hist.append(val_loss.tolist())
    secs = time.perf_counter() - start

    rate = m * a.epochs / secs
    log(f"torch {torch.__version__}, {torch.get_num_threads()} threads, AdamW {a.adamw}, "
        f"{a.layout} first layer: {m} heads "
        f"({len(arms)} arms × {len(ns)} N) × {a.epochs} epochs on {n_tr}/{n_val}/{len(te)} items, "
        f"d={d}: {secs:.2f} s, {rate:.1f} heads×epochs/s")
    log(f"mean train loss per epoch: {[round(float(np.mean(l)), 4) for l in train_hist]}")
    log(f"mean validation loss per epoch: {[round(float(np.mean(l)), 4) for l in val_hist]}")
    print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(), "heads": m,
                      "epochs": a.epochs, "seconds": round(secs, 3), "heads_epochs_per_s": round(rate, 3)}))


if __name__ == "__main__":
    main()
