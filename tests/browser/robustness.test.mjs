// Large and failing work in real headless Chromium: the app's limits (file size, items, votes per
// item) are said up front with the CLI as the way on; a big upload shows the time left and can be
// stopped; a worker that dies (a trap, as running out of memory is in wasm) or cannot load is
// reported and replaced, with the last good dataset back.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, browser, cliCurves, votesPath, openApp, idle, readout, shots } from './harness.mjs';

let server, ctx, dir;
before(async () => {
  server = await serve(); ctx = await browser();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'annosat-robust-'));
});
after(async () => { await ctx?.close(); await server?.close(); fs.rmSync(dir, { recursive: true, force: true }); });

/** A file of `header` and `items` rows (`row(i)`, newline included), written in pieces. */
function writeRows(name, header, items, row) {
  const file = path.join(dir, name);
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, header);
  for (let start = 0; start < items; start += 100_000) {
    const rows = [];
    for (let i = start; i < Math.min(items, start + 100_000); i++) rows.push(row(i));
    fs.writeSync(fd, rows.join(''));
  }
  fs.closeSync(fd);
  return file;
}

/** `items` rows of one vote each with the shortest ids: the most items per megabyte. */
const shortRows = (name, items) => writeRows(name, 'item_id,a,b\n', items, (i) => `${i.toString(36)},1,0\n`);

/** A wide file of `items` rows (5–100 votes per item, 3 classes). */
const wideFile = (name, items) => writeRows(name, 'item_id,a,b,c\n', items, (i) => {
  const t = 5 + (i * 37) % 96, a = (i * 7) % (t + 1), b = (i * 13) % (t - a + 1);
  return `item-${String(i).padStart(8, '0')},${a},${b},${t - a - b}\n`;
});

const stats = (page) => page.locator('#stats').textContent();

test('past each limit the app says which and points to the CLI, and keeps the dataset it showed', async () => {
  const page = await openApp(ctx, server.url);
  const before = await stats(page);
  // File size: checked before anything is read (a sparse 150 MB file is never read at all).
  const huge = path.join(dir, 'huge.csv');
  fs.writeFileSync(huge, 'item_id,a,b\n');
  fs.truncateSync(huge, 150e6);
  await page.setInputFiles('#upload', huge);
  const sizeError = await page.locator('#upload-error').textContent();
  assert.match(sizeError, /the file is 150 MB; the browser app reads files up to 100 MB.*annosat curves --votes FILE/);
  assert.equal(await page.locator('#status').getAttribute('data-state'), 'idle');
  // Votes per item are cut, not refused: the item with 5,000 votes is read with a note.
  await page.setInputFiles('#upload', { name: 'many.csv', mimeType: 'text/csv', buffer: Buffer.from('item_id,a,b\nx,4000,1000\ny,1,2\n') });
  await page.locator('.load-note', { hasText: 'subsampled to' }).waitFor();
  assert.match(await page.locator('.load-note').first().textContent(), /1 item\(s\) with more than \d+ votes \(up to 5000\) were subsampled to \d+/);
  assert.equal(await page.locator('#upload-error').count(), 0);
  await page.selectOption('#dataset', 'chaosnli_snli');
  await idle(page);
  // Items: the reading stops at the first item past 3,000,000 (short rows, to stay under 100 MB).
  await page.setInputFiles('#upload', shortRows('items.csv', 3_000_001));
  await page.locator('#upload-error', { hasText: 'items' }).waitFor({ timeout: 120_000 });
  assert.match(await page.locator('#upload-error').textContent(), /line 3000002: the file has more than 3,000,000 items, the most the browser app takes; the annosat CLI reads any number/);
  await idle(page);
  assert.equal(await stats(page), before, 'the dataset shown before is still shown');
  await page.screenshot({ path: path.join(shots, 'limits.png') });
});

