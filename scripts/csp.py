#!/usr/bin/env python3
"""Trunk post_build hook: writes the page's Content-Security-Policy into the staged index.html.

Trunk's loader is an inline module script; instead of allowing inline scripts, the policy names
that one script by its SHA-256 (computed here, after every build, so it always matches). The rest:
scripts, styles, fetches and workers from the app's own origin only (workers start from blob: URLs
the page makes), 'wasm-unsafe-eval' to compile WebAssembly (no JavaScript eval), no plugins, no
forms, no base-URL rewriting. Inline style attributes stay allowed (Leptos sets them; they cannot
run code). Checked in the browser by tests/browser/safety.test.mjs.
"""
import base64, hashlib, os, re, sys

staging = os.environ.get("TRUNK_STAGING_DIR") or (sys.argv[1] if len(sys.argv) > 1 else None)
if not staging:
    sys.exit("csp.py: TRUNK_STAGING_DIR is not set (run it as Trunk's post_build hook)")
page = os.path.join(staging, "index.html")
html = open(page, encoding="utf-8").read()
hashes = [
    "'sha256-%s'" % base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode()
    for body in re.findall(r"<script[^>]*>(.*?)</script>", html, flags=re.S)
]
# scripts/serve.sh sets ANNOSAT_CSP_SERVE: `trunk serve` injects its live-reload script into the page
# after this hook has run, so no hash can name it; the development server allows inline scripts
# instead (a browser ignores 'unsafe-inline' once a hash is listed, so the hashes go). The built
# site (build-site.sh, the test command's site) keeps the strict policy.
scripts = "'unsafe-inline'" if os.environ.get("ANNOSAT_CSP_SERVE") else " ".join(hashes)
policy = "; ".join([
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval' " + scripts,
    "worker-src 'self' blob:",
    "connect-src 'self'",
    "img-src 'self' data: blob:",
    "style-src 'self' 'unsafe-inline'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
])
meta = '<meta http-equiv="Content-Security-Policy" content="%s" />' % policy
html = re.sub(r'\s*<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
html = html.replace('<meta charset="utf-8" />', '<meta charset="utf-8" />\n    ' + meta, 1)
if meta not in html:
    sys.exit("csp.py: no <meta charset=\"utf-8\" /> in index.html to put the policy after")
open(page, "w", encoding="utf-8").write(html)
