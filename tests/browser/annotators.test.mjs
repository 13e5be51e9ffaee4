// A long file (who gave each vote) in real headless Chromium: the Target room's intervals cover
// items and annotators, equal to `annosat curves`' default for such a file, and the Sources room
// ranks the file's own annotators with the numbers and the CSV of `annosat annotators`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, browser, openApp, idle, shots, annosat } from './harness.mjs';

let server, ctx;
before(async () => { server = await serve(); ctx = await browser(); });
after(async () => { await ctx?.close(); await server?.close(); });

const cli = annosat;

/** A seeded generator (mulberry32), so the file is the same on every run. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A long file with enough votes per item that the points are not bounded by them: 200 items,
 * 100 of 120 annotators each; annotator a gives their favourite class instead of their own draw
 * with a probability of their own (0–40%), so who labelled moves the items together. */
function longFile() {
  const r = rng(7);
  const classes = ['pos', 'neg', 'neu'];
  const habit = Array.from({ length: 120 }, () => ({ rate: 0.4 * r(), fav: Math.floor(3 * r()) }));
  const lines = ['item_id,annotator_id,label'];
  for (let i = 0; i < 200; i++) {
    const w = classes.map(() => (-Math.log(1 - r())) ** 2);
    const tot = w.reduce((x, y) => x + y, 0);
    const p = w.map((x) => x / tot);
    const who = Array.from({ length: 120 }, (_, a) => a).sort(() => r() - 0.5).slice(0, 100);
    for (const a of who) {
      let c;
      if (r() < habit[a].rate) c = habit[a].fav;
      else { const u = r(); c = u < p[0] ? 0 : u < p[0] + p[1] ? 1 : 2; }
      lines.push(`item${i},w${a},${classes[c]}`);
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'annosat-long-'));
  const f = path.join(dir, 'crowd.csv');
  fs.writeFileSync(f, lines.join('\n') + '\n');
  return f;
}

let longPath;
const file = () => (longPath ??= longFile());

test('an uploaded long file: crossed intervals as the CLI computes them, and the annotator ranking', async () => {
  const page = await openApp(ctx, server.url);
  await page.setInputFiles('#upload', file());
  await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
  // The status stays busy through the annotators' share; idle means the intervals are in.
  await idle(page, 120_000);
  const want = JSON.parse(cli(['curves', '--votes', file(), '--format', 'json']));
  assert.equal(want.bootstrap.over, 'items and annotators');
  await page.locator('#intervals-note', { hasText: 'over items and annotators' }).waitFor();
  const rows = await page.locator('#saturation li').evaluateAll((lis) => lis.map((li) => ({
    metric: li.dataset.metric, bounded: li.dataset.bounded, lo: li.dataset.itemsLo, hi: li.dataset.itemsHi,
  })));
  let compared = 0;
  for (const r of rows) {
    if (r.bounded === 'true') continue;
    const h = want.headline[r.metric];
    assert.equal(r.lo, String(h.items.lo), r.metric);
    assert.equal(r.hi, String(h.items.hi), r.metric);
    compared += 1;
  }
  assert.ok(compared >= 2, `${compared} unbounded metrics compared`);
  const within = await page.locator('#within li').allTextContents();
  assert.ok(within.some((w) => w.includes('over items and annotators')), within.join(' | '));

  await page.click('#tab-sources');
  await page.click('#rank-start');
  await page.locator('#rank-status[data-state="idle"]').waitFor({ timeout: 120_000 });
  assert.ok(await page.locator('#rank-start').isEnabled(), 'the button runs it again');
  const csv = cli(['annotators', '--votes', file()]);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#rank-csv')]);
  assert.equal(fs.readFileSync(await download.path(), 'utf8'), csv, 'the CSV is the CLI\'s');
  // The table shows the CSV's rows in its order, with the CLI's ν at two decimals.
  const lines = csv.trim().split('\n').slice(1).map((l) => l.split(','));
  const shown = await page.locator('#rank-table tbody tr').evaluateAll((trs) => trs.map((tr) => ({
    id: tr.dataset.id, below: tr.dataset.below, jsd: tr.querySelector('td[data-metric="jsd"]').textContent,
  })));
  assert.equal(shown.length, lines.length);
  for (const [i, l] of lines.entries()) {
    assert.equal(shown[i].id, l[0]);
    assert.equal(shown[i].below, l[2]);
    if (l[4]) assert.ok(shown[i].jsd.startsWith(Number(l[4]).toFixed(2)), `${shown[i].jsd} / ${l[4]}`);
  }
  assert.match(await page.locator('#rank-summary').textContent(), /95% over items, reference splits and the other annotators/);
  await page.evaluate(() => document.querySelector('#rank').scrollIntoView());
  await page.screenshot({ path: path.join(shots, 'sources-annotators.png') });
  await page.click('#tab-target');
  await page.evaluate(() => document.querySelector('#intervals-note').scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: path.join(shots, 'target-crossed.png') });
  assert.deepEqual(page.errors, []);
  await page.close();
});
