// A rating file in real headless Chromium: a 5-point upload with a few ratings per item shows the
// rating headline and panels first, equal to `annosat ratings` for the same seed; the scale toggle
// reads the classes as unordered and back; nominal data show no rating view.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { serve, browser, openApp, idle, votesPath, shots } from './harness.mjs';

let server, ctx;
before(async () => { server = await serve(); ctx = await browser(); });
after(async () => { await ctx?.close(); await server?.close(); });

/** `annosat ratings` on `votes`: its CSV (stdout) and its "answer:" sentences (stderr). */
function cliRatings(votes, extra = []) {
  const r = spawnSync(process.env.ANNOSAT_CLI,
    ['ratings', '--votes', votes, '--seed', '42', '--repeats', '50', '--format', 'csv', ...extra], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = (p) => r.stderr.split('\n').filter((l) => l.startsWith(p)).map((l) => l.slice(p.length));
  return { csv: r.stdout, answers: lines('answer: '), plan: lines('plan: '), saturation: lines('saturation: '), within: lines('within: ') };
}

test('a 5-point upload shows the rating headline and panels, as `annosat ratings` prints them', async () => {
  // 300 items of POPQUORN's 1–5 offensiveness ratings (most items have 5 ratings).
  const lines = fs.readFileSync(votesPath('popquorn_offensiveness'), 'utf8').trim().split('\n');
  const text = lines.slice(0, 301).join('\n') + '\n';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'annosat-ratings-'));
  const file = path.join(dir, 'stars.csv');
  fs.writeFileSync(file, text);
  const cli = cliRatings(file);
  assert.equal(cli.answers.length, 2);

  const page = await openApp(ctx, server.url, '?n=3');
  await page.setInputFiles('#upload', { name: 'stars.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
  await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
  await idle(page);
  const card = page.locator('#rating-answer');
  await card.waitFor();
  assert.equal(await page.locator('#scale').inputValue(), 'auto');
  assert.match(await page.locator('#scale option[value="auto"]').textContent(), /a 1–5 scale/);
  assert.match(await card.locator('h3').textContent(), /Ratings on the 1–5 scale/);
  // The rating view comes before the nominal answer.
  const before = await page.evaluate(() => {
    const a = document.querySelector('#rating-answer');
    const b = document.querySelector('.rating-charts');
    const nominal = document.querySelector('.readouts');
    return !!(a.compareDocumentPosition(nominal) & Node.DOCUMENT_POSITION_FOLLOWING)
      && !!(b.compareDocumentPosition(nominal) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  assert.ok(before, 'the rating headline and panels come first');

  const shown = await card.locator('li[data-goal]').allTextContents();
  assert.deepEqual(shown.map((s) => s.trim()), cli.answers, 'the headline is the CLI\'s');
  assert.equal(await card.locator('li[data-goal="precision"]').count(), 1);
  assert.equal(await card.locator('li[data-goal="reliability"]').count(), 1);
  // Each panel's 90% point, as the CLI says it (the page's saturation share is 90%).
  const sat = await page.locator('#rating-saturation li[data-kind="saturation"]').allTextContents();
  assert.deepEqual(sat.map((s) => s.trim()), cli.saturation, 'the saturation points are the CLI\'s');
  const within = await page.locator('#rating-saturation li[data-kind="within"]').allTextContents();
  assert.deepEqual(within.map((s) => s.trim()), cli.within, 'the within points are the CLI\'s');

  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#ratings-csv')]);
  assert.equal(fs.readFileSync(await dl.path(), 'utf8'), cli.csv, 'the rating CSV is the CLI\'s');

  // The values at the slider's N are the CSV's.
  const at3 = Object.fromEntries(cli.csv.trim().split('\n').slice(1).map((r) => r.split(','))
    .filter(([n]) => n === '3').map(([, m, mean]) => [m, mean]));
  const line = await page.locator('#rating-at-n').textContent();
  assert.match(line, /^At N = 3/);
  for (const m of ['mean_error', 'reliability', 'rank_corr', 'wasserstein']) {
    assert.ok(line.includes(Number(at3[m]).toFixed(3)), `${m} ${at3[m]} in "${line}"`);
  }

  // Four panels drawn (not the empty panel's white), PNG and SVG from one.
  const charts = page.locator('.rating-charts canvas');
  assert.equal(await charts.count(), 4);
  const inked = await charts.evaluateAll((cs) => cs.map((c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let blue = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i + 2] > 200 && d[i] < 80) blue++;
    return blue;
  }));
  assert.ok(inked.every((b) => b > 200), `each panel draws its curve: ${inked}`);
  const rel = page.locator('.rating-charts figure[data-metric="reliability"]');
  const [png] = await Promise.all([page.waitForEvent('download'), rel.locator('[data-export="png"]').click()]);
  assert.equal(fs.readFileSync(await png.path()).subarray(1, 4).toString(), 'PNG');
  const [svg] = await Promise.all([page.waitForEvent('download'), rel.locator('[data-export="svg"]').click()]);
  const svgText = fs.readFileSync(await svg.path(), 'utf8');
  assert.match(svgText, /Spearman–Brown/, 'the reliability panel sets the prediction beside the curve');
  await page.screenshot({ path: path.join(shots, 'ratings-1280.png'), fullPage: true });

  // The Plan room's budget in ratings: the CLI's --budget line for 300 items × 10 ratings, and
  // the headline's raters per item for the file's items.
  await page.click('#tab-plan');
  const budget = page.locator('#rating-budget');
  const plan = cliRatings(file, ['--budget', '3000']).plan;
  assert.equal((await budget.locator('li[data-line="budget"]').textContent()).trim(), plan[0]);
  const n = await card.locator('li[data-goal="reliability"]').getAttribute('data-n');
  assert.match(await budget.locator('li[data-line="reliability"]').textContent(), new RegExp(`: ${n} raters per item, ${n * 300} ratings for 300 items`));
  await page.fill('#rb-budget', '6000');
  await page.press('#rb-budget', 'Enter');
  const plan2 = cliRatings(file, ['--budget', '6000', '--items', '300']).plan;
  await budget.locator('li[data-line="budget"]', { hasText: plan2[0] }).waitFor();
  await budget.screenshot({ path: path.join(shots, 'ratings-budget-1280.png') });
  await page.click('#tab-target');

  // Read as unordered: no rating view, the nominal one stays; the URL keeps the choice.
  await page.selectOption('#scale', 'nominal');
  await idle(page);
  assert.equal(await page.locator('#rating-answer').count(), 0);
  assert.match(page.url(), /scale=nominal/);
  await page.selectOption('#scale', 'auto');
  await idle(page);
  await card.waitFor();
  assert.deepEqual((await card.locator('li[data-goal]').allTextContents()).map((s) => s.trim()), cli.answers);
  assert.deepEqual(page.errors, []);
});

test('nominal classes show no rating view until the user orders them', async () => {
  const page = await openApp(ctx, server.url, '?dataset=chaosnli_snli');
  assert.equal(await page.locator('#rating-answer').count(), 0);
  assert.match(await page.locator('#scale option[value="auto"]').textContent(), /unordered classes/);
  assert.equal(await page.locator('#scale option[value="nominal"]').count(), 0);
  await page.selectOption('#scale', 'ordinal');
  await idle(page);
  await page.locator('#rating-answer').waitFor();
  assert.match(await page.locator('#rating-answer h3').textContent(), /Ratings on ranks 1–3/);
  assert.deepEqual(page.errors, []);
});

test('a bundled dataset whose numbers are codes (dog breeds 0–3) is read as unordered', async () => {
  const page = await openApp(ctx, server.url, '?dataset=crowdti_dogs');
  assert.equal(await page.locator('#rating-answer').count(), 0);
  assert.match(await page.locator('#scale option[value="auto"]').textContent(), /codes, not a scale/);
  await page.selectOption('#scale', 'interval');
  await idle(page);
  await page.locator('#rating-answer').waitFor();
  assert.match(page.url(), /scale=interval/);
  assert.deepEqual(page.errors, []);
});

test('the Sources room measures a rating source in raters for the mean rating too, as `annosat worth`', async () => {
  // POPQUORN's items with 8 or more ratings: 2 of each (a seeded pick) become the source.
  const [header, ...rows] = fs.readFileSync(votesPath('popquorn_offensiveness'), 'utf8').trim().split('\n');
  let state = 7;
  const rand = () => { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648; };
  const human = [header];
  const source = [header];
  for (const row of rows) {
    const [id, ...c] = row.split(',');
    const counts = c.map(Number);
    if (counts.reduce((a, b) => a + b, 0) < 8) continue;
    const votes = counts.flatMap((n, k) => Array(n).fill(k));
    const s = counts.map(() => 0);
    for (let j = 0; j < 2; j++) s[votes.splice(Math.floor(rand() * votes.length), 1)[0]]++;
    const h = counts.map((n, k) => n - s[k]);
    human.push([id, ...h].join(','));
    source.push([id, ...s].join(','));
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'annosat-rsrc-'));
  fs.writeFileSync(path.join(dir, 'human.csv'), human.join('\n') + '\n');
  fs.writeFileSync(path.join(dir, 'second.csv'), source.join('\n') + '\n');
  const cli = spawnSync(process.env.ANNOSAT_CLI, ['worth', '--votes', path.join(dir, 'human.csv'),
    '--source', path.join(dir, 'second.csv'), '--split-seed', '42', '--panel-subsets', '10'], { encoding: 'utf8' });
  assert.equal(cli.status, 0, cli.stderr);
  assert.match(cli.stdout, /^mean_rating_se,/m);
  assert.match(cli.stdout, /^mean_rating_corr,/m);

  const page = await openApp(ctx, server.url);
  await page.setInputFiles('#upload', path.join(dir, 'human.csv'));
  await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
  await idle(page);
  await page.click('#tab-sources');
  await page.setInputFiles('#source-files', path.join(dir, 'second.csv'));
  await page.locator('#sources-status[data-state="idle"]').waitFor({ timeout: 180_000 });
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#sources-csv')]);
  assert.equal(fs.readFileSync(await dl.path(), 'utf8'), cli.stdout, 'the CSV is what annosat worth prints');
  assert.equal(await page.locator('#sources-charts canvas').count(), 7);
  assert.equal(await page.locator('#sources-sentences li[data-metric="mean_rating_se"]').count(), 1);
  await page.screenshot({ path: path.join(shots, 'ratings-sources-1280.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
});
