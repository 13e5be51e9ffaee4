// Multilabel votes in real headless Chromium: the bundled CrowdTruth medical relation set and an
// upload of its long layout show the Target room's multilabel view — per-metric sentences,
// saturation points, readouts and per-label rows equal to what `annosat curves` prints for the
// same seed — a single-label dataset opened after it shows the single-label view again, and the
// Models room draws the committed multilabel model export with its verdicts and soft − hard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { serve, browser, openApp, idle, shots, annosat } from './harness.mjs';

const METRICS = ['kl', 'jsd', 'brier', 'soft_bce', 'entropy_corr', 'macro_f1', 'micro_f1', 'exact_set'];
const dir = path.join(process.env.ANNOSAT_DATA || '', 'crowdtruth_medrelex');
const have = fs.existsSync(path.join(dir, 'ratings_multilabel.csv'));

let server, ctx;
before(async () => { server = await serve(); ctx = await browser(); });
after(async () => { await ctx?.close(); await server?.close(); });

function cli(file) {
  return JSON.parse(annosat(['curves', '--votes', path.join(dir, file), '--format', 'json']));
}

async function sameAsCli(page, want, n) {
  await page.locator('#ml-answer').waitFor();
  const rows = await page.locator('#ml-answer li').evaluateAll((lis) => lis.map((li) => ({
    metric: li.dataset.metric, n: li.dataset.n, bounded: li.dataset.bounded, text: li.textContent.trim(),
  })));
  assert.deepEqual(rows.map((r) => r.metric), METRICS);
  for (const r of rows) {
    const s = want.saturation[r.metric];
    assert.equal(r.n, s.n === null ? '' : String(s.n), r.metric);
    assert.equal(r.bounded, String(s.bounded_by_votes), r.metric);
    assert.equal(r.text, s.sentence, r.metric);
  }
  for (const m of METRICS) {
    const raw = await page.locator(`.ml-readouts .readout[data-metric="${m}"]`).getAttribute('data-value');
    const p = want.metrics[m].find((q) => q.n === n);
    if (p.mean === null) assert.equal(raw, '', m);
    else assert.equal(Number(raw), p.mean, `${m} at N=${n}: app ${raw}, CLI ${p.mean}`);
  }
  assert.equal(await page.locator('#ml-labels tbody tr').count(), want.labels.length);
  assert.equal(await page.locator('.ml-charts canvas').count(), 8);
  assert.deepEqual(page.errors, []);
}

test('the bundled multilabel set: the CLI\'s sentences, points and values, screenshot', { skip: !have && 'no crowdtruth_medrelex in ANNOSAT_DATA' }, async () => {
  const page = await openApp(ctx, server.url, '?dataset=crowdtruth_medrelex&n=5');
  await sameAsCli(page, cli('ratings_multilabel.csv'), 5);
  // The data card names the licence situation as the source states it.
  assert.match(await page.locator('body').textContent(), /None stated/);
  await page.setViewportSize({ width: 1280, height: 900 });
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, 'multilabel.png'), fullPage: true });
  // Back to single-label data: the single-label view, no multilabel panel left over.
  await page.selectOption('#dataset', 'chaosnli_snli');
  await idle(page);
  await page.locator('#saturation').waitFor();
  assert.equal(await page.locator('#ml-answer').count(), 0);
  await page.close();
});

test('an upload of the long layout (one row per ticked label) is read as multilabel', { skip: !have && 'no crowdtruth_medrelex in ANNOSAT_DATA' }, async () => {
  const page = await openApp(ctx, server.url, '?n=3');
  await page.setInputFiles('#upload', path.join(dir, 'labels_long.csv'));
  await page.locator('#ml-answer').waitFor({ timeout: 60_000 });
  await idle(page);
  await sameAsCli(page, cli('labels_long.csv'), 3);
  assert.match(await page.locator('body').textContent(), /multilabel votes: 14 labels/);
  await page.close();
});

test('the Models room draws the committed multilabel export: its verdicts and soft − hard, screenshot', { skip: !have && 'no crowdtruth_medrelex in ANNOSAT_DATA' }, async () => {
  const exp = JSON.parse(fs.readFileSync(new URL('../../public/models/crowdtruth_medrelex/multilabel.json', import.meta.url), 'utf8'));
  const page = await openApp(ctx, server.url, '?dataset=crowdtruth_medrelex&room=models&n=5');
  await page.locator('#ml-models').waitFor({ timeout: 60_000 });
  await idle(page);
  const ev = exp.evaluation;
  const words = { no_detectable_change: 'no detectable change with N', worsens: 'worsens with N', undefined: 'undefined' };
  const items = await page.locator('#ml-models-sentences li').evaluateAll((lis) => lis.map((li) => [li.dataset.metric, li.textContent]));
  assert.deepEqual(items.map((i) => i[0]), ['soft_bce', 'macro_f1', 'micro_f1', 'entropy_corr']);
  for (const [metric, text] of items) {
    for (const c of ev.curves.filter((c) => c.metric === metric)) {
      const v = c.verdict;
      const want = v.verdict !== 'saturates' ? words[v.verdict]
        : v.bounded_by ? `improves with N; its 90% point is bounded by your ${v.bounded_by} votes`
          : `saturates by N=${v.n90} [${v.n90_lo}, ${v.n90_hi}]`;
      assert.ok(text.includes(`${c.arm} ${want}`), `${metric} ${c.arm}: "${want}" in "${text}"`);
      if (v.last !== null) assert.ok(text.includes(`${v.last.toFixed(3)} [${v.last_lo.toFixed(3)}, ${v.last_hi.toFixed(3)}]`), `${metric} ${c.arm} at N_max`);
    }
  }
  assert.equal(await page.locator('.ml-model-charts canvas').count(), 4);
  // Soft − hard: one row per N, each cell the export's paired difference and outcome.
  const sgn = (x) => (x >= 0 ? '+' : '') + x.toFixed(3);
  assert.equal(await page.locator('#ml-versus tbody tr').count(), ev.ns.length);
  for (const v of ev.versus.filter((v) => v.arm === 'soft' && v.against === 'hard')) {
    const cell = page.locator(`#ml-versus tr[data-n="${v.n}"] td[data-metric="${v.metric}"]`);
    assert.equal(await cell.textContent(), `${sgn(v.diff)} [${sgn(v.lo)}, ${sgn(v.hi)}]`);
    assert.equal(await cell.getAttribute('data-outcome'), v.outcome);
  }
  // Per label: each cell is the export's per-label curve at the largest N, with its verdict.
  const last = ev.ns.length - 1;
  const f3 = (x) => x.toFixed(3);
  assert.equal(await page.locator('#ml-model-labels tbody tr').count(), exp.labels.length);
  for (const c of exp.per_label) {
    const name = exp.labels[c.label];
    const cell = page.locator(`#ml-model-labels tr[data-label="${name}"] td.num[data-arm="${c.arm}"][data-metric="${c.metric}"]`);
    if (c.metric === 'f1' && c.arm === 'constant') { assert.equal(await cell.count(), 0); continue; }
    const want = c.mean[last] === null ? 'undefined' : `${f3(c.mean[last])} [${f3(c.lo[last])}, ${f3(c.hi[last])}]`;
    assert.equal(await cell.textContent(), want, `${name} ${c.arm} ${c.metric}`);
    assert.equal(await cell.getAttribute('data-verdict'), c.verdict.verdict, `${name} ${c.arm} ${c.metric}`);
  }
  assert.deepEqual(page.errors, []);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: path.join(shots, 'multilabel-models.png'), fullPage: true });
  await page.close();
});
