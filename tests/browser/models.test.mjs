// The models and reproduction rooms in real headless Chromium: model-side curves from the committed
// exports, arm toggles, the paired comparison (numbers equal to the manifest's), the snap of N to
// the trained grid, datasets without models, and the reproduction table.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, browser, openApp, shots, dist } from './harness.mjs';

let server, ctx;
before(async () => { server = await serve(); ctx = await browser(); });
after(async () => { await ctx?.close(); await server?.close(); });

const manifest = (ds) => JSON.parse(fs.readFileSync(path.join(dist, 'models', ds, 'manifest.json'), 'utf8'));

function meanOf(m, arm, n, key) {
  const v = m.runs.filter((r) => r.arm === arm && r.n === n).map((r) => r.metrics[key]).filter((x) => x !== null);
  return v.reduce((a, b) => a + b, 0) / v.length;
}

test('the models room draws every metric per arm and compares arms with the manifest\'s numbers', async () => {
  const page = await openApp(ctx, server.url, '?room=models&n=12');
  await page.locator('#compare-table tbody tr').first().waitFor({ timeout: 60_000 });
  assert.equal(await page.locator('[data-model-metric] canvas').count(), 10);
  assert.equal(await page.locator('#arm-toggles input[type=checkbox]').count(), 15, 'eleven arms, two controls, two baselines');
  for (const b of ['constant', 'knn']) assert.ok(await page.locator(`#arm-toggles input[data-arm=${b}]`).isChecked(), `${b} shown by default`);
  // N=12 is between trained budgets: the comparison snaps to N=10.
  assert.equal(await page.locator('#cmp-n').textContent(), '10');
  const m = manifest('chaosnli_snli');
  const row = page.locator('#compare-table tr[data-metric=kl] td');
  assert.equal(await row.nth(1).textContent(), meanOf(m, 'soft', 10, 'kl').toFixed(4));
  assert.equal(await row.nth(2).textContent(), meanOf(m, 'ls0.1', 10, 'kl').toFixed(4));
  const units = new Set(m.runs.map((r) => `${r.split}/${r.seed}`)).size;
  const [w, l, t] = (await row.nth(3).textContent()).split('–').map(Number);
  assert.equal(w + l + t, units, 'every (split, seed) unit is counted once');
  // Toggling an arm adds its x%-captured readout to every panel.
  assert.equal(await page.locator('.cap[data-arm=multipass]').count(), 0);
  await page.locator('#arm-toggles input[data-arm=multipass]').check();
  assert.equal(await page.locator('.cap[data-arm=multipass]').count(), 8, 'every compared panel (not UNC or the residual)');
  // Choosing other arms recomputes the comparison.
  await page.selectOption('#cmp-b', 'hard');
  assert.equal(await row.nth(2).textContent(), meanOf(m, 'hard', 10, 'kl').toFixed(4));
  assert.match(page.url(), /room=models/);
  await page.screenshot({ path: path.join(shots, 'models-1280.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
});

test('every ChaosNLI set has model curves; a dataset without models says how to train them', async () => {
  const page = await openApp(ctx, server.url, '?room=models');
  for (const ds of ['chaosnli_mnli', 'chaosnli_alphanli']) {
    await page.selectOption('#dataset', ds);
    await page.locator('.model-head', { hasText: ds }).waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('[data-model-metric] canvas').count(), 10);
  }
  // The pooled SNLI + MNLI export (5-fold): all-items scores with intervals.
  await page.selectOption('#export-pick', 'chaosnli_nli_pooled');
  await page.locator('#pooled-table tbody tr').first().waitFor({ timeout: 60_000 });
  const pooled = manifest('chaosnli_nli_pooled');
  assert.equal(pooled.config.folds, 5);
  assert.match(await page.locator('#pooled-table tbody tr[data-arm=soft]').textContent(), /3113/);
  assert.match(await page.locator('#pooled-table').textContent(), /\[-?0\.\d{3}, -?0\.\d{3}\]/);
  await page.selectOption('#dataset', 'cifar10h');
  await page.locator('#no-models').waitFor();
  assert.match(await page.locator('#no-models').textContent(), /annosat-trainer -- sweep/);
  assert.deepEqual(page.errors, []);
});

test('the reproduction room sets published numbers beside ours', async () => {
  const page = await openApp(ctx, server.url, '?room=repro');
  await page.locator('#repro-table tbody tr').first().waitFor({ timeout: 60_000 });
  const text = await page.locator('#repro-table').textContent();
  assert.match(text, /0\.643/);
  assert.match(text, /MiniLM|DeBERTa/);
  const repro = JSON.parse(fs.readFileSync(path.join(dist, 'models/reproduction.json'), 'utf8'));
  assert.equal(await page.locator('#repro-table tbody tr').count(), repro.rows.length);
  assert.equal(await page.locator('#findings li').count(), repro.findings.length);
  assert.equal(await page.locator('#controls-table tbody tr').count(), repro.controls.length);
  assert.match(await page.locator('#repro-room').textContent(), /all-MiniLM-L6-v2/);
  await page.screenshot({ path: path.join(shots, 'repro-1280.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
});
