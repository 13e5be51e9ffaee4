// Training in the tab, in real headless Chromium: the model worker (candle, its own wasm) is fetched
// only when the user trains; hard and soft at N=10 on ChaosNLI-SNLI (fold 0 of 10, model seed 0)
// reproduce the committed export (same best epoch, every metric within 1e-4); progress shows
// epochs and time left; cancel stops the work and the page stays responsive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openApp, shots, setUp } from './harness.mjs';

const requests = [];
// Context-wide: also sees what the workers fetch.
const env = setUp({ record: requests });

const TOL = 1e-4;

async function onlyArms(page, arms) {
  for (const box of await page.locator('#arm-toggles input[type=checkbox]').all()) {
    const arm = await box.getAttribute('data-arm');
    if (arms.includes(arm)) await box.check(); else await box.uncheck();
  }
}

test('hard and soft at N=10 trained in the tab equal the committed export', async () => {
  const page = await openApp(env.ctx, env.server.url, '?room=models&n=10');
  await page.locator('#train-n').waitFor({ timeout: 60_000 });
  assert.ok(!requests.some((u) => u.includes('annosat-model-worker')), 'the model worker is not fetched before training');
  await onlyArms(page, ['hard', 'soft']);
  await page.selectOption('#train-split', '0');
  await page.selectOption('#train-seed', '0');
  assert.equal(await page.locator('#train-n').textContent(), 'Train at N = 10');
  const t0 = Date.now();
  await page.click('#train-n');
  await page.locator('#train-status', { hasText: /epoch [1-9]\d* of \d+ · 2 heads/ }).waitFor({ timeout: 120_000 });
  assert.match(await page.locator('#train-status').textContent(), /s left/);
  await page.locator('#train-results tbody tr').first().waitFor({ timeout: 300_000 });
  const secs = (Date.now() - t0) / 1000;
  assert.ok(requests.some((u) => u.endsWith('annosat-model-worker_bg.wasm')), 'the model worker was fetched');
  const rows = await page.locator('#train-results tbody tr').all();
  assert.equal(rows.length, 2);
  const measured = [];
  for (const row of rows) {
    const cells = await row.locator('td').allTextContents();
    const [arm, n, epHere, epExport] = cells;
    const diff = Number(await row.getAttribute('data-diff'));
    measured.push({ arm, n: Number(n), best_epoch: Number(epHere), export_best_epoch: Number(epExport), max_abs_diff: diff });
    assert.equal(n, '10');
    assert.equal(epHere, epExport, `${arm}: the same early-stopping epoch`);
    assert.ok(diff <= TOL, `${arm}: largest metric difference ${diff} > ${TOL}`);
  }
  // Hollow diamonds on the charts come with the results; a screenshot to look at.
  await page.locator('#train-summary').waitFor();
  await page.screenshot({ path: path.join(shots, 'train-snli-n10.png'), fullPage: true });
  fs.writeFileSync(path.join(shots, 'train-agreement.json'), JSON.stringify({ dataset: 'chaosnli_snli', fold: 0, seed: 0, seconds_in_browser: secs, runs: measured }, null, 1));
  console.log(`# trained in the tab in ${secs.toFixed(1)} s: ${JSON.stringify(measured)}`);
  assert.deepEqual(page.errors, []);
});

test('training over the grid shows progress and can be cancelled; the page stays responsive', async () => {
  const page = await openApp(env.ctx, env.server.url, '?room=models&n=10');
  await page.locator('#train-grid').waitFor({ timeout: 60_000 });
  await page.click('#train-grid');
  await page.locator('#train-status', { hasText: /epoch [1-9]\d* of/ }).waitFor({ timeout: 120_000 });
  await page.screenshot({ path: path.join(shots, 'train-progress.png'), fullPage: false });
  // The main thread answers while the worker trains: a trivial evaluation returns quickly.
  const t = Date.now();
  await page.evaluate(() => 1 + 1);
  assert.ok(Date.now() - t < 1000, 'the page answered while training');
  await page.click('#train-cancel');
  await page.locator('#train-status', { hasText: 'cancelled' }).waitFor();
  assert.equal(await page.locator('#train-grid').isDisabled(), false);
  // Changing N still works after the cancel.
  await page.locator('#n-slider').fill('20');
  await page.locator('#train-n', { hasText: 'N = 20' }).waitFor();
  assert.deepEqual(page.errors, []);
});
