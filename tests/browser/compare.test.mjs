// The Plan room's "Compare two models" in real headless Chromium: two arms of the bundled
// ChaosNLI-SNLI export and two uploaded prediction files, each equal to `annosat compare` (CSV
// byte for byte, the sentences as the CLI prints them), the heat map drawn, the URL keeping the
// choice; and the Models room's link from a paired arm comparison to it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { serve, browser, openApp, root, votesPath, shots } from './harness.mjs';

let server, ctx;
before(async () => { server = await serve(); ctx = await browser(); });
after(async () => { await ctx?.close(); await server?.close(); });

const EXPORT = path.join(root, 'public/models/chaosnli_snli');

/** `annosat compare` with its defaults and the page's seed: CSV and the tagged sentences. */
function cliCompare(votes, a, b) {
  const r = spawnSync(process.env.ANNOSAT_CLI,
    ['compare', '--votes', votes, '--a', a, '--b', b, '--seed', '42'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = (p) => r.stderr.split('\n').filter((l) => l.startsWith(p)).map((l) => l.slice(p.length));
  return {
    csv: r.stdout, observed: lines('observed: '), power: lines('power: '), split: lines('split: '),
    wrong: lines('wrong way: '),
  };
}

/** Waits for the comparison to finish and its result to show. */
async function finished(page) {
  await page.locator('#compare-status[data-state="idle"]').waitFor({ timeout: 120_000 });
  await page.locator('#compare-heat canvas').waitFor();
}

/** Pixels of the heat map tinted blue (cells with some power). */
async function tinted(page) {
  return page.locator('#compare-heat canvas').evaluate((c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i + 2] - d[i] > 30) n++;
    return n;
  });
}

