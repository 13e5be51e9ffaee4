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

// The curve's point as Manifest::curve computes it: a k-fold export's all-items runs, else its runs.
function meanOf(m, arm, n, key) {
  const runs = m.pooled?.length ? m.pooled : m.runs;
  const v = runs.filter((r) => r.arm === arm && r.n === n).map((r) => r.metrics[key]).filter((x) => x !== null);
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
  // Toggling an arm adds its readout to every panel.
  assert.equal(await page.locator('.cap[data-arm=multipass]').count(), 0);
  await page.locator('#arm-toggles input[data-arm=multipass]').check();
  assert.equal(await page.locator('.cap[data-arm=multipass]').count(), 8, 'every compared panel (not UNC or the residual)');
  // Each readout is the export's verdict: an N (with its interval at 90%) only where the change is
  // detectable in the improving direction, else the verdict's words.
  const words = { no_detectable_change: 'no detectable change with N', worsens: 'worsens with N', undefined: 'undefined' };
  for (const cap of await page.locator('.cap').all()) {
    const [arm, kind] = [await cap.getAttribute('data-arm'), await cap.getAttribute('data-verdict')];
    const metric = await cap.evaluate((el) => el.closest('[data-model-metric]').dataset.modelMetric);
    const v = m.verdicts.find((x) => x.arm === arm && !x.source).metrics.find(([k]) => k === metric)[1];
    assert.equal(kind, v.verdict, `${arm} ${metric}`);
    const text = await cap.textContent();
    if (kind === 'saturates') assert.equal(text, `${arm}: N=${v.n90} [${v.n90_lo}, ${v.n90_hi}]`);
    else assert.equal(text, `${arm}: ${words[kind]}`);
  }
  // The verdict table: soft's KL row as the manifest has it.
  const kl = m.verdicts.find((x) => x.arm === 'soft' && !x.source).metrics.find(([k]) => k === 'kl')[1];
  const cell = page.locator('#verdict-table tr[data-arm=soft][data-source="all items"] td[data-metric=kl]');
  assert.equal(await cell.getAttribute('data-verdict'), kl.verdict);
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
    // The panels are drawn after the heading: wait for them rather than racing them.
    await page.waitForFunction(() => document.querySelectorAll('[data-model-metric] canvas').length === 10, null, { timeout: 60_000 });
  }
  // The pooled SNLI + MNLI export (10-fold): all-items scores with intervals, and verdicts within
  // each source beside the pooled ones, with what a source-only predictor's r would be.
  await page.selectOption('#export-pick', 'chaosnli_nli_pooled');
  await page.locator('#pooled-table tbody tr').first().waitFor({ timeout: 60_000 });
  await page.locator('#verdict-table tr[data-source="chaosnli_mnli"]').first().waitFor({ timeout: 60_000 });
  const pooled = manifest('chaosnli_nli_pooled');
  assert.equal(pooled.config.folds, 10);
  for (const src of ['all items', 'chaosnli_snli', 'chaosnli_mnli']) {
    assert.equal(await page.locator(`#verdict-table tr[data-arm=soft][data-source="${src}"]`).count(), 1, src);
  }
  assert.match(await page.locator('#source-only').textContent(), new RegExp(pooled.source_only_entropy_corr.toFixed(3)));
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
  // Every row has one line per dataset with the value reproduction.json holds.
  const first = repro.rows[0];
  for (const d of repro.datasets) {
    const line = page.locator(`#repro-table tbody tr >> nth=0 >> .ours-line[data-dataset="${d}"] .num`);
    assert.equal(await line.textContent(), first.ours[d] ?? '–', d);
  }
  // Nothing cut off at 1280 px: both tables end inside the page.
  for (const id of ['#repro-table', '#controls-table']) {
    const right = await page.locator(id).evaluate((t) => t.getBoundingClientRect().right);
    assert.ok(right <= 1280, `${id} ends at ${right} px, past the 1280 px page`);
  }
  await page.screenshot({ path: path.join(shots, 'repro-1280.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
});
