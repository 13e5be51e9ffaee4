#!/usr/bin/env python3
"""No import circles between the files of one crate: reads every `use` of each crate's source
files (`crate::…`, `super::…`, `self::…`, and a crate root's own modules), resolves each to the
file that defines the module it names, and fails on a cycle of files (a strongly connected
component of more than one file). A parent module re-exporting or declaring its children is
structure, not a dependency, and is not an edge. What two files both need belongs in a leaf module
they both import (ARCHITECTURE.md, "No import circles").

  python3 scripts/check-circles.py        (scripts/check-rooms.sh runs it)
"""
import os
import re
import sys

CRATES = ["core/src", "heads/src", "encoder/src", "model-worker/src", "trainer/src", "src"]
ROOTS = {"lib.rs", "main.rs"}
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def module_of(root, path):
    """Module path (list) of a file under a crate's src folder."""
    rel = os.path.relpath(path, root)[:-3].split(os.sep)
    if rel[-1] == "mod" or (len(rel) == 1 and rel[0] + ".rs" in ROOTS):
        rel = rel[:-1]
    if len(rel) >= 1 and rel[0] == "bin":
        return None
    return rel


def uses(text):
    """Every path a `use` statement names, as a list of segments (brace groups expanded), and
    every `crate::…` / `super::…` path written in the code itself."""
    code = without_inline_tests(re.sub(r"//[^\n]*", "", text))
    out = []
    for m in re.finditer(r"^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", code, re.M):
        out.extend(expand(m.group(1).replace("\n", " ")))
    for m in re.finditer(r"\b((?:crate|super)(?:::(?:super|[A-Za-z_][A-Za-z0-9_]*))+)", code):
        out.append(m.group(1).split("::"))
    return out


def without_inline_tests(code):
    """The code without its inline `#[cfg(test)] mod … { … }` blocks (their `super` is the file)."""
    while True:
        m = re.search(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", code)
        if not m:
            return code
        depth, i = 0, m.end() - 1
        while i < len(code):
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            i += 1
            if depth == 0:
                break
        code = code[:m.start()] + code[i:]


def expand(spec):
    spec = spec.strip()
    i = spec.find("{")
    if i < 0:
        return [[s for s in re.split(r"\s*::\s*", spec.split(" as ")[0].strip()) if s]]
    head = [s for s in re.split(r"\s*::\s*", spec[:i].strip().rstrip(":")) if s]
    body = spec[i + 1:spec.rfind("}")]
    parts, depth, cur = [], 0, ""
    for ch in body:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    parts.append(cur)
    return [head + p for part in parts if part.strip() for p in expand(part)]


def main():
    bad = 0
    for root in CRATES:
        if not os.path.isdir(root):
            continue
        files = {}
        for d, _, names in os.walk(root):
            for n in names:
                if n.endswith(".rs"):
                    p = os.path.join(d, n)
                    mod = module_of(root, p)
                    if mod is not None:
                        files[tuple(mod)] = p
        edges = {p: set() for p in files.values()}
        for mod, p in files.items():
            text = open(p, encoding="utf-8").read()
            # mod.rs, a crate root, or `a.rs` beside a folder `a/` of its children.
            is_dir_mod = (os.path.basename(p) == "mod.rs" or os.path.basename(p) in ROOTS
                          or os.path.isdir(p[:-3]))
            for path in uses(text):
                if not path:
                    continue
                if path[0] == "crate":
                    target, rest = [], path[1:]
                elif path[0] == "super":
                    target, rest = list(mod), list(path)
                    while rest and rest[0] == "super":
                        target = target[:-1]
                        rest = rest[1:]
                elif path[0] == "self":
                    target, rest = list(mod), path[1:]
                elif tuple(list(mod) + [path[0]]) in files:
                    target, rest = list(mod), list(path)
                else:
                    continue
                # The longest module prefix that is a file.
                best = tuple(target)
                cur = list(target)
                for seg in rest:
                    if not re.fullmatch(IDENT, seg):
                        break
                    cur.append(seg)
                    if tuple(cur) in files:
                        best = tuple(cur)
                q = files.get(best)
                if q is None or q == p:
                    continue
                # A parent naming its own descendants is structure, not a dependency.
                if len(best) > len(mod) and best[:len(mod)] == tuple(mod) and is_dir_mod:
                    continue
                edges[p].add(q)
        for comp in sccs(edges):
            if len(comp) > 1:
                bad = 1
                print(f"import circle in {root}: " + " -> ".join(sorted(comp)), file=sys.stderr)
    if not bad:
        print(f"circles: none between the files of {len(CRATES)} crates")
    sys.exit(bad)


def sccs(edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    sys.setrecursionlimit(10000)
    for v in list(edges):
        if v not in index:
            visit(v)
    return out


if __name__ == "__main__":
    main()
