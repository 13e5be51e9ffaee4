// Privacy and safety in real headless Chromium: the Content-Security-Policy is in force (and the
// app runs under it without a single violation), uploaded ids, class names and file names that carry
// HTML or script are shown as text and never run, and bidi-override characters cannot reorder
// the page around them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, browser, openApp, idle, shots } from './harness.mjs';
import path from 'node:path';

let server, ctx;
before(async () => { server = await serve(); ctx = await browser(); });
after(async () => { await ctx?.close(); await server?.close(); });

/** Opens the app with CSP violations (page and workers report them to the page) recorded. */
async function openWatched(query = '') {
  const page = await ctx.newPage();
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  await page.goto(server.url + query);
  await idle(page);
  return page;
}

test('the page declares a strict Content-Security-Policy and runs under it without violations', async () => {
  const page = await openWatched();
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  const directive = (name) => policy.split(';').map((d) => d.trim()).find((d) => d.startsWith(name + ' '));
  assert.equal(directive('connect-src'), "connect-src 'self'");
  assert.equal(directive('default-src'), "default-src 'self'");
  assert.match(directive('script-src'), /^script-src 'self' 'wasm-unsafe-eval'( 'sha256-[A-Za-z0-9+/=]+')+$/);
  assert.doesNotMatch(policy, /'unsafe-eval'|script-src[^;]*'unsafe-inline'/);
  // Use the app: another dataset, the held-out toggle, the other rooms (they fetch exports).
  await page.selectOption('#dataset', 'snow2008_wsd');
  await idle(page);
  await page.check('#heldout');
  await idle(page);
  await page.click('#tab-models');
  await page.locator('#models-room canvas, #no-models').first().waitFor({ timeout: 60_000 });
  await page.click('#tab-repro');
  await page.locator('#repro-table tbody tr').first().waitFor({ timeout: 60_000 });
  // A fetch to another origin is refused by the policy.
  const blocked = await page.evaluate(() => fetch('http://127.0.0.2:9/x').then(() => 'fetched', (e) => String(e)));
  assert.notEqual(blocked, 'fetched');
  const violations = await page.evaluate(() => window.__csp);
  assert.deepEqual(violations.filter((v) => !v.includes('127.0.0.2')), [], 'the app itself violates nothing');
  assert.ok(violations.some((v) => v.startsWith('connect-src')), 'the cross-origin fetch was a connect-src violation');
  assert.deepEqual(page.errors, []);
});

const PAYLOADS = [
  '<img src=x onerror="window.__pwned=1">',
  '<script>window.__pwned=2</script>',
  '"><svg onload="window.__pwned=3">',
  "javascript:window.__pwned=4",
  '<b>bold</b>',
];

test('HTML and script in ids, class names and the file name are shown as text and never run', async () => {
  const page = await openWatched('?n=2');
  // Class names with markup; every item id a payload; quoted cells so commas and quotes survive.
  const q = (s) => `"${s.replaceAll('"', '""')}"`;
  const header = ['item_id', q('<i>pos</i>'), q('<script>window.__pwned=5</script>')].join(',');
  const rows = PAYLOADS.flatMap((p, i) => [0, 1, 2].map((j) => `${q(p + ' #' + (i * 3 + j))},${j + 1},${3 - j}`));
  const name = '<img src=x onerror="window.__pwned=6">.csv';
  await page.setInputFiles('#upload', { name, mimeType: 'text/csv', buffer: Buffer.from([header, ...rows].join('\n') + '\n') });
  await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
  await idle(page);
  await page.locator('#movers tbody tr').first().waitFor();
  // Shown literally…
  assert.match(await page.locator('#classes').textContent(), /<i>pos<\/i>, <script>window.__pwned=5<\/script>/);
  assert.match(await page.locator('#dataset option[value="uploaded"]').textContent(), /<img src=x onerror="window.__pwned=6">\.csv/);
  const ids = await page.locator('#movers tbody td.id').evaluateAll((tds) => tds.map((td) => td.title));
  assert.ok(ids.some((id) => PAYLOADS.some((p) => id.startsWith(p))), ids.join(' | '));
  // …and never as markup: no element the payloads describe exists, nothing ran.
  assert.equal(await page.locator('main img, aside img, main svg, aside svg, main i, aside i, #movers b, #movers script, #classes script').count(), 0);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  // A bad upload whose message quotes a payload: also text.
  await page.setInputFiles('#upload', { name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(`item_id,a,b\nx,1,${q('<img src=y onerror="window.__pwned=7">')}\n`) });
  await page.locator('#upload-error').waitFor();
  assert.match(await page.locator('#upload-error').textContent(), /count '<img src=y onerror="window.__pwned=7">' is not a whole number/);
  assert.equal(await page.locator('#upload-error img, #upload-error-banner img').count(), 0);
  // The refused file does not rename the data on screen.
  assert.match(await page.locator('#dataset option[value="uploaded"]').textContent(), /__pwned=6/);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.deepEqual(await page.evaluate(() => window.__csp), []);
  await page.screenshot({ path: path.join(shots, 'safety-payloads.png'), fullPage: true });
});

test('bidi-override characters in user strings stay inside their own isolate', async () => {
  const page = await openWatched('?n=2');
  const RLO = '\u202e';
  const rows = Array.from({ length: 12 }, (_, i) => `${RLO}item-${i},${i % 3 + 1},${3 - (i % 3)}`);
  await page.setInputFiles('#upload', { name: `votes${RLO}vsc.csv`, mimeType: 'text/csv', buffer: Buffer.from(`item_id,${RLO}yes,no\n${rows.join('\n')}\n`) });
  await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
  await idle(page);
  await page.locator('#movers tbody tr').first().waitFor();
  // Every id and class name sits in a <bdi>; the file name in the picker is wrapped in FSI … PDI.
  assert.equal(await page.locator('#movers tbody td.id bdi').count(), await page.locator('#movers tbody tr').count());
  assert.equal(await page.locator('#classes bdi').count(), 2);
  const label = await page.locator('#dataset option[value="uploaded"]').textContent();
  assert.ok(label.includes(`\u2068votes${RLO}vsc.csv\u2069`), JSON.stringify(label));
  // The text after an isolated RLO is laid out left to right: the "no" class comes after "yes".
  const [a, b] = await page.locator('#classes bdi').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().left));
  assert.ok(a < b, `class boxes at ${a} and ${b}`);
  await page.screenshot({ path: path.join(shots, 'safety-bidi.png') });
});
