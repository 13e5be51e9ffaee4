// Benchmark (not a test): the comparison of two models in the app and in the CLI, on the bundled
// ChaosNLI-SNLI (1,514 items, 100 votes each), hard against soft labels, the default grid (10 × 10
// cells, 1,000 simulated evaluations each): the CLI's own time on one thread, and in the app from
// the Compare button to the heat map drawn (fetching the export's predictions included), several
// rounds; prints each run, the medians and their ratio.
//   node tests/browser/bench-compare.mjs [ROUNDS]      (scripts/bench-compare.sh)
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { serve, browser, openApp, root, votesPath } from './harness.mjs';

const rounds = Number(process.argv[2] || 3);
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const fmt = (v) => v.map((x) => x.toFixed(2)).join(', ');
const exp = path.join(root, 'public/models/chaosnli_snli');

const cli = [];
for (let r = 0; r < rounds; r++) {
  const out = spawnSync(process.env.ANNOSAT_CLI, ['compare', '--votes', votesPath('chaosnli_snli'),
    '--a', `${exp}:hard`, '--b', `${exp}:soft`], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(out.stderr);
  cli.push(Number(/time: ([\d.]+) s/.exec(out.stderr)[1]));
}
const s = await serve();
const ctx = await browser();
try {
  const page = await openApp(ctx, s.url, '?dataset=chaosnli_snli&room=plan');
  await page.locator('#compare-models').scrollIntoViewIfNeeded();
  const app = [];
  for (let r = 0; r < rounds; r++) {
    const t = Date.now();
    await page.click('#compare-run');
    await page.locator('#compare-status[data-state="busy"]').waitFor({ state: 'attached' }).catch(() => {});
    await page.locator('#compare-status[data-state="idle"]').waitFor({ timeout: 300_000 });
    await page.locator('#compare-heat canvas').waitFor();
    app.push((Date.now() - t) / 1000);
  }
  if (page.errors.length) throw new Error(page.errors.join('\n'));
  console.log('chaosnli_snli, hard vs soft, 10 x 10 cells x 1000 evaluations (plus the cells along the budget lines):');
  console.log(`  CLI, one thread: ${fmt(cli)} s (median ${median(cli).toFixed(2)} s)`);
  console.log(`  app, Compare to heat map: ${fmt(app)} s (median ${median(app).toFixed(2)} s)`);
  console.log(`  ratio app / CLI: ${(median(app) / median(cli)).toFixed(2)}x`);
} finally {
  await ctx.close();
  await s.close();
}
