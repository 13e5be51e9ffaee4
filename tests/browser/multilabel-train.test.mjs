// Multilabel models trained in the tab, in real headless Chromium: an upload of CrowdTruth medical
// relation votes (wide layout) with its items.jsonl is embedded with MiniLM and sigmoid heads per
// arm × N are trained 5-fold in the model worker's pool; two workers give the export one worker
// gives (the same bytes); `annosat sweep` on the tab's own head features gives the same verdicts
// and curves; Stop ends the pool; a file without texts and a few-votes file get words, not numbers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, browser, openApp, idle, shots, recordStages } from './harness.mjs';

const dir = path.join(process.env.ANNOSAT_DATA || '', 'crowdtruth_medrelex');
const have = fs.existsSync(path.join(dir, 'ratings_multilabel.csv'));
const skip = !have && 'no crowdtruth_medrelex in ANNOSAT_DATA';
const ITEMS = 150;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'annosat-mltrain-'));

let server, ctx;
before(async () => { server = await serve(); ctx = await browser(); });
after(async () => { await ctx?.close(); await server?.close(); });

/** The first ITEMS items' rows (the first `votes` annotators of each, all when unset) and texts. */
function sample(votes) {
  const [header, ...rows] = fs.readFileSync(path.join(dir, 'ratings_multilabel.csv'), 'utf8').trim().split('\n');
  const ids = [];
  const per = new Map();
  const kept = [];
  for (const r of rows) {
    const id = r.slice(0, r.indexOf(','));
    if (!per.has(id)) {
      if (ids.length === ITEMS) break;
      ids.push(id);
      per.set(id, 0);
    }
    per.set(id, per.get(id) + 1);
    if (!votes || per.get(id) <= votes) kept.push(r);
  }
  const want = new Set(ids);
  const texts = fs.readFileSync(path.join(dir, 'items.jsonl'), 'utf8').trim().split('\n')
    .filter((l) => want.has(JSON.parse(l).item_id));
  return { csv: [header, ...kept].join('\n') + '\n', jsonl: texts.join('\n') + '\n' };
}

const file = (name, text) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

async function upload(page, votes, texts) {
  await page.setInputFiles('#upload', votes);
  await page.locator('#ml-answer').waitFor({ timeout: 60_000 });
  await idle(page);
  await page.click('#tab-models');
  await page.locator('#own-train').waitFor();
  if (texts) await page.setInputFiles('#own-texts', texts);
}

/** Trains and returns what the page shows and offers. */
async function train(page) {
  await page.click('#own-train');
  const sum = page.locator('#own-summary');
  await sum.waitFor({ timeout: 600_000 });
  const [dx] = await Promise.all([page.waitForEvent('download'), page.click('#ml-download-export')]);
  const [df] = await Promise.all([page.waitForEvent('download'), page.click('#ml-download-features')]);
  return {
    hash: await sum.getAttribute('data-export'),
    workers: await sum.getAttribute('data-workers'),
    text: await sum.textContent(),
    exportPath: await dx.path(),
    export: JSON.parse(fs.readFileSync(await dx.path(), 'utf8')),
    features: fs.readFileSync(await df.path()),
  };
}

