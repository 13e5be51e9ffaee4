// Uploads in real headless Chromium: good wide and long files, bad files with their messages, no
// network traffic after an upload, and a responsive page while a 50 MB file is parsed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, browser, cliCurves, openApp, idle, readout, METRICS, shots } from './harness.mjs';

let server, ctx;
before(async () => { server = await serve(); ctx = await browser(); });
after(async () => { await ctx?.close(); await server?.close(); });

const csv = (name, text) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

async function upload(page, file) {
  await page.setInputFiles('#upload', file);
}

test('a good wide file and a good long file replace the dataset; numbers equal the CLI', async () => {
  const page = await openApp(ctx, server.url);
  const wide = 'item_id,pos,neg,neu\na,7,1,2\nb,2,6,2\nc,4,4,2\nd,9,0,1\ne,1,1,8\nf,5,3,2\n';
  await upload(page, csv('mine.csv', wide));
  await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
  await idle(page);
  assert.match(await page.locator('#stats').textContent(), /6.*pos, neg, neu.*10 \/ 10 \/ 10/s);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'annosat-up-'));
  fs.writeFileSync(path.join(dir, 'wide.csv'), wide);
  await page.fill('#n-number', '4');
  await page.press('#n-number', 'Enter');
  const cli = cliCurves(path.join(dir, 'wide.csv'), ['--n', '4']);
  for (const m of METRICS) assert.equal((await readout(page, m)).raw, cli[`4/${m}`].mean, m);
  assert.match(page.url(), /dataset=uploaded/);

  const long = ['item_id,annotator_id,label', ...Array.from({ length: 40 }, (_, i) =>
    `item${i % 8},w${i},${['yes', 'no', 'maybe'][(i * 7 + (i % 8)) % 3]}`)].join('\n');
  await upload(page, csv('long.csv', long));
  await page.locator('#dataset option', { hasText: 'long.csv' }).waitFor({ state: 'attached' });
  await idle(page);
  fs.writeFileSync(path.join(dir, 'long.csv'), long);
  const cli2 = cliCurves(path.join(dir, 'long.csv'), ['--n', '4']);
  assert.equal((await readout(page, 'jsd')).raw, cli2['4/jsd'].mean);
  assert.match(await page.locator('#stats').textContent(), /8.*maybe, no, yes/s);
  fs.rmSync(dir, { recursive: true });
});

const BAD = [
  ['empty.csv', '', /the file is empty/],
  ['header-only.csv', 'item_id,a,b\n', /header but no item rows/],
  ['no-header.csv', 'x,3,4\ny,1,2\n', /line 1, column 2: .*looks like data/],
  ['duplicate.csv', 'item_id,a,b\nx,1,2\nx,3,4\n', /line 3, column 1: item 'x' already appeared on line 2/],
  ['word.csv', 'item_id,a,b\nx,1,two\n', /line 2, column 3: count 'two' is not a whole number/],
  ['negative.csv', 'item_id,a,b\nx,-1,2\n', /line 2, column 2: count '-1' is negative/],
  ['fraction.csv', 'item_id,a,b\nx,1,0.5\n', /line 2, column 3: count '0.5' has a fractional part/],
  ['columns.csv', 'item_id,a,b\nx,1,2,3\n', /line 2: this row has 4 columns but the header has 3/],
  ['empty-class.csv', 'item_id,a,\nx,1,2\n', /line 1, column 3: a class column has an empty name/],
  ['one-class.csv', 'item_id,a\nx,1\n', /found 1 class column\(s\) but at least 2 are needed/],
  ['mixed.csv', 'item_id,annotator_id,label,a\nx,w,a,1\n', /mixes the wide and long formats/],
  ['latin1.csv', Buffer.from([...Buffer.from('item_id,a,b\nx'), 0xff, ...Buffer.from(',1,2\n')]), /not valid UTF-8/],
  ['votes.csv.gz', Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]), /a gzip-compressed file.*gunzip/],
  ['book.xlsx', Buffer.from('PK\x03\x04\x14\x00\x06\x00rest of a workbook', 'latin1'), /Excel .xlsx.*Save As → CSV UTF-8/],
  ['utf16.csv', Buffer.from('\ufeffitem_id,a,b\nx,1,2\n', 'utf16le'), /UTF-16 text.*re-save it as UTF-8/],
  ['votes.json', '{"items": [{"id": "x", "votes": [1, 2]}]}', /JSON.*convert it to CSV/],
  ['zeros.csv', 'item_id,a,b\nx,0,0\ny,0,0\n', /all 2 item rows have zero votes/],
  ['huge-cell.csv', `item_id,a,b\nx,1,${'9'.repeat(200_000)}\n`, /\(200000 characters\)/],
  ['wide65.csv', `item_id,${Array.from({ length: 65 }, (_, i) => `c${i}`).join(',')}\nx,${Array(65).fill(1).join(',')}\n`, /at most 64 are supported/],
];

