// The Plan room in real headless Chromium: an uploaded file with 5 votes per item (ChaosNLI-SNLI's
// original SNLI votes) extrapolated to 100 votes per item and to the true distributions, the
// numbers equal to `annosat extrapolate` on the same file, the fit check and the URL state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, browser, openApp, idle, shots, annosat } from './harness.mjs';

let server, ctx;
before(async () => { server = await serve(); ctx = await browser(); });
after(async () => { await ctx?.close(); await server?.close(); });

/** `annosat extrapolate … --format json` on a file. */
function cliExtrapolate(votes, args) {
  return JSON.parse(annosat(['extrapolate', '--votes', votes, '--format', 'json', ...args]));
}

async function csvDownload(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#plan-csv')]);
  return fs.readFileSync(await download.path(), 'utf8');
}

test('an upload with 5 votes per item, extrapolated to 100 and to the truth, equals the CLI', async () => {
  const dir = process.env.ANNOSAT_DATA;
  if (!dir) throw new Error('set ANNOSAT_DATA (scripts/test.sh does)');
  const five = path.join(dir, 'chaosnli_snli', 'votes_old5.csv');
  const page = await openApp(ctx, server.url);
  await page.setInputFiles('#upload', five);
  await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
  await idle(page);
  await page.click('#tab-plan');
  await page.locator('#plan-run').waitFor();
  assert.equal(await page.inputValue('#plan-votes'), '100');
  await page.click('#plan-run');
  await page.locator('#plan-status[data-state="idle"]').waitFor({ timeout: 120_000 });

  // The same numbers as the CLI, bit for bit (same seed, repeats and draws; the fit's math is
  // libm's on both sides): every mean of the CSV export.
  const cli = cliExtrapolate(five, ['--reference-votes', '100']);
  const csv = await csvDownload(page);
  const rows = csv.trim().split('\n').slice(1).map((r) => r.split(','));
  assert.equal(rows.length, 100 * 4);
  let compared = 0;
  for (const [n, metric, mean] of rows) {
    const want = cli.metrics[metric][Number(n) - 1].mean;
    if (want === null) { assert.equal(mean, ''); continue; }
    assert.equal(Number(mean), want, `${metric} N=${n}`);
    compared += 1;
  }
  assert.ok(compared >= 390, `${compared}`);
  // The prior and the fit check as the CLI fitted them; every item of this file has exactly three
  // of five votes in its top class, which the fit check shows.
  const prior = await page.locator('#plan-prior').textContent();
  assert.match(prior, new RegExp(`${cli.prior.components.length === 1 ? 'one Dirichlet' : `mixture of ${cli.prior.components.length} Dirichlets`}`));
  assert.match(prior, /entailment, neutral, contradiction/);
  const fit = await page.locator('#plan-fit tbody tr').allTextContents();
  assert.equal(fit.length, 4);
  assert.match(fit[2], /60–79%.*100\.0%/);
  const tv = Number(await page.locator('#plan-verdict').getAttribute('data-tv'));
  assert.ok(Math.abs(tv - cli.fit_check.total_variation) < 1e-12, `${tv}`);
  assert.match(await page.locator('#plan-verdict').textContent(), /does not describe these items well/);
  // The headline's words, interval and coverage (annosat_core::answer), KL first.
  assert.match(await page.locator('#plan-sentence').textContent(), /^Distribution match \(KL\), 90%: (about \d+|between \d+ and (\d+|over 100)) annotators per item.*extrapolated from your 5 votes to 100 \(held the truth in \d+ of \d+ checks\)\. Ranking items by ambiguity/);
  assert.equal(await page.locator('#plan-charts canvas').count(), 4);
  assert.match(page.url(), /room=plan&votes=100&prior=auto/);
  await page.screenshot({ path: path.join(shots, 'plan-100.png'), fullPage: true });

  // Against the true distributions: the URL says inf; KL at N=100 stays above 0.
  await page.check('#plan-truth');
  await page.click('#plan-run');
  await page.locator('#plan-status[data-state="idle"]').waitFor({ timeout: 120_000 });
  assert.match(page.url(), /votes=inf/);
  assert.match(await page.locator('#plan-sentence').textContent(), /extrapolated from your 5 votes to the items' true distributions/);
  const truth = await csvDownload(page);
  const cliTruth = cliExtrapolate(five, ['--reference-votes', 'inf']);
  const kl100 = truth.trim().split('\n').find((r) => r.startsWith('100,kl,')).split(',')[2];
  assert.equal(Number(kl100), cliTruth.metrics.kl[99].mean);
  assert.ok(Number(kl100) > 0);
  assert.deepEqual(page.errors, []);
});

test('a file where no item has two votes: the room says why, the target side keeps its own message', async () => {
  const page = await openApp(ctx, server.url, '?room=plan');
  const ones = 'item_id,a,b\n' + Array.from({ length: 30 }, (_, i) => `i${i},${i % 2},${1 - (i % 2)}`).join('\n') + '\n';
  await page.setInputFiles('#upload', { name: 'ones.csv', mimeType: 'text/csv', buffer: Buffer.from(ones) });
  await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
  // The target side refuses one vote per item before computing (its own message, in its room).
  await page.locator('#status[data-state="error"]').waitFor({ state: 'attached', timeout: 60_000 });
  const target = await page.locator('#status').textContent();
  assert.match(target, /at most one vote/);
  await page.click('#plan-run');
  await page.locator('#plan-status[data-state="error"]').waitFor({ timeout: 60_000 });
  assert.match(await page.locator('#plan-status').textContent(), /no item has two or more votes/);
  assert.equal(await page.locator('#status').textContent(), target, 'the target side keeps its message');
  assert.deepEqual(page.errors, []);
});

test('target-side work started during an extrapolation queues behind it; a target Stop tells the room', async () => {
  const page = await openApp(ctx, server.url, '?room=plan');
  // A new seed while extrapolating: both finish, neither is left waiting.
  await page.click('#plan-run');
  await page.locator('#plan-status[data-state="busy"]').waitFor();
  await page.fill('#seed', '9');
  await page.press('#seed', 'Enter');
  await page.locator('#plan-status[data-state="idle"]').waitFor({ timeout: 120_000 });
  await idle(page);
  assert.match(await page.locator('#plan-status').textContent(), /seed 42/, 'the result says the seed it was computed with');
  // Target-side work stopped while an extrapolation runs: the workers are replaced, and the room
  // says its work went with them instead of waiting for ever. (1,000 votes per item: seconds of
  // work, so the Stop lands while it runs.)
  await page.fill('#plan-votes', '1000');
  await page.press('#plan-votes', 'Enter');
  await page.click('#plan-run');
  await page.locator('#plan-status[data-state="busy"]').waitFor();
  await page.fill('#seed', '11');
  await page.press('#seed', 'Enter');
  await page.click('#tab-target');
  await page.locator('#status[data-state="busy"]').waitFor();
  await page.click('#stop');
  await page.click('#tab-plan');
  await page.locator('#plan-status[data-state="error"]').waitFor({ timeout: 30_000 });
  assert.match(await page.locator('#plan-status').textContent(), /workers were restarted/);
  assert.deepEqual(page.errors, []);
});