test('multilabel heads trained in the tab: 2 workers = 1 worker, the CLI on the same features agrees, Stop ends the pool', { skip }, async () => {
  const { csv, jsonl } = sample();
  const runs = {};
  for (const k of [1, 2]) {
    const page = await openApp(ctx, server.url, `?model_workers=${k}`);
    await upload(page, file('medrelex150.csv', csv), { name: 'items.jsonl', mimeType: 'application/json', buffer: Buffer.from(jsonl) });
    if (k === 2) {
      await recordStages(page, '#own-status');
    }
    runs[k] = await train(page);
    if (k === 2) {
      const stages = await page.evaluate(() => window.__stages);
      assert.ok(stages.some((t) => /embedding in 2 workers: \d+ of \d+ texts/.test(t)), stages.join(' | '));
      assert.ok(stages.some((t) => /folds? [\d, and]+ of 5: training heads \(sigmoid, per label\) in 2 workers: epochs? [\d, and]+ of at most 60/.test(t)), stages.join(' | '));
      // What the user sees: the tab's own export drawn as the bundled one is.
      assert.equal(await page.locator('.ml-model-charts canvas').count(), 4);
      assert.equal(await page.locator('#ml-models-sentences li').count(), 4);
      assert.equal(await page.locator('#ml-versus tbody tr').count(), runs[k].export.evaluation.ns.length);
      assert.equal(await page.locator('#ml-model-labels tbody tr').count(), 14, 'the per-label table');
      assert.equal(runs[k].export.per_label.length, 3 * 14 * 2, 'soft, hard and constant × 14 labels × 2 metrics');
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.screenshot({ path: path.join(shots, 'multilabel-own.png'), fullPage: true });
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  }
  assert.equal(runs[1].workers, '1');
  assert.equal(runs[2].workers, '2');
  assert.match(runs[2].text, /in 2 model workers/);
  assert.match(runs[1].text, new RegExp(`^${ITEMS} items \\(${ITEMS} distinct texts, 14 labels\\)`));
  assert.equal(runs[2].hash, runs[1].hash, 'the export differs between 1 and 2 workers');
  assert.ok(runs[1].features.equals(runs[2].features), 'the head features differ between 1 and 2 workers');
  const e = runs[1].export;
  assert.equal(e.items, ITEMS);
  assert.equal(e.folds, 5);
  assert.deepEqual(e.evaluation.ns, [1, 2, 3, 5, 7, 10, 15]);

  // The CLI on the tab's head features: the same design, trained natively.
  const data = path.join(tmp, 'medrelex150');
  fs.mkdirSync(data, { recursive: true });
  fs.writeFileSync(path.join(data, 'ratings_multilabel.csv'), csv);
  fs.writeFileSync(path.join(data, 'items.jsonl'), jsonl);
  const feats = path.join(tmp, 'features.safetensors');
  fs.writeFileSync(feats, runs[1].features);
  execFileSync(process.env.ANNOSAT_CLI, ['sweep', '--data', data, '--head-features', feats, '--folds', '5', '--model-seeds', '1', '--out', path.join(tmp, 'out')],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const c = JSON.parse(fs.readFileSync(path.join(tmp, 'out/medrelex150/multilabel.json'), 'utf8'));
  assert.equal(c.features, e.features, 'the CLI trained on the tab\'s features');
  let worst = 0;
  let verdicts = 0;
  for (const cc of c.evaluation.curves) {
    const tc = e.evaluation.curves.find((t) => t.arm === cc.arm && t.metric === cc.metric);
    assert.ok(tc, `${cc.arm} ${cc.metric} in the tab's export`);
    for (const k of ['mean', 'lo', 'hi']) {
      cc[k].forEach((v, i) => { if (v !== null) worst = Math.max(worst, Math.abs(v - tc[k][i])); });
    }
    assert.equal(tc.verdict.verdict, cc.verdict.verdict, `${cc.arm} ${cc.metric}: the tab's verdict is the CLI's`);
    verdicts++;
  }
  for (const cc of c.per_label) {
    const tc = e.per_label.find((t) => t.arm === cc.arm && t.label === cc.label && t.metric === cc.metric);
    for (const k of ['mean', 'lo', 'hi']) {
      cc[k].forEach((v, i) => { if (v !== null) worst = Math.max(worst, Math.abs(v - tc[k][i])); });
    }
    assert.equal(tc.verdict.verdict, cc.verdict.verdict, `label ${cc.label} ${cc.arm} ${cc.metric}: the tab's verdict is the CLI's`);
    verdicts++;
  }
  const epochs = c.best_epochs.flat().map((v, i) => Math.abs(v - e.best_epochs.flat()[i]));
  console.log(`# multilabel, tab vs annosat sweep on the tab's features (${ITEMS} items, 5 folds): ${verdicts} verdicts equal, largest |curve difference| ${worst.toExponential(2)}, largest |mean best epoch difference| ${Math.max(...epochs)}`);
  fs.writeFileSync(path.join(shots, 'multilabel-tab-vs-cli.json'), JSON.stringify({ items: ITEMS, verdicts, max_abs_diff: worst, max_epoch_diff: Math.max(...epochs) }));
  assert.ok(worst <= 1e-5, `the tab's curves differ from the CLI's by ${worst}`);
  assert.equal(Math.max(...epochs), 0, 'every head stopped at the CLI\'s epoch');

  // Stop while the pool trains: cancelled, the pool's workers end, and a new job gives the same export.
  const page = await openApp(ctx, server.url, '?model_workers=2');
  const curveWorkers = page.workers().length;
  await upload(page, file('medrelex150.csv', csv), { name: 'items.jsonl', mimeType: 'application/json', buffer: Buffer.from(jsonl) });
  await page.click('#own-train');
  await page.locator('#own-status', { hasText: /training heads \(sigmoid, per label\) in 2 workers/ }).waitFor({ timeout: 300_000 });
  const during = page.workers().length;
  await page.click('#own-cancel');
  await page.locator('#own-status', { hasText: /^cancelled$/ }).waitFor({ timeout: 30_000 });
  for (let i = 0; i < 100 && page.workers().length > curveWorkers; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(during, curveWorkers + 3, 'the coordinator and 2 pool workers');
  assert.equal(page.workers().length, curveWorkers, 'Stop ends the coordinator and its pool');
  const again = await train(page);
  assert.equal(again.hash, runs[1].hash);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('multilabel uploads without texts, or with 5 votes per item, get words instead of numbers', { skip }, async () => {
  const { csv, jsonl } = sample(5);
  const page = await openApp(ctx, server.url);
  await upload(page, file('medrelex150-5votes.csv', csv), null);
  await page.click('#own-train');
  await page.locator('#own-error').waitFor({ timeout: 60_000 });
  assert.match(await page.locator('#own-error').textContent(), /has no text column .* and no texts file was added/);
  await page.setInputFiles('#own-texts', { name: 'items.jsonl', mimeType: 'application/json', buffer: Buffer.from(jsonl) });
  const r = await train(page);
  assert.deepEqual(r.export.evaluation.ns, [1, 2, 3, 5]);
  // Every 90% point of an improving curve is forced by the 5 votes: said in words, no N printed.
  let bounded = 0;
  for (const c of r.export.evaluation.curves) {
    if (c.verdict.verdict === 'saturates') {
      assert.equal(c.verdict.bounded_by, 5, `${c.arm} ${c.metric}`);
      bounded++;
    }
  }
  for (const li of await page.locator('#ml-models-sentences li').all()) {
    const text = await li.textContent();
    assert.doesNotMatch(text, /saturates by N=/, text);
  }
  const words = (await page.locator('#ml-models-sentences').textContent()).match(/bounded by your 5 votes/g) ?? [];
  assert.equal(words.length, bounded);
  console.log(`# 5 votes per item: ${bounded} improving curves, each bounded by the votes in words`);
  assert.ok(bounded > 0, 'some curve improves with N on these items (the checks above would be empty otherwise)');
  assert.deepEqual(page.errors, []);
  await page.close();
});
