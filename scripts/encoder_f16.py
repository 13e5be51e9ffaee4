#!/usr/bin/env python3
"""Writes the app's copy of the encoder: config.json, tokenizer.json, modules.json and an F16
model.safetensors (half the download; the model worker loads it as F32).

    python3 scripts/encoder_f16.py <checkpoint dir> <out dir>

Standard library only (the serve path installs nothing else): safetensors is an 8-byte little-endian
header length, a JSON header, then raw little-endian tensors; struct's 'e' format is IEEE binary16
with round-to-nearest-even, as numpy's astype(float16)."""
import json, os, shutil, struct, sys

src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
with open(os.path.join(src, "model.safetensors"), "rb") as f:
    (n,) = struct.unpack("<Q", f.read(8))
    header = json.loads(f.read(n))
    data = f.read()
meta = header.pop("__metadata__", None)
names = sorted(header, key=lambda k: header[k]["data_offsets"][0])
new_header, chunks, at = {}, [], 0
for name in names:
    t = header[name]
    a, b = t["data_offsets"]
    raw = data[a:b]
    if t["dtype"] == "F32":
        count = (b - a) // 4
        raw = struct.pack(f"<{count}e", *struct.unpack(f"<{count}f", raw))
        dtype = "F16"
    else:
        dtype = t["dtype"]
    new_header[name] = {"dtype": dtype, "shape": t["shape"], "data_offsets": [at, at + len(raw)]}
    chunks.append(raw)
    at += len(raw)
if meta is not None:
    new_header["__metadata__"] = meta
h = json.dumps(new_header, separators=(",", ":")).encode()
h += b" " * (-len(h) % 8)  # keep the data 8-byte aligned
tmp = os.path.join(out, "model.safetensors.part")
with open(tmp, "wb") as f:
    f.write(struct.pack("<Q", len(h)))
    f.write(h)
    for c in chunks:
        f.write(c)
os.replace(tmp, os.path.join(out, "model.safetensors"))
for name in ("config.json", "tokenizer.json", "modules.json", "LICENSE", "NOTICE"):
    if os.path.exists(os.path.join(src, name)):
        shutil.copyfile(os.path.join(src, name), os.path.join(out, name))
print(out)
