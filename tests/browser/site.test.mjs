// The static site (scripts/build-site.sh: trunk build --public-url ./) served by a plain static file
// server under a sub-path, as a project page would be (https://user.github.io/annosat/): the main
// flow works and every request stays under the sub-path.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { browser, cliCurves, votesPath, idle, readout, METRICS, shots, dist } from './harness.mjs';

const SUB = 'annosat';
let server, ctx, base, hostRoot;

/** `python3 -m http.server` over a folder that holds the site as <root>/annosat/. */
async function plainServer() {
  hostRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'annosat-host-'));
  fs.symlinkSync(dist, path.join(hostRoot, SUB));
  const proc = spawn('python3', ['-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', hostRoot], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = await new Promise((resolve, reject) => {
    let out = '';
    const seen = (d) => {
      out += d;
      const m = out.match(/port (\d+)/);
      if (m) resolve(Number(m[1]));
    };
    proc.stdout.on('data', seen);
    proc.stderr.on('data', seen);
    proc.on('exit', (c) => reject(new Error(`http.server exited (${c}): ${out}`)));
    setTimeout(() => reject(new Error(`http.server did not start: ${out}`)), 15_000);
  });
  return { url: `http://127.0.0.1:${port}/${SUB}/`, close: () => proc.kill() };
}

before(async () => {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  assert.equal(html.match(/(src|href)=["']\/[^/]|from ["']\/|\(["']\/[^/]/), null,
    'index.html has no root-absolute URL (build with --public-url ./)');
  server = await plainServer();
  base = server.url;
  ctx = await browser();
});
after(async () => { await ctx?.close(); server?.close(); fs.rmSync(hostRoot, { recursive: true, force: true }); });

test('under /annosat/ on a plain static server: curves, slider, worker, models and upload all work', async () => {
  const page = await ctx.newPage();
  const errors = [], outside = [], failed = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('request', (r) => {
    const u = r.url();
    if (u.startsWith('http') && !u.startsWith(base)) outside.push(u);
  });
  page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
  await page.goto(base + '?n=10');
  await idle(page);
  // The worker pool loaded its script and wasm from the sub-path and computed the curves.
  const cli = cliCurves(votesPath('chaosnli_snli'), ['--n', '10', '--seed', '42', '--repeats', '50']);
  for (const metric of METRICS) {
    assert.equal((await readout(page, metric)).raw, cli[`10/${metric}`].mean, metric);
  }
  await page.locator('#n-slider').focus();
  await page.keyboard.press('ArrowRight');
  await idle(page);
  assert.equal(await page.locator('#n-value').textContent(), '11');
  assert.match(page.url(), new RegExp(`/${SUB}/\\?`), 'the URL state stays under the sub-path');
  // Another dataset's bundle and the models room's exports come from the sub-path too.
  await page.selectOption('#dataset', 'snow2008_rte');
  await page.locator('#stats', { hasText: '800' }).waitFor();
  await idle(page);
  await page.selectOption('#dataset', 'chaosnli_snli');
  await idle(page);
  await page.locator('#tab-models').click();
  await page.locator('#compare-table tbody tr').first().waitFor({ timeout: 60_000 });
  // An upload is computed in the tab, with no request at all.
  await page.locator('#tab-target').click();
  await page.setInputFiles('#upload', {
    name: 'mine.csv', mimeType: 'text/csv', buffer: Buffer.from('item_id,a,b\nx,3,1\ny,2,2\nz,0,4\n'),
  });
  await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
  await idle(page);
  assert.match(await page.locator('#stats').textContent(), /3.*a, b/s);
  await page.screenshot({ path: path.join(shots, 'site-subpath.png'), fullPage: false });
  assert.deepEqual(outside, [], 'no request leaves the sub-path');
  assert.deepEqual(failed, [], 'no request fails');
  assert.deepEqual(errors, []);
});
