// Benchmark (not a test): the whole answer for each vote file given — the curves, their item
// intervals, and where a metric is bounded by the votes the extrapolation with its bootstrap and
// the pilots — natively on one thread (`taskset -c 0 annosat curves`, best of 3) and in the app
// (from choosing the file to every bounded metric's extrapolated answer on screen, with all the
// app's workers). Prints one line per file.
//   node tests/browser/bench-answer.mjs FILE…      (scripts/bench-answer.sh)
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { serve, browser, openApp } from './harness.mjs';

const cli = process.env.ANNOSAT_CLI;
if (!cli) throw new Error('set ANNOSAT_CLI to the annosat binary (scripts/bench-answer.sh does)');

function nativeSeconds(file) {
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const t = process.hrtime.bigint();
    execFileSync('taskset', ['-c', '0', cli, 'curves', '--votes', file, '--format', 'json'], { stdio: ['ignore', 'ignore', 'pipe'] });
    runs.push(Number(process.hrtime.bigint() - t) / 1e9);
  }
  return runs;
}

/** Every bounded metric extrapolated (or none bounded), nothing computing. */
function answered() {
  const lis = [...document.querySelectorAll('#saturation li')];
  const status = document.querySelector('#status');
  return lis.length > 0 && status?.dataset.state === 'idle'
    && !document.querySelector('#headline-status[data-state="busy"]')
    && lis.every((li) => li.dataset.bounded !== 'true' || li.dataset.extrapolated === 'true');
}

const s = await serve();
const ctx = await browser();
try {
  for (const file of process.argv.slice(2)) {
    const native = nativeSeconds(file);
    const page = await openApp(ctx, s.url, '?dataset=snow2008_wsd');
    const workers = await page.evaluate(() => navigator.hardwareConcurrency);
    const t = Date.now();
    await page.setInputFiles('#upload', file);
    await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached', timeout: 600_000 });
    await page.waitForFunction(answered, null, { timeout: 600_000, polling: 100 });
    const app = (Date.now() - t) / 1000;
    const bounded = await page.locator('#saturation li[data-bounded="true"]').count();
    const pilot = await page.locator('#headline-pilot').count();
    if (page.errors.length) throw new Error(page.errors.join('\n'));
    await page.close();
    console.log(`${path.basename(file)}: native one thread ${native.map((x) => x.toFixed(2)).join(', ')} s (best ${Math.min(...native).toFixed(2)} s); app ${app.toFixed(1)} s with ${workers} cores (${bounded} metric(s) extrapolated${pilot ? ', pilot line shown' : ''})`);
  }
} finally {
  await ctx.close();
  await s.close();
}
