// Benchmark (not a test): how curve time grows with the data, natively on one thread and in the
// app's workers (headless Chromium), on generated wide files (scripts/make-big-votes.py) of each
// size given; prints votes per second for each. Files past the app's limits are timed natively only.
//   node tests/browser/bench-scale.mjs 10000 100000 1000000      (scripts/bench.sh --scale)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, browser, openApp, idle, root } from './harness.mjs';

const sizes = process.argv.slice(2).map(Number);

/** Total votes of a wide file (every number after each row's id), in one pass over its bytes. */
function countVotes(file) {
  const b = fs.readFileSync(file);
  let total = 0, cur = 0, field = 0, header = true;
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (c === 10) { if (!header) total += cur; header = false; cur = 0; field = 0; continue; }
    if (header) continue;
    if (c === 44) { if (field > 0) total += cur; cur = 0; field++; continue; }
    if (field > 0 && c >= 48 && c <= 57) cur = cur * 10 + (c - 48);
  }
  return total + cur;
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'annosat-scale-'));
const s = await serve();
const ctx = await browser();
try {
  for (const items of sizes) {
    const file = path.join(dir, `votes-${items}.csv`);
    execFileSync('python3', [path.join(root, 'scripts/make-big-votes.py'), String(items), file]);
    const votes = countVotes(file);
    const runs = items <= 100_000 ? '3' : '1';
    const native = execFileSync(process.env.ANNOSAT_TIME_CURVES, [file, '50', '-', runs], { encoding: 'utf8' });
    const nativeMs = Number(native.match(/best of \d+ ([\d.]+) ms/)[1]);
    let app = 'past the app\'s limits (the CLI only)';
    if (items <= 3_000_000 && fs.statSync(file).size <= 100e6) {
      const page = await openApp(ctx, s.url, '?dataset=snow2008_wsd');
      await page.setInputFiles('#upload', file);
      await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached', timeout: 600_000 });
      await idle(page, 3_600_000);
      const status = await page.locator('#status').textContent();
      const ms = Number(status.match(/computed in (\d+) ms/)[1]);
      const workers = Number(status.match(/in (\d+) workers?/)[1]);
      const boot = Number(status.match(/item intervals after (\d+) ms/)?.[1] ?? NaN);
      app = `${(ms / 1000).toFixed(1)} s in ${workers} workers (${Math.round(votes / ms * 1000).toLocaleString('en')} votes/s; ${(ms * workers / nativeMs).toFixed(2)}× native per thread), the item intervals after ${(boot / 1000).toFixed(1)} s`;
      await page.close();
    }
    console.log(`${items.toLocaleString('en')} items, ${votes.toLocaleString('en')} votes: native one thread ${(nativeMs / 1000).toFixed(2)} s (${Math.round(votes / nativeMs * 1000).toLocaleString('en')} votes/s); app ${app}`);
    fs.rmSync(file);
  }
} finally {
  await ctx.close();
  await s.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
