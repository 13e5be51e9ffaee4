// The explorer in real headless Chromium: readouts equal the CLI's, datasets switch, URL state
// round-trips, curves export as the CLI's CSV, charts are drawn.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, browser, cliCurves, votesPath, openApp, idle, readout, METRICS, shots, dist } from './harness.mjs';

let server, ctx;
before(async () => { server = await serve(); ctx = await browser(); });
after(async () => { await ctx?.close(); await server?.close(); });

async function assertMatchesCli(page, votes, n, extra = []) {
  const cli = cliCurves(votes, ['--n', String(n), '--seed', '42', '--repeats', '50', ...extra]);
  for (const metric of METRICS) {
    const { raw, shown } = await readout(page, metric);
    const want = cli[`${n}/${metric}`].mean;
    assert.equal(raw, want, `${metric} at N=${n}: app ${raw}, CLI ${want}`);
    assert.equal(shown, want === '' ? 'undefined' : Number(want).toFixed(4), `${metric} as displayed`);
  }
}

test('dragging the slider to N=10 shows what `annosat curves` prints', async () => {
  const page = await openApp(ctx, server.url, '?n=3');
  assert.equal(await page.locator('#n-value').textContent(), '3');
  const slider = page.locator('#n-slider');
  assert.equal(await slider.inputValue(), '3', 'the knob sits where the URL says');
  await slider.focus();
  await page.keyboard.press('Home');
  assert.equal(await page.locator('#n-value').textContent(), '1');
  assert.equal((await readout(page, 'entropy_corr')).shown, 'undefined');
  for (let i = 0; i < 9; i++) await page.keyboard.press('ArrowRight');
  assert.equal(await page.locator('#n-value').textContent(), '10');
  await assertMatchesCli(page, votesPath('chaosnli_snli'), 10);
  // The number box drives the same state.
  await page.fill('#n-number', '25');
  await page.press('#n-number', 'Enter');
  assert.equal(await page.locator('#n-value').textContent(), '25');
  await assertMatchesCli(page, votesPath('chaosnli_snli'), 25);
  await page.screenshot({ path: path.join(shots, 'explorer-1280.png'), fullPage: true });
  await page.setViewportSize({ width: 400, height: 800 });
  await page.screenshot({ path: path.join(shots, 'explorer-400.png'), fullPage: false });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `page is ${overflow}px wider than a 400px screen`);
  assert.deepEqual(page.errors, []);
});

test('the picker lists every dataset with its statistics, and switching recomputes', async () => {
  const page = await openApp(ctx, server.url);
  const options = await page.locator('#dataset option').count();
  const index = JSON.parse(fs.readFileSync(path.join(dist, 'data/index.json'), 'utf8'));
  assert.equal(options, index.length + 1, 'every bundled dataset and the synthetic one');
  assert.equal(await page.locator('#dataset option[value=synthetic]').count(), 1);
  const stats = await page.locator('#stats').textContent();
  assert.match(stats, /1514/);
  assert.match(stats, /100 \/ 100 \/ 100/);
  assert.match(stats, /Creative Commons/);
  await page.selectOption('#dataset', 'snow2008_rte');
  await page.locator('#stats', { hasText: '800' }).waitFor();
  await idle(page);
  assert.equal(await page.locator('#n-slider').getAttribute('max'), '10');
  await page.fill('#n-number', '5');
  await page.press('#n-number', 'Enter');
  await assertMatchesCli(page, votesPath('snow2008_rte'), 5);
  assert.match(page.url(), /dataset=snow2008_rte/);
});

test('held-out toggle evaluates against disjoint annotators, as --heldout 0.2', async () => {
  const page = await openApp(ctx, server.url, '?n=10');
  await page.check('#heldout');
  await idle(page);
  assert.equal(await page.locator('#n-slider').getAttribute('max'), '80');
  await assertMatchesCli(page, votesPath('chaosnli_snli'), 10, ['--heldout', '0.2']);
});

