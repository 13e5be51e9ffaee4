// Screenshots of the rooms for a human to look at (not a test): node tests/browser/shots.mjs OUTDIR
import { serve, browser, openApp, idle } from './harness.mjs';
const out = process.argv[2] || '/tmp/shots';
const srv = await serve();
const ctx = await browser();
try {
  const page = await openApp(ctx, srv.url, '?dataset=synthetic');
  await page.screenshot({ path: `${out}/synthetic-target.png`, fullPage: false });
  await page.click('#tab-models');
  await page.locator('#synth-train').waitFor();
  await page.click('#synth-train-go');
  await page.locator('#synth-summary').waitFor({ timeout: 300_000 });
  await page.waitForTimeout(500);
  await page.screenshot({ path: `${out}/synthetic-models.png`, fullPage: true });
  const p2 = await openApp(ctx, srv.url, '?dataset=chaosnli_snli&room=models');
  await p2.locator('figure[data-model-metric="kl"] canvas').waitFor();
  await p2.waitForTimeout(800);
  await p2.screenshot({ path: `${out}/snli-models.png`, fullPage: true });
  await p2.selectOption('#export-pick', 'chaosnli_nli_pooled');
  await p2.locator('#pooled').waitFor();
  await p2.waitForTimeout(800);
  await p2.screenshot({ path: `${out}/pooled-models.png`, fullPage: true });
  await p2.selectOption('#export-pick', 'synthetic_twins_alpha3');
  await p2.locator('#verdict-table').waitFor();
  await p2.waitForTimeout(800);
  await p2.screenshot({ path: `${out}/twins-models.png`, fullPage: true });
  await p2.click('#tab-repro');
  await p2.locator('#repro-table').waitFor();
  await p2.screenshot({ path: `${out}/repro.png`, fullPage: true });
  for (const p of [page, p2]) if (p.errors.length) console.log('page errors:', p.errors);
} finally {
  await ctx.close();
  await srv.close();
}