test('a big upload shows the time left and Stop leaves a working page', async () => {
  const page = await openApp(ctx, server.url, '?n=5');
  await page.setInputFiles('#upload', wideFile('big.csv', 1_500_000));
  // 1.5 M items read in seconds; their curves take tens of seconds on this machine: stop those.
  await page.locator('#status[data-state="busy"]', { hasText: /computing the curves… \d+% · about \d+ (s|min) left/ }).waitFor({ timeout: 120_000 });
  assert.match(await page.locator('#stats').textContent(), /1500000/);
  await page.screenshot({ path: path.join(shots, 'big-upload-progress.png') });
  await page.click('#stop');
  assert.equal(await page.locator('#status').getAttribute('data-state'), 'stopped');
  assert.match(await page.locator('#status').textContent(), /Stopped before the curves were computed\. Compute again/);
  // The fresh workers work: another dataset loads and equals the CLI.
  await page.selectOption('#dataset', 'snow2008_wsd');
  await idle(page);
  await page.fill('#n-number', '5');
  await page.press('#n-number', 'Enter');
  const cli = cliCurves(votesPath('snow2008_wsd'), ['--n', '5']);
  assert.equal((await readout(page, 'kl')).raw, cli['5/kl'].mean);
});

/** The newest pool worker. */
function lastWorker(page) {
  const workers = page.workers();
  assert.ok(workers.length > 0, 'the pool has workers');
  return workers[workers.length - 1];
}

// A worker busy in a wasm call cannot run anything else, so a test cannot make it trap mid-call;
// it can make it trap at the start of its next request (its message handler throws, as a wasm trap
// does) or while idle (a timer throws). The reports for traps mid-computation are the same code,
// tested natively (src/requests/tests.rs).
const TRAP = 'new WebAssembly.RuntimeError("unreachable")';

test('a worker that dies while reading an upload, or while idle, is reported and the page recovers', async () => {
  const page = await openApp(ctx, server.url, '?n=4');
  const before = await stats(page);
  await lastWorker(page).evaluate(`self.onmessage = () => { throw ${TRAP}; }`);
  await page.setInputFiles('#upload', { name: 'fine.csv', mimeType: 'text/csv', buffer: Buffer.from('item_id,a,b\nx,1,2\ny,2,1\n') });
  await page.locator('#upload-error').waitFor({ timeout: 30_000 });
  assert.match(await page.locator('#upload-error').textContent(),
    /The worker stopped while reading your file \(.*RuntimeError: unreachable\)\. The file is probably too large for the browser: try a smaller file, or the annosat CLI/);
  await idle(page);
  assert.equal(await stats(page), before, 'the previous dataset is shown');
  await page.screenshot({ path: path.join(shots, 'worker-died.png') });
  // Recovered: the fresh workers hold the previous dataset and compute on it.
  await page.fill('#seed', '3');
  await page.press('#seed', 'Enter');
  await idle(page);
  const cli = cliCurves(votesPath('chaosnli_snli'), ['--n', '4', '--seed', '3']);
  assert.equal((await readout(page, 'jsd')).raw, cli['4/jsd'].mean);
  // Dying while idle is said too, and the next computation works.
  await lastWorker(page).evaluate(`setTimeout(() => { throw ${TRAP}; })`);
  await page.locator('#status[data-state="error"]', { hasText: 'The worker stopped (' }).waitFor();
  await page.fill('#seed', '42');
  await page.press('#seed', 'Enter');
  await idle(page);
  assert.equal((await readout(page, 'jsd')).raw, cliCurves(votesPath('chaosnli_snli'), ['--n', '4'])['4/jsd'].mean);
});

test('a worker whose wasm cannot load is reported, and not restarted forever', async () => {
  const page = await ctx.newPage();
  let requests = 0;
  await page.route('**/annosat-worker_bg.wasm', (route) => { requests++; return route.fulfill({ status: 404, body: 'gone' }); });
  await page.goto(server.url);
  const status = page.locator('#status[data-state="error"]', { hasText: 'not started again' });
  await status.waitFor({ timeout: 30_000 });
  assert.match(await status.textContent(), /The worker stopped \d times in a row \(.*404.*\), so it is not started again\. Reload the page/);
  const seen = requests;
  await page.waitForTimeout(2000);
  assert.equal(requests, seen, 'no more restarts after giving up');
  await page.close();
});