test('the URL carries the view and a link restores it', async () => {
  const q = '?dataset=snow2008_temp&n=4&x=80&heldout=1&seed=7&metric=jsd&logx=1&room=target';
  const page = await openApp(ctx, server.url, q);
  assert.equal(await page.locator('#dataset').inputValue(), 'snow2008_temp');
  assert.equal(await page.locator('#n-value').textContent(), '4');
  assert.equal(await page.locator('#x-pct').inputValue(), '80');
  assert.equal(await page.locator('#seed').inputValue(), '7');
  assert.ok(await page.locator('#heldout').isChecked());
  assert.ok(await page.locator('#logx').isChecked());
  assert.match(await page.locator('.readout.selected').getAttribute('data-metric'), /^jsd$/);
  assert.match(await page.locator("#saturation").textContent(), /80% by N = \d+/);
  assert.equal(new URL(page.url()).search, q);
  // snow2008_temp has annotator ids, so the held-out split is by annotator: --annotations.
  const ann = votesPath('snow2008_temp').replace(/votes\.csv$/, 'annotations.csv');
  const cli = cliCurves(votesPath('snow2008_temp'), ['--n', '4', '--seed', '7', '--heldout', '0.2', '--annotations', ann]);
  assert.match(await page.locator('#stats').textContent(), /known by id/);
  assert.equal((await readout(page, 'kl')).raw, cli['4/kl'].mean);
});

test('export: the curves CSV is exactly what the CLI prints; charts as PNG and SVG', async () => {
  const page = await openApp(ctx, server.url);
  const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  const text = fs.readFileSync(await csv.path(), 'utf8');
  assert.equal(text.split('\n')[0], 'n,metric,mean,lo,hi');
  const { execFileSync } = await import('node:child_process');
  const cli = execFileSync(process.env.ANNOSAT_CLI, ['curves', '--votes', votesPath('chaosnli_snli'), '--format', 'csv'], { encoding: 'utf8' });
  assert.equal(text, cli);
  const chart = page.locator('figure.chart[data-metric="kl"]');
  const [png] = await Promise.all([page.waitForEvent('download'), chart.locator('[data-export="png"]').click()]);
  assert.equal(fs.readFileSync(await png.path()).subarray(1, 4).toString(), 'PNG');
  const [svg] = await Promise.all([page.waitForEvent('download'), chart.locator('[data-export="svg"]').click()]);
  assert.match(fs.readFileSync(await svg.path(), 'utf8'), /^<svg[\s\S]*<\/svg>\s*$/);
});

test('all four panels are drawn, and hovering shows the values', async () => {
  const page = await openApp(ctx, server.url);
  for (const metric of METRICS) {
    const canvas = page.locator(`canvas[data-metric="${metric}"]`);
    const inked = await canvas.evaluate((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] < 200 || d[i + 1] < 200 || d[i + 2] < 200) n++;
      return n;
    });
    assert.ok(inked > 2000, `${metric} canvas has only ${inked} dark pixels`);
  }
  const kl = page.locator('canvas[data-metric="kl"]');
  // Below the answer card at 1280 × 800: scrolled to, as a user would.
  await kl.scrollIntoViewIfNeeded();
  const box = await kl.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  assert.match(await page.locator('.tooltip').textContent(), /^N=\d+: \d\.\d{4} \(95% of repeats: .*; items /);
  assert.ok(await page.locator('#movers tbody tr').count() > 0);
  // The red N marker is laid over each canvas at N: hovering where it stands reads that N.
  await page.fill('#n-number', '50');
  await page.press('#n-number', 'Enter');
  await kl.scrollIntoViewIfNeeded();
  const box2 = await kl.boundingBox();
  const marker = await page.locator('figure[data-metric="kl"] .n-marker').boundingBox();
  assert.ok(marker.height > box2.height / 2, `marker ${marker.height}px high`);
  await page.mouse.move(marker.x + marker.width / 2, box2.y + box2.height / 2);
  assert.match(await page.locator('.tooltip').textContent(), /^N=50: /);
  assert.equal(await page.locator('.n-marker').count(), 4);
});

test('switching datasets while one is computing shows the last one picked', async () => {
  const page = await openApp(ctx, server.url);
  await page.selectOption('#dataset', 'chaosnli_mnli');
  await page.locator('#status[data-state="busy"]').waitFor();
  await page.selectOption('#dataset', 'snow2008_wsd');
  await page.locator('#stats', { hasText: '177' }).waitFor();
  await idle(page);
  await page.fill('#n-number', '3');
  await page.press('#n-number', 'Enter');
  await assertMatchesCli(page, votesPath('snow2008_wsd'), 3);
  // Changing the seed mid-computation cancels the stale run too.
  await page.selectOption('#dataset', 'chaosnli_alphanli');
  await page.locator('#status[data-state="busy"]').waitFor();
  await page.fill('#seed', '9');
  await page.press('#seed', 'Enter');
  await idle(page);
  const cli = cliCurves(votesPath('chaosnli_alphanli'), ['--n', '3', '--seed', '9']);
  assert.equal((await readout(page, 'kl')).raw, cli['3/kl'].mean);
});
