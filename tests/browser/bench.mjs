// Benchmark (not a test): curve computation for a dataset in the app's worker, in headless
// Chromium, against the same computation natively, in one run. Prints the ratio.
//   node tests/browser/bench.mjs [dataset] [page loads]      (scripts/bench.sh sets everything up)
import { execFileSync } from 'node:child_process';
import { serve, browser, openApp, votesPath } from './harness.mjs';

const [name = 'chaosnli_snli', loads = '3'] = process.argv.slice(2);
const native = execFileSync(process.env.ANNOSAT_TIME_CURVES, [votesPath(name)], { encoding: 'utf8' }).trim();
const nativeMs = Number(native.match(/best of 5 ([\d.]+) ms/)[1]);
const s = await serve();
const ctx = await browser();
const times = [];
let workers = '?';
for (let i = 0; i < Number(loads); i++) {
  const page = await openApp(ctx, s.url, `?dataset=${name}`);
  const status = await page.locator('#status').textContent();
  times.push(Number(status.match(/computed in (\d+) ms/)[1]));
  workers = status.match(/in (\d+) workers?/)[1];
  // A second computation in the same worker (a new seed), once the browser has optimised the code.
  await page.fill('#seed', String(100 + i));
  await page.press('#seed', 'Enter');
  await page.locator('#status[data-state="busy"]').waitFor().catch(() => {});
  await page.locator('#status[data-state="idle"]').waitFor({ timeout: 60_000 });
  times.push(Number((await page.locator('#status').textContent()).match(/computed in (\d+) ms/)[1]));
  await page.close();
}
await ctx.close();
await s.close();
const best = Math.min(...times);
console.log(`native: ${native}`);
console.log(`wasm, ${workers} worker(s) splitting the repeats (headless Chromium), ${times.length} computations: ${times.join(', ')} ms; best ${best} ms`);
console.log(`ratio browser/native-single-thread (best vs best): ${(best / nativeMs).toFixed(2)}; per-thread ratio ≈ ${(best * Number(workers) / nativeMs).toFixed(2)} (goal ≤ 2); goal ≤ 50 ms in the browser`);