test('two arms of the bundled export: the CLI\'s CSV and sentences, the heat map, the URL', async () => {
  const cli = cliCompare(votesPath('chaosnli_snli'), `${EXPORT}:hard`, `${EXPORT}:soft`);
  const page = await openApp(ctx, server.url, '?dataset=chaosnli_snli&room=plan');
  const card = page.locator('#compare-models');
  await card.scrollIntoViewIfNeeded();
  assert.equal(await page.locator('#compare-arm-a').inputValue(), 'hard');
  assert.equal(await page.locator('#compare-arm-b').inputValue(), 'soft');
  const t0 = Date.now();
  await page.click('#compare-run');
  await finished(page);
  console.log(`compare in the app: ${((Date.now() - t0) / 1000).toFixed(1)} s (fetch, simulate, draw)`);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#compare-csv')]);
  assert.equal(fs.readFileSync(await dl.path(), 'utf8'), cli.csv, 'the grid CSV is the CLI\'s');
  // Total variation is shown first; its sentences are the CLI's.
  assert.equal(await page.locator('#compare-metric').inputValue(), 'tv');
  const tv = (l) => l.startsWith('total variation:');
  assert.equal((await page.locator('#compare-observed').textContent()).trim(), cli.observed.find(tv));
  assert.equal((await page.locator('#compare-reach').textContent()).trim(), cli.power.find(tv));
  assert.equal((await page.locator('#compare-splits').textContent()).trim(), cli.split.find(tv));
  // One vote per item finds the opposite for total variation: said as the CLI says it.
  assert.ok(cli.wrong.find(tv), 'the CLI says where total variation goes the wrong way');
  assert.equal((await page.locator('#compare-wrong-way').textContent()).trim(), cli.wrong.find(tv));
  await card.screenshot({ path: path.join(shots, 'compare-tv-1280.png') });
  assert.ok(await tinted(page) > 2000, 'the heat map has cells with power');
  // Another metric: its sentences, the URL.
  await page.selectOption('#compare-metric', 'kl');
  const kl = (l) => l.startsWith('KL:');
  assert.equal((await page.locator('#compare-reach').textContent()).trim(), cli.power.find(kl));
  await page.waitForFunction(() => location.search.includes('cmp_metric=kl'));
  assert.ok(await tinted(page) > 20000, 'KL\'s heat map is mostly powered');
  assert.match(page.url(), /cmp=hard,soft/);
  await card.screenshot({ path: path.join(shots, 'compare-kl-1280.png') });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('two uploaded prediction files: the CLI\'s CSV, and a refused file said in words', async () => {
  // Two models made from the votes: each item's distribution mixed with the uniform (A: half,
  // B: a fifth) — B is closer to the humans.
  const rows = fs.readFileSync(votesPath('chaosnli_snli'), 'utf8').trim().split('\n');
  const header = rows[0];
  const mix = (w) => [header, ...rows.slice(1).map((r) => {
    const [id, ...c] = r.split(',');
    const n = c.reduce((s, x) => s + Number(x), 0);
    return [id, ...c.map((x) => ((1 - w) * Number(x) / n + w / c.length).toFixed(6))].join(',');
  })].join('\n') + '\n';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'annosat-compare-'));
  const [fa, fb] = [path.join(dir, 'a.csv'), path.join(dir, 'b.csv')];
  fs.writeFileSync(fa, mix(0.5));
  fs.writeFileSync(fb, mix(0.2));
  const cli = cliCompare(votesPath('chaosnli_snli'), fa, fb);

  const page = await openApp(ctx, server.url, '?dataset=chaosnli_snli&room=plan');
  await page.locator('#compare-models').scrollIntoViewIfNeeded();
  await page.check('#compare-from-files');
  await page.setInputFiles('#compare-file-a', { name: 'a.csv', mimeType: 'text/csv', buffer: fs.readFileSync(fa) });
  await page.setInputFiles('#compare-file-b', { name: 'not-predictions.csv', mimeType: 'text/csv', buffer: Buffer.from('id,x\n1,2\n') });
  await page.click('#compare-run');
  await page.locator('#compare-status[data-state="error"]').waitFor();
  assert.match(await page.locator('#compare-status').textContent(), /item_id/);
  await page.setInputFiles('#compare-file-b', { name: 'b.csv', mimeType: 'text/csv', buffer: fs.readFileSync(fb) });
  await page.waitForTimeout(200);
  await page.click('#compare-run');
  await finished(page);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#compare-csv')]);
  assert.equal(fs.readFileSync(await dl.path(), 'utf8'), cli.csv, 'the grid CSV is the CLI\'s');
  assert.match(await page.locator('#compare-models-line').textContent(), /A = a\.csv, B = b\.csv/);
  assert.doesNotMatch(page.url(), /cmp=/, 'uploads are not kept in the URL');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the Models room links a paired arm comparison to the votes per item it needs', async () => {
  const page = await openApp(ctx, server.url, '?dataset=chaosnli_snli&room=models');
  await page.locator('#compare-table').waitFor();
  await page.selectOption('#cmp-a', 'soft');
  await page.selectOption('#cmp-b', 'ls0.1');
  const link = page.locator('#compare-table tr[data-metric="kl"] .cmp-votes');
  await link.click();
  await page.waitForFunction(() => location.search.includes('room=plan'));
  await finished(page);
  assert.equal(await page.locator('#compare-metric').inputValue(), 'kl');
  // The arms as the paired table compares them: trained at the slider's N (10 by default).
  assert.match(await page.locator('#compare-models-line').textContent(), /A = soft at N = 10, B = ls0\.1 at N = 10/);
  assert.match(page.url(), /cmp=soft,ls0\.1&cmp_n=10/);
  const cli = cliCompare(votesPath('chaosnli_snli'), `${EXPORT}:soft@10`, `${EXPORT}:ls0.1@10`);
  const kl = (l) => l.startsWith('KL:');
  assert.equal((await page.locator('#compare-reach').textContent()).trim(), cli.power.find(kl));
  assert.deepEqual(page.errors, []);
  await page.close();
});
