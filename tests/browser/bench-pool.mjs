// Benchmark (not a test): *Embed and train* on a 1,000-item file of tweets with texts (the first
// ITEMS items of MD-Agreement, text column beside the votes) in headless Chromium with a pool of 1
// model worker and of 2 (`?model_workers=K`), alternating, best of ROUNDS each; prints the times
// (embedding, training, both) and the ratio 1 worker / 2 workers, measured in this one run.
//   node tests/browser/bench-pool.mjs [items] [rounds]   (scripts/bench-models-wasm.sh sets up)
import fs from 'node:fs';
import os from 'node:os';
import { serve, browser, openApp, idle, votesPath } from './harness.mjs';
import path from 'node:path';

const ITEMS = Number(process.argv[2] || 1000);
const ROUNDS = Number(process.argv[3] || 2);
const dir = path.dirname(votesPath('lewidi2023_mdagreement'));
const [header, ...rows] = fs.readFileSync(path.join(dir, 'votes.csv'), 'utf8').trim().split('\n');
const texts = new Map(fs.readFileSync(path.join(dir, 'items.jsonl'), 'utf8').trim().split('\n')
  .map((l) => JSON.parse(l)).map((o) => [o.item_id, o.text]));
const q = (s) => `"${s.replaceAll('"', '""')}"`;
const csv = [['item_id', 'text', ...header.split(',').slice(1)].join(','),
  ...rows.slice(0, ITEMS).map((r) => { const [id, ...c] = r.split(','); return [q(id), q(texts.get(id)), ...c].join(','); })].join('\n') + '\n';

const s = await serve();
const ctx = await browser();
const runs = { 1: [], 2: [] };
let memory = 0;
let summary = '';
for (let round = 0; round < ROUNDS; round++) {
  for (const k of [1, 2]) {
    const page = await openApp(ctx, s.url, `?model_workers=${k}`);
    await page.setInputFiles('#upload', { name: 'tweets.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
    await idle(page);
    await page.click('#tab-models');
    await page.click('#own-train');
    const sum = page.locator('#own-summary');
    await sum.waitFor({ timeout: 1_800_000 });
    const embed = Number(await sum.getAttribute('data-embed-ms'));
    const train = Number(await sum.getAttribute('data-train-ms'));
    if (await sum.getAttribute('data-workers') !== String(k)) throw new Error(`asked for ${k} workers, got ${await sum.getAttribute('data-workers')}`);
    memory = Math.max(memory, Number(await sum.getAttribute('data-worker-memory')));
    summary = `${await sum.getAttribute('data-items')} items, ${await sum.getAttribute('data-texts')} distinct texts`;
    runs[k].push({ embed, train, both: embed + train });
    console.log(`round ${round + 1}, ${k} worker(s): embedding ${(embed / 1000).toFixed(1)} s, training ${(train / 1000).toFixed(1)} s`);
    if (page.errors.length) throw new Error(page.errors.join('\n'));
    await page.close();
  }
}
await ctx.close();
await s.close();
const best = (k, f) => Math.min(...runs[k].map((r) => r[f]));
const line = (k) => `embedding ${(best(k, 'embed') / 1000).toFixed(1)} s, training ${(best(k, 'train') / 1000).toFixed(1)} s, both ${(best(k, 'both') / 1000).toFixed(1)} s`;
console.log(`pool: ${summary} (MD-Agreement tweets), ${os.cpus().length} cores, best of ${ROUNDS}:`);
console.log(`  1 model worker:  ${line(1)}`);
console.log(`  2 model workers: ${line(2)}`);
console.log(`  ratio 1 worker / 2 workers: embedding ${(best(1, 'embed') / best(2, 'embed')).toFixed(2)}x, training ${(best(1, 'train') / best(2, 'train')).toFixed(2)}x, both ${(best(1, 'both') / best(2, 'both')).toFixed(2)}x (goal >= 1.7x)`);
console.log(`  one pool worker's wasm memory at the end: ${(memory / 2 ** 20).toFixed(0)} MiB`);