test('bad files get an inline message with line, column and fix; the app stays usable', async () => {
  const page = await openApp(ctx, server.url, '?n=10');
  const before = await readout(page, 'kl');
  for (const [name, content, want] of BAD) {
    await upload(page, { name, mimeType: 'text/csv', buffer: Buffer.isBuffer(content) ? content : Buffer.from(content) });
    const err = page.locator('#upload-error');
    await err.waitFor();
    await page.waitForFunction(() => document.querySelector('#status')?.dataset.state === 'idle');
    assert.match(await err.textContent(), want, name);
    assert.match(await page.locator('#upload-error-banner').textContent(), want, `${name} (banner)`);
    assert.equal(await page.locator('#dataset').inputValue(), 'chaosnli_snli', `${name} replaced the dataset`);
    assert.deepEqual(await readout(page, 'kl'), before, `${name} changed the numbers`);
  }
  await page.screenshot({ path: path.join(shots, 'upload-error.png') });
  // Still usable: the slider and held-out toggle work after all those errors.
  await page.fill('#n-number', '20');
  await page.press('#n-number', 'Enter');
  assert.equal(await page.locator('#n-value').textContent(), '20');
  await page.check('#heldout');
  await idle(page);
  assert.notEqual((await readout(page, 'kl')).raw, before.raw);
});

test('the sample file downloads and loads', async () => {
  const page = await openApp(ctx, server.url);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#sample')]);
  const file = await dl.path();
  assert.match(fs.readFileSync(file, 'utf8'), /^item_id,/);
  await upload(page, file);
  await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
  await idle(page);
});

test('nothing goes over the network after an upload', async () => {
  const page = await openApp(ctx, server.url);
  const requests = [];
  page.on('request', (r) => requests.push(`${r.method()} ${r.url()}`));
  await upload(page, csv('private.csv', 'item_id,a,b\np,3,1\nq,1,3\nr,2,2\ns,4,0\n'));
  await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
  await idle(page);
  await page.fill('#n-number', '2');
  await page.press('#n-number', 'Enter');
  await page.check('#logx');
  await page.fill('#x-pct', '80');
  await page.press('#x-pct', 'Enter');
  await page.waitForTimeout(300);
  assert.deepEqual(requests, []);
});

