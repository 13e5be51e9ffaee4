// Benchmark (not a test): MiniLM embedding in the app's model worker (headless Chromium, one
// thread, wasm simd128) against the same work natively on one core, in one run: the distinct texts
// of the first ITEMS ChaosNLI-SNLI items, longest first, batches of 64, the F16 encoder copy loaded
// as F32 on both sides. Prints the ratio.
//   node tests/browser/bench-minilm-wasm.mjs [items]     (scripts/bench-models-wasm.sh sets up)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, browser, openApp, idle, root, votesPath } from './harness.mjs';

const ITEMS = Number(process.argv[2] || 300);
const [header, ...rows] = fs.readFileSync(votesPath('chaosnli_snli'), 'utf8').trim().split('\n');
const votes = rows.slice(0, ITEMS);
const items = new Map(fs.readFileSync(path.join(path.dirname(votesPath('chaosnli_snli')), 'items.jsonl'), 'utf8')
  .trim().split('\n').map((l) => JSON.parse(l)).map((o) => [o.item_id, o]));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'annosat-bench-'));
fs.writeFileSync(path.join(dir, 'votes.csv'), [header, ...votes].join('\n') + '\n');
fs.writeFileSync(path.join(dir, 'items.jsonl'), votes.map((r) => JSON.stringify(items.get(r.split(',')[0]))).join('\n') + '\n');

// One core and one rayon thread (candle sizes gemm's pool from the CPU count, not the affinity mask).
const native = execFileSync('taskset', ['-c', '0', process.env.ANNOSAT_TIME_EMBED, dir, path.join(root, 'public/encoder')],
  { encoding: 'utf8', env: { ...process.env, RAYON_NUM_THREADS: '1' } }).trim();
const [nativeLine, shapesLine] = native.split('\n');
const nativeMs = Number(nativeLine.match(/best of 3 (\d+) ms/)[1]);

// The floor: the same batches' matrix products alone (encoder/examples/floor_embed.rs), in Chromium
// (wasm32-wasip1, simd128: wasi-run.mjs) and natively on one core. The tab cannot embed faster.
const cfg = JSON.parse(fs.readFileSync(path.join(root, 'public/encoder/config.json'), 'utf8'));
const floorArgs = [cfg.hidden_size, cfg.intermediate_size, cfg.num_hidden_layers, cfg.num_attention_heads]
  .map(String).concat(shapesLine.replace(/^batches: /, '').split(' '));
const seconds = (out) => Number(out.match(/floor: ([\d.]+) s/)[1]);
const gflops = (out) => out.match(/at (\d+) GFLOP\/s/)[1];
const floorWasm = execFileSync('node', [path.join(import.meta.dirname, 'wasi-run.mjs'), process.env.ANNOSAT_FLOOR_EMBED_WASM, ...floorArgs],
  { encoding: 'utf8' });
const floorNative = execFileSync('taskset', ['-c', '0', process.env.ANNOSAT_FLOOR_EMBED, ...floorArgs],
  { encoding: 'utf8', env: { ...process.env, RAYON_NUM_THREADS: '1' } });

const s = await serve();
const ctx = await browser();
const page = await openApp(ctx, s.url, '?model_workers=1'); // one model worker: the per-thread speed
await page.setInputFiles('#upload', { name: 'bench.csv', mimeType: 'text/csv', buffer: fs.readFileSync(path.join(dir, 'votes.csv')) });
await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
await idle(page);
await page.click('#tab-models');
const times = [];
let texts = '?';
for (let i = 0; i < 3; i++) {
  await page.setInputFiles('#own-texts', path.join(dir, 'items.jsonl'));
  await page.click('#own-train');
  await page.locator('#own-summary').waitFor({ timeout: 900_000 });
  const sum = page.locator('#own-summary');
  times.push(Number(await sum.getAttribute('data-embed-ms')));
  texts = await sum.getAttribute('data-texts');
}
await ctx.close();
await s.close();
const best = Math.min(...times);
console.log(`native, one core: ${nativeLine}`);
console.log(`browser model worker (one thread, headless Chromium): ${texts} texts, ${times.map((t) => t.toFixed(0)).join(', ')} ms; best ${best.toFixed(0)} ms (${(Number(texts) / best * 1000).toFixed(0)} texts/s)`);
console.log(`ratio browser / native per thread (best vs best): ${(best / nativeMs).toFixed(2)} (goal ≤ 2)`);
console.log(`floor, the batches' matrix products alone: wasm (headless Chromium, simd128) ${seconds(floorWasm).toFixed(3)} s `
  + `(${gflops(floorWasm)} GFLOP/s), native on one core ${seconds(floorNative).toFixed(3)} s (${gflops(floorNative)} GFLOP/s): `
  + `${(seconds(floorWasm) / seconds(floorNative)).toFixed(2)}x; so the tab's embedding takes at least `
  + `${(seconds(floorWasm) * 1000 / nativeMs).toFixed(2)}x the native embedding's best`);
