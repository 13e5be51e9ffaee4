// The Plan room's agreement and adaptive-allocation tools in real headless Chromium: their CSV
// exports equal `annosat agree` and `annosat adaptive` on the same data, byte for byte (same core
// code, libm's math on both sides), on an upload with annotator ids (Dawid–Skene runs), on
// ordered classes (interval α) and on the bundled default dataset.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, browser, openApp, idle, shots, annosat } from './harness.mjs';

const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
let server, ctx;
before(async () => { server = await serve(); ctx = await browser(); });
after(async () => { await ctx?.close(); await server?.close(); });

const cli = annosat;

function data(...parts) {
  const dir = process.env.ANNOSAT_DATA;
  if (!dir) throw new Error('set ANNOSAT_DATA (scripts/test.sh does)');
  return path.join(dir, ...parts);
}

async function download(page, button) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  return fs.readFileSync(await d.path(), 'utf8');
}

async function upload(page, file) {
  await page.setInputFiles('#upload', file);
  await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
  await idle(page);
  await page.click('#tab-plan');
  // A few-vote upload starts the Target room's headline extrapolation by itself, in the same plan
  // channel: the tools' buttons wait until it is done (on a slow machine longer than a click's 30 s).
  await page.locator('#agree-run:enabled').waitFor({ timeout: 300_000 });
}

test('agreement vs N on an upload with annotator ids equals annosat agree, Dawid–Skene included', async () => {
  const rte = data('snow2008_rte', 'annotations.csv');
  const page = await openApp(ctx, server.url);
  await upload(page, rte);
  await page.click('#agree-run');
  await page.locator('#plan-status-agree[data-state="idle"]').waitFor({ timeout: 120_000 });
  const csv = await download(page, '#agree-csv');
  assert.equal(csv, cli(['agree', '--votes', rte]));
  assert.match(csv, /\n10,dawid_skene_match,1,1,1\n/);
  assert.match(await page.locator('#agree-full').textContent(), /Dawid–Skene on all votes: \d+ EM rounds, converged/);
  assert.equal(await page.locator('#agree-canvas').count(), 1);
  await page.locator('#agree').screenshot({ path: path.join(shots, 'plan-agree.png') });
  assert.deepEqual(page.errors, []);
});

test('interval α on 1–5 ratings equals annosat agree --level interval', async () => {
  const pq = data('popquorn_offensiveness', 'votes.csv');
  const page = await openApp(ctx, server.url);
  await upload(page, pq);
  await page.selectOption('#agree-level', 'interval');
  await page.click('#agree-run');
  await page.locator('#plan-status-agree[data-state="idle"]').waitFor({ timeout: 120_000 });
  const csv = await download(page, '#agree-csv');
  assert.equal(csv, cli(['agree', '--votes', pq, '--level', 'interval']));
  assert.match(await page.locator('#agree-full').textContent(), /α \(interval\) of all votes/);
  assert.match(await page.locator('#agree-full').textContent(), /No annotator ids/);
  assert.match(page.url(), /room=plan&.*level=interval/, 'the URL keeps the level');
  assert.deepEqual(page.errors, []);
});

test('the adaptive simulation on the default dataset equals annosat adaptive; a budget it cannot pay is refused in the room', async () => {
  const page = await openApp(ctx, server.url, '?room=plan');
  await page.locator('#adaptive-run').waitFor();
  await idle(page);
  await page.click('#adaptive-run');
  await page.locator('#plan-status-adaptive[data-state="idle"]').waitFor({ timeout: 120_000 });
  const csv = await download(page, '#adaptive-csv');
  assert.equal(csv, cli(['adaptive', '--votes', data('chaosnli_snli', 'votes.csv')]));
  const lines = await page.locator('#adaptive-summary li').allTextContents();
  assert.equal(lines.length, 8);
  assert.match(lines.join('\n'), /disagreement vs uniform, majority_agreement: better at budgets \d/);
  assert.equal(await page.locator('#adaptive-charts canvas').count(), 4);
  await page.locator('#adaptive').screenshot({ path: path.join(shots, 'plan-adaptive.png') });
  // n0 above every item's vote count: the worker's reason, in the room.
  const ones = 'item_id,a,b\n' + Array.from({ length: 30 }, (_, i) => `i${i},${1 + (i % 2)},1`).join('\n') + '\n';
  await page.setInputFiles('#upload', { name: 'few.csv', mimeType: 'text/csv', buffer: Buffer.from(ones) });
  await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
  await idle(page);
  await page.fill('#adaptive-n0', '5');
  await page.press('#adaptive-n0', 'Enter');
  await page.click('#adaptive-run');
  await page.locator('#plan-status-adaptive[data-state="error"]').waitFor({ timeout: 60_000 });
  assert.match(await page.locator('#plan-status-adaptive').textContent(), /no item has 5 votes to start from/);
  assert.deepEqual(page.errors, []);
});

