// The built app in real headless Chromium: the slider's readouts equal the CLI's numbers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, browser, cliCurves, root, shots } from './harness.mjs';

let server, ctx;
before(async () => { server = await serve(); ctx = await browser(); });
after(async () => { await ctx?.close(); await server?.close(); });

async function readout(page, metric) {
  const el = page.locator(`.readout[data-metric="${metric}"]`);
  return { raw: await el.getAttribute('data-value'), shown: (await el.locator('.value').textContent()).trim() };
}

test('moving the slider to N=10 shows what `annosat curves` prints', async () => {
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${server.url}?n=3`);
  const slider = page.locator('#n-slider');
  await slider.waitFor({ timeout: 60_000 });
  assert.equal(await page.locator('#n-value').textContent(), '3');

  // Drag by keyboard, as a user would: Home goes to N=1, then nine steps right.
  await slider.focus();
  await page.keyboard.press('Home');
  assert.equal(await page.locator('#n-value').textContent(), '1');
  assert.equal((await readout(page, 'entropy_corr')).shown, 'undefined');
  for (let i = 0; i < 9; i++) await page.keyboard.press('ArrowRight');
  assert.equal(await page.locator('#n-value').textContent(), '10');

  const votes = path.join(root, 'public/data/chaosnli_snli/votes.csv');
  const cli = cliCurves(votes, ['--n', '10', '--seed', '42', '--repeats', '50']);
  for (const metric of ['jsd', 'entropy_corr', 'kl', 'majority_agreement']) {
    const { raw, shown } = await readout(page, metric);
    const want = cli[`10/${metric}`].mean;
    assert.equal(raw, want, `${metric}: app ${raw}, CLI ${want}`);
    assert.equal(shown, Number(want).toFixed(4), `${metric} as displayed`);
  }
  await page.screenshot({ path: path.join(shots, 'app-n10.png'), fullPage: true });
  assert.deepEqual(errors, []);
});

test('both charts are drawn', async () => {
  const page = await ctx.newPage();
  await page.goto(server.url);
  await page.locator('#n-slider').waitFor({ timeout: 60_000 });
  for (const metric of ['jsd', 'entropy_corr']) {
    const inked = await page.locator(`canvas[data-metric="${metric}"]`).evaluate((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] < 200 || d[i + 1] < 200 || d[i + 2] < 200) n++;
      return n;
    });
    assert.ok(inked > 2000, `${metric} canvas has only ${inked} dark pixels`);
  }
});
