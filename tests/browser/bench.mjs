// Benchmark (not a test): curve computation for a dataset in the app's workers, in headless
// Chromium, against the same computation natively, in one run. Prints the ratios.
//   node tests/browser/bench.mjs [dataset] [page loads]      (scripts/bench.sh sets everything up)
// Two measurements: the app as a user gets it (one worker per core, up to 4, splitting the
// repeats), and the app with one worker (the page told it has one core), which is the per-thread
// speed of the wasm engine against the native one. Each page load computes once on load and then
// for four more seeds; the best time counts (a 2-core machine also runs the browser's own threads,
// so single times vary).
import { execFileSync } from 'node:child_process';
import { serve, browser, openApp, idle, votesPath } from './harness.mjs';

const [name = 'chaosnli_snli', loads = '3'] = process.argv.slice(2);
const native = execFileSync(process.env.ANNOSAT_TIME_CURVES, [votesPath(name)], { encoding: 'utf8' }).trim();
const nativeMs = Number(native.match(/best of 5 ([\d.]+) ms/)[1]);
const s = await serve();
const ctx = await browser();

// The status says when the mean curves were in ("computed in") and when the item intervals
// were ("the item intervals after"; absent with bootstrap=0).
const computedMs = (status) => Number(status.match(/computed in (\d+) ms/)[1]);
const intervalsMs = (status) => Number(status.match(/item intervals after (\d+) ms/)?.[1] ?? NaN);

async function measure(cores, query = '') {
  const times = [];
  const intervals = [];
  let workers = '?';
  for (let i = 0; i < Number(loads); i++) {
    const app = await openWith(cores, query);
    const status = await app.locator('#status').textContent();
    times.push(computedMs(status));
    intervals.push(intervalsMs(status));
    workers = status.match(/in (\d+) workers?/)[1];
    for (let seed = 0; seed < 4; seed++) {
      await app.fill('#seed', String(100 + 10 * i + seed));
      await app.press('#seed', 'Enter');
      await app.locator('#status[data-state="busy"]').waitFor().catch(() => {});
      await app.locator('#status[data-state="idle"]').waitFor({ timeout: 60_000 });
      const st = await app.locator('#status').textContent();
      times.push(computedMs(st));
      intervals.push(intervalsMs(st));
    }
    await app.close();
  }
  return { times, intervals, workers: Number(workers), best: Math.min(...times), bestIntervals: Math.min(...intervals) };
}

/** The app on `name`; with `cores`, the page is told the machine has that many (its pool size). */
async function openWith(cores, query) {
  if (!cores) return openApp(ctx, s.url, `?dataset=${name}${query}`);
  const page = await ctx.newPage();
  await page.addInitScript((n) => Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => n }), cores);
  await page.goto(`${s.url}?dataset=${name}${query}`);
  await idle(page);
  return page;
}

const all = await measure(0);
const none = await measure(0, '&bootstrap=0');
const one = await measure(1);
await ctx.close();
await s.close();
console.log(`native one thread: ${native}`);
console.log(`app, ${all.workers} worker(s) splitting the repeats (headless Chromium), ${all.times.length} computations: ${all.times.join(', ')} ms; best ${all.best} ms (goal ≤ 50 ms)`);
console.log(`app, item intervals (200 resamples) after: ${all.intervals.join(', ')} ms; best ${all.bestIntervals} ms`);
console.log(`app without the item bootstrap (bootstrap=0), ${none.times.length} computations: ${none.times.join(', ')} ms; best ${none.best} ms; first curves with the bootstrap / without: ${(all.best / none.best).toFixed(2)} (goal ≤ 1.05)`);
console.log(`app, 1 worker, ${one.times.length} computations: ${one.times.join(', ')} ms; best ${one.best} ms`);
console.log(`ratio wasm one worker / native one thread: ${(one.best / nativeMs).toFixed(2)} (goal ≤ 2)`);