test('the page stays responsive while a 50 MB file is parsed in the worker', async () => {
  const page = await openApp(ctx, server.url);
  // About 50 MB of long-format votes: 100,000 items × 20 annotators.
  const rows = ['item_id,annotator_id,label'];
  for (let i = 0; i < 100_000; i++) for (let a = 0; a < 20; a++) rows.push(`item-${String(i).padStart(7, '0')},annotator-${String(a).padStart(4, '0')},${(i * 31 + a * 7) % 5 < 3 ? 'agree' : 'disagree'}`);
  const big = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'annosat-big-')), 'big.csv');
  fs.writeFileSync(big, rows.join('\n'));
  assert.ok(fs.statSync(big).size > 50e6, `${fs.statSync(big).size} bytes`);
  await page.evaluate(() => {
    window.__ticks = 0; window.__maxGap = 0; let last = performance.now();
    window.__timer = setInterval(() => { const t = performance.now(); window.__maxGap = Math.max(window.__maxGap, t - last); last = t; window.__ticks++; }, 10);
    // Long tasks (≥ 50 ms) on the main thread, as the browser itself reports them.
    window.__longest = 0;
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longest = Math.max(window.__longest, e.duration); }).observe({ entryTypes: ['longtask'] });
  });
  await upload(page, big);
  await page.locator('#status[data-state="busy"]').waitFor();
  await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached', timeout: 120_000 });
  const { ticks, maxGap, longest } = await page.evaluate(() => { clearInterval(window.__timer); return { ticks: window.__ticks, maxGap: window.__maxGap, longest: window.__longest }; });
  assert.match(await page.locator('#stats').textContent(), /100000/);
  assert.ok(ticks > 20, `timer ticked only ${ticks} times`);
  // The goal is no main-thread task over 50 ms; the assertion leaves room for a loaded CI machine.
  // The timer gap also counts the test driver's own calls into the page.
  assert.ok(longest < 100, `a main-thread task took ${longest.toFixed(0)} ms`);
  assert.ok(maxGap < 250, `main-thread timer stalled for ${maxGap.toFixed(0)} ms`);
  console.log(`50 MB upload: ${ticks} timer ticks, longest timer gap ${maxGap.toFixed(0)} ms, longest task ${longest ? longest.toFixed(0) + ' ms' : 'none over 50 ms'}`);
  fs.rmSync(path.dirname(big), { recursive: true });
});

test('a file dropped on the page loads like a picked one', async () => {
  const page = await openApp(ctx, server.url);
  await page.evaluate(() => {
    const file = new File(['item_id,a,b\nu,3,1\nv,1,3\nw,2,2\n'], 'dropped.csv', { type: 'text/csv' });
    const dt = new DataTransfer();
    dt.items.add(file);
    const zone = document.querySelector('.dropzone');
    zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  await page.locator('#dataset option', { hasText: 'dropped.csv' }).waitFor({ state: 'attached' });
  await idle(page);
  assert.match(await page.locator('#stats').textContent(), /3.*a, b/s);
});

test('long item ids are cut in the per-item table (whole on hover) and no empty text column is shown', async () => {
  const page = await openApp(ctx, server.url, '?n=3');
  const rows = Array.from({ length: 40 }, (_, i) =>
    `https://images.example.org/collections/adult-content/batch-${i}/photo-${i}.jpg${i === 3 ? '\u202e' : ''},${i % 7},${10 - (i % 7)}`);
  await upload(page, { name: 'urls.csv', mimeType: 'text/csv', buffer: Buffer.from(`item_id,a,b\n${rows.join('\n')}\n`) });
  await page.locator('#movers tbody tr').first().waitFor({ timeout: 60_000 });
  const heads = await page.locator('#movers thead th').allTextContents();
  assert.ok(!heads.includes('text'), heads.join(' | '));
  const cell = page.locator('#movers tbody td.id').first();
  assert.match(await cell.getAttribute('title'), /^https:\/\/images\.example\.org\/collections\/adult-content\/batch-\d+\/photo-\d+\.jpg/);
  // Cut in the middle: the start and the end of the whole id (which row comes first depends on the draws).
  const [head, tail] = (await cell.textContent()).split('…');
  assert.equal(head, 'https://images');
  assert.match(tail, /\d+\.jpg/);
  assert.ok((await cell.getAttribute('title')).endsWith(tail), tail);
  assert.equal(await page.locator('#movers tbody td.id bdi').count(), await page.locator('#movers tbody tr').count(), 'ids are bidi-isolated');
  const box = await cell.boundingBox();
  assert.ok(box.height < 30, `one line per id (${box.height}px)`);
  assert.deepEqual(page.errors, []);
});
