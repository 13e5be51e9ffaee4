// The synthetic dataset: generated in the page from known true distributions, always labelled
// synthetic; its target-side curves equal `annosat curves` on the same data written by
// `annosat synth`; bad settings are named; and its models train in the tab.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, browser, cliCurves, openApp, idle, readout, METRICS, shots } from './harness.mjs';

let server, ctx;
before(async () => { server = await serve(); ctx = await browser(); });
after(async () => { await ctx?.close(); await server?.close(); });

function synthVotes(args) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'annosat-synth-'));
  execFileSync(process.env.ANNOSAT_CLI, ['synth', '--out', dir, ...args]);
  return path.join(dir, 'votes.csv');
}

test('the synthetic dataset is labelled, and its curves are what the CLI computes on annosat synth', async () => {
  const page = await openApp(ctx, server.url, '?dataset=synthetic&n=10');
  assert.match(await page.locator('#synthetic-badge').textContent(), /not human labels/);
  assert.match(await page.locator('#stats').textContent(), /generated in this tab/);
  const cli = cliCurves(synthVotes([]), ['--n', '10', '--seed', '42', '--repeats', '50']);
  for (const metric of METRICS) {
    assert.equal((await readout(page, metric)).raw, cli[`10/${metric}`].mean, `${metric} at N=10`);
  }
  // Other settings: more ambiguous items (α = 5), 300 items, 20 votes; the same as the CLI again.
  await page.fill('#synth-alpha', '5');
  await page.locator('#synth-alpha').dispatchEvent('change');
  await page.fill('#synth-items', '300');
  await page.locator('#synth-items').dispatchEvent('change');
  await page.fill('#synth-votes', '20');
  await page.locator('#synth-votes').dispatchEvent('change');
  await page.click('#synth-generate');
  await page.locator('#stats', { hasText: '300' }).waitFor();
  await idle(page);
  const cli2 = cliCurves(synthVotes(['--concentration', '5', '--items', '300', '--votes', '20']), ['--n', '10', '--seed', '42', '--repeats', '50']);
  assert.equal((await readout(page, 'kl')).raw, cli2['10/kl'].mean);
  // A bad setting is named and nothing changes.
  await page.fill('#synth-votes', '0');
  await page.locator('#synth-votes').dispatchEvent('change');
  await page.click('#synth-generate');
  assert.match(await page.locator('#synth-error').textContent(), /votes must be 1–1000/);
  assert.equal((await readout(page, 'kl')).raw, cli2['10/kl'].mean);
  await page.screenshot({ path: path.join(shots, 'synthetic-1280.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
});

test('models train in the tab on the synthetic data, with the baselines beside them', async () => {
  const page = await openApp(ctx, server.url, '?dataset=synthetic&room=models');
  await page.locator('#synth-train').waitFor();
  assert.match(await page.locator('#synth-train').textContent(), /not human labels/);
  await page.click('#synth-train-go');
  // 10-fold: every generated item is a test item once (ten groups of heads, one per fold).
  await page.locator('#synth-status', { hasText: /folds? [\d, and]+ of 10/ }).waitFor({ timeout: 300_000 });
  await page.locator('#synth-summary').waitFor({ timeout: 900_000 });
  assert.match(await page.locator('#synth-summary').textContent(), /10-fold: every item tested once/);
  assert.ok(await page.locator('#synth-train #verdict-table tbody tr').count() > 0, 'verdicts for the arms');
  assert.match(await page.locator('#synth-summary').textContent(), /N = 1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 100/);
  // Its panels, plus the committed synthetic exports' chooser.
  assert.ok(await page.locator('#synth-train [data-model-metric] canvas').count() >= 10);
  const options = await page.locator('#export-pick option').allTextContents();
  assert.ok(options.some((o) => /synthetic_twins.*synthetic control/.test(o)), options.join(' | '));
  await page.screenshot({ path: path.join(shots, 'synthetic-models-1280.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
});
