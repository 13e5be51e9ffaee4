// The Target room's answer card in real headless Chromium: intervals over items equal to
// `annosat curves`' for a dataset with 100 votes per item, and, for an upload with 10 votes per
// item, the extrapolated headline (run by itself in the worker) with its item interval and the
// bounded-by-votes line — the same numbers and sentences as the CLI prints for the same seed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, browser, openApp, idle, shots, votesPath, annosat } from './harness.mjs';

let server, ctx;
before(async () => { server = await serve(); ctx = await browser(); });
after(async () => { await ctx?.close(); await server?.close(); });

/** `annosat curves … --format json` with its stderr (the sentences). */
function cli(votes, args = []) {
  return JSON.parse(annosat(['curves', '--votes', votes, '--format', 'json', ...args]));
}

async function rows(page) {
  return page.locator('#saturation li').evaluateAll((lis) => lis.map((li) => ({
    metric: li.dataset.metric, bounded: li.dataset.bounded, extrapolated: li.dataset.extrapolated,
    n: li.dataset.n, lo: li.dataset.itemsLo, hi: li.dataset.itemsHi, text: li.textContent.trim(),
    pilot: li.dataset.pilot,
  })));
}

test('100 votes per item: item intervals as the CLI computes them, nothing bounded', async () => {
  const page = await openApp(ctx, server.url, '?dataset=chaosnli_snli');
  const want = cli(votesPath('chaosnli_snli'));
  const got = await rows(page);
  assert.equal(got.length, 4);
  for (const r of got) {
    const h = want.headline[r.metric];
    assert.equal(r.bounded, 'false', r.metric);
    assert.equal(r.n, String(h.n), r.metric);
    assert.equal(r.lo, String(h.items.lo), r.metric);
    assert.equal(r.hi, String(h.items.hi), r.metric);
    assert.match(r.text, new RegExp(`^${r.metric}: 90% by N = ${h.n} \\(items `), r.metric);
    assert.equal(want.saturation[r.metric].bounded_by_votes, false);
  }
  assert.equal(await page.locator('#bounded-line').count(), 0);
  // The headline is the CLI's sentences, word for word.
  assert.equal((await page.locator('#sentence').textContent()).trim(), `${want.headline.kl.sentence} ${want.headline.entropy_corr.sentence}`);
  assert.match(await page.locator('#intervals-note').textContent(), /200 resamples/);
  // The ε lines are the CLI's.
  const within = await page.locator('#within li').allTextContents();
  for (const [i, m] of ['jsd', 'entropy_corr', 'kl', 'majority_agreement'].entries()) {
    assert.ok(within[i].includes(want.headline[m].within_sentence), `${within[i]} / ${want.headline[m].within_sentence}`);
  }
  // A new ε is read off the same curves: KL within 0.02 needs more annotators than within 0.05.
  await page.fill('#within input[data-metric="kl"]', '0.02');
  await page.press('#within input[data-metric="kl"]', 'Enter');
  const tight = cli(votesPath('chaosnli_snli'), ['--within', 'kl=0.02']);
  await page.waitForFunction((s) => document.querySelector('#within li[data-metric="kl"]').textContent.includes(s),
    tight.headline.kl.within_sentence);
  assert.ok(tight.within.kl.n > want.within.kl.n);
  // The band toggle switches the panels between items and repeats.
  const drawn = () => page.locator('canvas[data-metric="entropy_corr"]').evaluate((c) => c.toDataURL());
  assert.ok(await page.locator('#item-band').isChecked());
  const items = await drawn();
  await page.uncheck('#item-band');
  await page.waitForFunction((before) => document.querySelector('canvas[data-metric="entropy_corr"]').toDataURL() !== before, items);
  await page.check('#item-band');
  await page.waitForFunction((before) => document.querySelector('canvas[data-metric="entropy_corr"]').toDataURL() === before, items);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('an upload with 10 votes per item: the extrapolated headline, its interval and the bounded line', async () => {
  const ten = votesPath('snow2008_rte');
  const page = await openApp(ctx, server.url);
  await page.setInputFiles('#upload', ten);
  await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
  await idle(page);
  // Bounded metrics are extrapolated without a button: wait for the answer.
  await page.locator('#bounded-line').waitFor();
  assert.match(await page.locator('#bounded-line').textContent(), /own 10 votes/);
  await page.locator('#saturation li[data-extrapolated="true"]').first().waitFor({ timeout: 180_000 });
  const want = cli(ten);
  const got = await rows(page);
  let bounded = 0;
  for (const r of got) {
    const h = want.headline[r.metric];
    assert.equal(r.bounded, String(want.saturation[r.metric].bounded_by_votes), r.metric);
    assert.equal(r.extrapolated, String(h.extrapolated), r.metric);
    assert.equal(r.n, String(h.n ?? ''), r.metric);
    assert.equal(r.lo, String(h.items?.lo ?? ''), r.metric);
    assert.equal(r.hi, String(h.items?.hi ?? ''), r.metric);
    // The pilot that would narrow a wide answer: the CLI's, word for word.
    assert.equal(r.pilot, h.pilot_sentence ?? '', r.metric);
    if (r.bounded === 'true') {
      bounded += 1;
      assert.match(r.text, /extrapolated to 100 votes per item; within the data by N = \d+, bounded by your 10 votes/);
    }
  }
  assert.ok(bounded >= 3, `${bounded} bounded`);
  const sentence = (await page.locator('#sentence').textContent()).trim();
  assert.equal(sentence, `${want.headline.kl.sentence} ${want.headline.entropy_corr.sentence}`);
  // One short sentence per metric: the number or its range, how often such intervals held the
  // truth on sets with known answers, and what it is extrapolated from.
  assert.match(sentence, /, 90%: (about \d+ annotators per item \(95% interval \d+–\d+\)|between \d+ and (\d+|over 100) annotators per item), extrapolated from your 10 votes to 100 \(held the truth in \d+ of \d+ checks\)\./);
  for (const one of sentence.split(/(?<=\.) (?=[A-Z])/)) assert.ok(one.split(/\s+/).length <= 30, one);
  const pilots = ['kl', 'entropy_corr'].filter((m) => want.headline[m].pilot_sentence);
  assert.equal(await page.locator('#headline-pilot').count(), pilots.length ? 1 : 0);
  for (const m of pilots) {
    // Under the metric's name, the CLI's sentence ("…: a pilot of …").
    assert.ok((await page.locator('#headline-pilot').textContent()).includes(want.headline[m].pilot_sentence.replace(/^A pilot/, 'a pilot')), m);
  }
  assert.match(await page.locator('#headline-fit').textContent(), /Fit check \(a diagnostic[^)]*\): total variation/);
  // The within-data curves stay drawn.
  assert.equal(await page.locator('.charts canvas').count(), 4);
  await page.locator('#sentence').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'answer-10-votes.png'), fullPage: true });
  // The option: against the items' true distributions, as `--extrapolate-to inf`.
  await page.selectOption('#headline-to', '0');
  await page.locator('#saturation li[data-metric="kl"]', { hasText: 'extrapolated to the true distributions' })
    .waitFor({ timeout: 300_000 });
  const truth = cli(ten, ['--extrapolate-to', 'inf']);
  for (const r of await rows(page)) {
    if (r.bounded !== 'true') continue;
    const h = truth.headline[r.metric];
    assert.equal(h.reference_votes, 'inf');
    assert.equal(r.n, String(h.n), r.metric);
    assert.equal(r.lo, String(h.items.lo), r.metric);
    assert.equal(r.hi, String(h.items.hi), r.metric);
  }
  assert.equal((await page.locator('#sentence').textContent()).trim(),
    `${truth.headline.kl.sentence} ${truth.headline.entropy_corr.sentence}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the headline extrapolation shows progress, Stop stops it, and the button runs it again', async () => {
  const page = await openApp(ctx, server.url);
  await page.setInputFiles('#upload', votesPath('snow2008_rte'));
  await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
  await page.locator('#headline-status[data-state="busy"] progress').waitFor({ timeout: 60_000 });
  await page.click('#headline-status-stop');
  await page.locator('#headline-extrapolate').waitFor();
  assert.match(await page.locator('#headline-status').textContent(), /Stopped before the extrapolation finished/);
  // The curves stay, nothing is extrapolated, and the target side is not left busy.
  await idle(page);
  assert.equal(await page.locator('#saturation li[data-extrapolated="true"]').count(), 0);
  assert.match(await page.locator('#saturation').textContent(), /bounded by your 10 votes/);
  await page.click('#headline-extrapolate');
  await page.locator('#saturation li[data-extrapolated="true"]').first().waitFor({ timeout: 180_000 });
  assert.deepEqual(page.errors, []);
  await page.close();
});
