// Benchmark (not a test): the page kept open for MINUTES minutes (30 by default) in headless
// Chromium while it is used — slider drags, dataset switches, uploads of a 5-vote and a 100-vote
// file, a Plan room extrapolation and a Sources room measurement, round after round — sampling
// every minute the page's JS heap (DevTools `Performance.getMetrics`, after a garbage collection) and each curve worker's wasm
// memory (`annosat_memory()`, set by the worker). Prints one line per sample and whether memory
// stays flat within 10% after the warm-up (the first WARMUP minutes), or what grew.
//   node tests/browser/soak.mjs [minutes] [--json FILE]      (scripts/soak.sh sets up)
import fs from 'node:fs';
import path from 'node:path';
import { serve, browser, openApp, idle, votesPath } from './harness.mjs';

const MINUTES = Number(process.argv[2] || 30);
const WARMUP = Math.min(5, Math.floor(MINUTES / 3));
const jsonOut = process.argv.includes('--json') ? process.argv[process.argv.indexOf('--json') + 1] : null;
const five = path.join(path.dirname(votesPath('chaosnli_snli')), 'votes_old5.csv');
const hundred = votesPath('chaosnli_mnli');
const DATASETS = ['chaosnli_snli', 'snow2008_rte', 'chaosnli_mnli'];

const s = await serve();
const ctx = await browser();
const page = await openApp(ctx, s.url);
const cdp = await ctx.newCDPSession(page);
await cdp.send('Performance.enable');

async function sample(minute) {
  // After a full collection: what the page holds, not what it has not yet freed.
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const heap = metrics.find((m) => m.name === 'JSHeapUsedSize').value;
  const workers = [];
  for (const w of page.workers()) {
    const bytes = await w.evaluate(() => (typeof self.annosat_memory === 'function' ? self.annosat_memory() : null)).catch(() => null);
    if (bytes != null) workers.push(bytes);
  }
  const mib = (b) => b / 2 ** 20;
  const row = { minute, heap: mib(heap), workers: workers.map(mib), worker_total: mib(workers.reduce((a, b) => a + b, 0)) };
  console.log(`minute ${minute}: JS heap ${row.heap.toFixed(1)} MiB; curve workers' wasm memory ${row.workers.map((x) => x.toFixed(0)).join(' + ')} MiB`);
  return row;
}

/** Drags the N slider from one end to the other and back. */
async function drag() {
  const box = await page.locator('#n-slider').boundingBox();
  if (!box) return;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 2, y);
  await page.mouse.down();
  for (let i = 0; i <= 20; i++) await page.mouse.move(box.x + 2 + (box.width - 4) * i / 20, y);
  for (let i = 20; i >= 0; i--) await page.mouse.move(box.x + 2 + (box.width - 4) * i / 20, y);
  await page.mouse.up();
}

async function round(r) {
  await page.click('#tab-target');
  await page.selectOption('#dataset', DATASETS[r % DATASETS.length]);
  await idle(page, 300_000);
  await drag();
  await page.setInputFiles('#upload', r % 2 ? hundred : five);
  await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
  await idle(page, 300_000);
  await drag();
  await page.click('#tab-plan');
  await page.click('#plan-run');
  await page.locator('#plan-status[data-state="idle"]').waitFor({ timeout: 600_000 });
  await page.click('#tab-target');
  await page.selectOption('#dataset', 'chaosnli_snli');
  await idle(page, 300_000);
  await page.click('#tab-sources');
  await page.locator('#source-original5').check();
  await page.locator('#sources-status[data-state="idle"]').waitFor({ timeout: 600_000 });
  await drag();
}

const start = Date.now();
const rows = [await sample(0)];
let rounds = 0;
let next = 1;
while (Date.now() - start < MINUTES * 60_000) {
  await round(rounds++);
  while (Date.now() - start >= next * 60_000 && next <= MINUTES) rows.push(await sample(next++));
}
if (page.errors.length) console.log(`page errors: ${page.errors.join('\n')}`);
await ctx.close();
await s.close();

const after = rows.filter((r) => r.minute >= WARMUP);
const growth = (f) => {
  const v = after.map(f);
  const first = v[0];
  const max = Math.max(...v);
  return { first, last: v[v.length - 1], max, grew: first > 0 ? max / first - 1 : 0 };
};
const heap = growth((r) => r.heap);
const wasm = growth((r) => r.worker_total);
const flat = (g) => g.grew <= 0.10;
const words = (name, g) => `${name} ${g.first.toFixed(1)} MiB at minute ${WARMUP}, at most ${g.max.toFixed(1)}, ${g.last.toFixed(1)} at the end (${(100 * g.grew).toFixed(0)}% above the first: ${flat(g) ? 'flat within 10%' : 'grew'})`;
console.log(`soak: ${MINUTES} minutes, ${rounds} rounds of use; after a ${WARMUP}-minute warm-up: ${words('JS heap', heap)}; ${words("curve workers' wasm memory", wasm)}`);
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify({ minutes: MINUTES, warmup: WARMUP, rounds, rows, heap, wasm }, null, 1));