test('the budget planner trains in the model worker; its points are the CLI\'s and its numbers near them', async () => {
  const page = await openApp(ctx, server.url, '?room=plan');
  await page.locator('#budget-run:not([disabled])').waitFor({ timeout: 60_000 });
  await page.click('#budget-run');
  await page.locator('#budget-status[data-state="idle"]').waitFor({ timeout: 300_000 });
  const csv = await download(page, '#budget-csv');
  const cliCsv = cli(['plan', '--votes', data('chaosnli_snli', 'votes.csv'),
    '--head-features', path.join(repo, 'public', 'models', 'chaosnli_snli', 'features.safetensors')]);
  const rows = (t) => t.trim().split('\n').slice(1).map((r) => r.split(','));
  const [ours, theirs] = [rows(csv), rows(cliCsv)];
  // The same (budget, items, N, metric) points; the numbers from the same code, but wasm's gemm
  // kernels are not native's, so early stopping can pick another epoch: means within 0.05.
  assert.deepEqual(ours.map((r) => r.slice(0, 4)), theirs.map((r) => r.slice(0, 4)));
  let worst = 0;
  for (let i = 0; i < ours.length; i++) {
    if (ours[i][3] === 'entropy_corr') continue;
    worst = Math.max(worst, Math.abs(Number(ours[i][4]) - Number(theirs[i][4])));
  }
  assert.ok(worst < 0.05, `largest difference of a mean: ${worst}`);
  const sentences = await page.locator('#budget-sentences li').allTextContents();
  assert.equal(sentences.length, 4);
  assert.match(sentences[0], /minimises KL .*constant predictor/);
  assert.match(sentences[3], /^Target side/);
  await page.locator('#budget').screenshot({ path: path.join(shots, 'plan-budget.png') });
  assert.deepEqual(page.errors, []);
});

test('the budget planner on an upload with texts: embedded in the tab first, then planned', async () => {
  // ChaosNLI-SNLI's first 300 items with their premise and hypothesis as text columns.
  const votesFile = data('chaosnli_snli', 'votes.csv');
  const [header, ...rows] = fs.readFileSync(votesFile, 'utf8').trim().split('\n');
  const items = new Map(fs.readFileSync(data('chaosnli_snli', 'items.jsonl'), 'utf8').trim().split('\n')
    .map((l) => JSON.parse(l)).map((o) => [o.item_id, o]));
  const q = (s) => `"${s.replaceAll('"', '""')}"`;
  const wide = [['item_id', 'premise', 'hypothesis', ...header.split(',').slice(1)].join(','),
    ...rows.slice(0, 300).map((r) => r.split(',')).map(([id, ...c]) =>
      [q(id), q(items.get(id).premise), q(items.get(id).hypothesis), ...c].join(','))].join('\n') + '\n';
  const page = await openApp(ctx, server.url);
  await upload(page, { name: 'snli300.csv', mimeType: 'text/csv', buffer: Buffer.from(wide) });
  assert.equal(await page.locator('#budget-run').isDisabled(), true, 'no export for an upload');
  await page.click('#budget-own');
  await page.locator('#budget-status[data-state="idle"]').waitFor({ timeout: 600_000 });
  const sentences = await page.locator('#budget-sentences li').allTextContents();
  assert.equal(sentences.length, 4);
  // 300 items: 240 train; budgets 240, 720 and 2,400 votes.
  assert.match(sentences[0], /^With 240 votes, \d+ items × \d+ annotators? minimises KL/);
  assert.match(await page.locator('#budget-status').textContent(), /on snli300\.csv/);
  assert.deepEqual(page.errors, []);
});
