// Benchmark (not a test): one sweep group — every arm × N of the SNLI export for its first split
// (fold 0 of the 10-fold export), model seed 0, as many epochs as that group ran — trained in the
// browser's model worker (one thread, wasm simd128) and natively on one core (taskset), in one
// run. Prints the ratio, and the floor under it: the group's first-layer GEMMs and AdamW passes alone
// (heads/examples/floor.rs) in Chromium (wasm32-wasip1, simd128: wasi-run.mjs) and natively on one
// core. The tab cannot train faster than its floor.
//   node tests/browser/bench-heads-wasm.mjs     (scripts/bench-models-wasm.sh sets everything up)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { serve, browser, openApp, dist, votesPath } from './harness.mjs';

const ds = 'chaosnli_snli';
const dir = path.join(dist, 'models', ds);
const training = JSON.parse(fs.readFileSync(path.join(dir, 'training.json'), 'utf8'));
const split = Math.min(...training.map((r) => r.split));
const epochs = Math.max(...training.filter((r) => r.split === split && r.seed === 0).map((r) => r.train_loss.length));
if (!Number.isFinite(epochs)) throw new Error(`no group (split ${split}, seed 0) in ${dir}/training.json`);
const args = [path.join(dir, 'features.safetensors'), votesPath(ds), path.join(dir, 'manifest.json'), String(split), '0', String(epochs)];
// One core and one rayon thread: candle sizes gemm's rayon pool from the machine's CPU count, not the
// affinity mask, so taskset alone runs two threads on one core (measured here: 17 s instead of 7 s).
const one = { ...process.env, RAYON_NUM_THREADS: '1' };
const native1 = execFileSync('taskset', ['-c', '0', process.env.ANNOSAT_TIME_GROUP, ...args], { encoding: 'utf8', env: one }).trim();
const nativeAll = execFileSync(process.env.ANNOSAT_TIME_GROUP, args, { encoding: 'utf8' }).trim();
const ms1 = Number(native1.match(/best of 3 (\d+) ms/)[1]);

// The floor's shapes are the group's: the export's items and feature width, its heads and epochs.
const st = fs.readFileSync(path.join(dir, 'features.safetensors'));
const [items, width] = JSON.parse(st.subarray(8, 8 + Number(st.readBigUInt64LE(0))).toString()).features.shape;
const { folds } = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')).config;
if (folds && split !== 0) throw new Error(`the floor times fold 0; the group is fold ${split}`);
const floorArgs = (heads) => [items, width, heads, 64, 64, epochs].concat(folds ? [folds] : []).map(String);
const seconds = (out) => Number(out.match(/floor: ([\d.]+) s/)[1]);
const gflops = (out) => out.match(/GEMMs [\d.]+ s, (\d+) GFLOP\/s/)[1];

const s = await serve();
const ctx = await browser();
const page = await openApp(ctx, s.url, `?room=models&dataset=${ds}&model_workers=1`); // one model worker: the per-thread speed
await page.locator('#train-grid').waitFor({ timeout: 60_000 });
for (const box of await page.locator('#arm-toggles input[type=checkbox]').all()) await box.check();
await page.selectOption('#train-split', String(split));
await page.selectOption('#train-seed', '0');
const times = [];
for (let i = 0; i < 3; i++) {
  await page.click('#train-grid');
  await page.locator(`#train-summary[data-ms]`).waitFor({ timeout: 600_000 });
  await page.waitForFunction(() => !document.querySelector('#train-grid').disabled);
  const sum = page.locator('#train-summary');
  times.push(Number(await sum.getAttribute('data-ms')));
  const [heads, ep] = [await sum.getAttribute('data-heads'), await sum.getAttribute('data-epochs')];
  if (Number(ep) !== epochs) throw new Error(`the browser ran ${ep} epochs, not ${epochs}`);
  if (i === 0) {
    console.log(`browser: ${heads} heads, ${ep} epochs`);
    // Every run of the group against the export: best epoch and the largest metric difference.
    let same = 0, worst = 0, n = 0;
    for (const row of await page.locator('#train-results tbody tr').all()) {
      const cells = await row.locator('td').allTextContents();
      n += 1;
      if (cells[2] === cells[3]) same += 1;
      worst = Math.max(worst, Number(await row.getAttribute('data-diff')));
    }
    console.log(`agreement with the export: ${n} runs, the same best epoch in ${same}, largest metric difference ${worst.toExponential(2)}`);
  }
}
await ctx.close();
await s.close();
const best = Math.min(...times);
console.log(`native, one core: ${native1}`);
console.log(`native, all cores: ${nativeAll}`);
console.log(`browser model worker (one thread, headless Chromium): ${times.map((t) => t.toFixed(0)).join(', ')} ms; best ${best.toFixed(0)} ms`);
console.log(`ratio browser / native per thread (best vs best): ${(best / ms1).toFixed(2)} (goal ≤ 2)`);
const heads = Number(native1.match(/^(\d+) heads/)[1]);
const floorWasm = execFileSync('node', [path.join(import.meta.dirname, 'wasi-run.mjs'), process.env.ANNOSAT_FLOOR_WASM, ...floorArgs(heads)],
  { encoding: 'utf8' });
const floorNative = execFileSync('taskset', ['-c', '0', process.env.ANNOSAT_FLOOR, ...floorArgs(heads)], { encoding: 'utf8', env: one });
console.log(`floor, the group's first-layer GEMMs and AdamW passes alone: wasm (headless Chromium, simd128) `
  + `${seconds(floorWasm).toFixed(3)} s (GEMMs ${gflops(floorWasm)} GFLOP/s), native on one core ${seconds(floorNative).toFixed(3)} s `
  + `(GEMMs ${gflops(floorNative)} GFLOP/s): ${(seconds(floorWasm) / seconds(floorNative)).toFixed(2)}x; so the browser's `
  + `group takes at least ${(seconds(floorWasm) * 1000 / ms1).toFixed(2)}x the native group's best`);
