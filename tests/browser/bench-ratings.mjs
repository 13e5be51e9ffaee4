// Benchmark (not a test): what the rating curves add to a rating file's curves in the app. On the
// bundled KonIQ-10k (10,073 images, 1–5 ratings) it times, from choosing how the classes are read
// to the page idle (every curve and its item intervals in), the classes read as unordered (the
// nominal curves alone) and as the 1–5 scale (the rating curves too), alternating, several
// rounds; prints each run, the medians and their ratio.
//   node tests/browser/bench-ratings.mjs [ROUNDS]      (scripts/bench-ratings.sh)
import { serve, browser, openApp, idle } from './harness.mjs';

const rounds = Number(process.argv[2] || 3);
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

const s = await serve();
const ctx = await browser();
try {
  const page = await openApp(ctx, s.url, '?dataset=koniq10k&scale=nominal');
  const workers = await page.evaluate(() => navigator.hardwareConcurrency);
  const time = async (value) => {
    const t = Date.now();
    await page.selectOption('#scale', value);
    await page.locator('#status[data-state="busy"]').waitFor({ state: 'attached' }).catch(() => {});
    await idle(page, 600_000);
    const took = (Date.now() - t) / 1000;
    const rated = await page.locator('#rating-answer').count();
    if ((value === 'auto') !== (rated === 1)) throw new Error(`read as ${value}: rating view shown ${rated}`);
    return took;
  };
  const nominal = [];
  const both = [];
  for (let r = 0; r < rounds; r++) {
    both.push(await time('auto'));
    nominal.push(await time('nominal'));
  }
  if (page.errors.length) throw new Error(page.errors.join('\n'));
  const grid = await page.locator('#n-slider').getAttribute('max');
  const fmt = (v) => v.map((x) => x.toFixed(2)).join(', ');
  console.log(`koniq10k in the app, ${workers} cores, N up to ${grid}, 50 repeats, item intervals included:`);
  console.log(`  nominal curves alone: ${fmt(nominal)} s (median ${median(nominal).toFixed(2)} s)`);
  console.log(`  rating and nominal curves: ${fmt(both)} s (median ${median(both).toFixed(2)} s)`);
  console.log(`  ratio rating+nominal / nominal: ${(median(both) / median(nominal)).toFixed(2)}x`);
} finally {
  await ctx.close();
  await s.close();
}
