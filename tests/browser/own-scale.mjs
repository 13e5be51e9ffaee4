// A check at scale (not a test; about 70 s here): all 1,514 ChaosNLI-SNLI items uploaded with their
// premise and hypothesis columns, embedded and trained in the tab. Prints the progress line every
// 5 s and the summary sentence (items, texts, embedding and training times).
//   ANNOSAT_DATA=../shared/data node tests/browser/own-scale.mjs   (after trunk build --release)
import fs from 'node:fs';
import path from 'node:path';
import { serve, browser, openApp, idle, shots, votesPath } from './harness.mjs';
const D = path.dirname(votesPath('chaosnli_snli'));
const [header, ...rows] = fs.readFileSync(path.join(D, 'votes.csv'), 'utf8').trim().split('\n');
const items = new Map(fs.readFileSync(path.join(D, 'items.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).map((o) => [o.item_id, o]));
const q = (s) => `"${s.replaceAll('"', '""')}"`;
const csv = ['item_id,premise,hypothesis,' + header.split(',').slice(1).join(','), ...rows.map((r) => { const [id, ...c] = r.split(','); const o = items.get(id); return [q(id), q(o.premise), q(o.hypothesis), ...c].join(','); })].join('\n');
const s = await serve(); const ctx = await browser();
const page = await openApp(ctx, s.url);
await page.setInputFiles('#upload', { name: 'snli_full.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
await idle(page);
await page.click('#tab-models');
const t0 = Date.now();
await page.click('#own-train');
let shot = false;
while (!(await page.locator('#own-summary').count())) {
  await new Promise((r) => setTimeout(r, 5000));
  const st = await page.evaluate(() => document.querySelector('#own-status')?.textContent ?? ('no status; own text: ' + document.querySelector('#own')?.textContent.slice(-200)));
  console.log(((Date.now() - t0) / 1000).toFixed(0), 's', st);
  if (!shot && /training/.test(st)) { await page.screenshot({ path: path.join(shots, 'own-full-progress.png') }); shot = true; }
  if (await page.locator('#own-error').count()) { console.log(await page.locator('#own-error').textContent()); break; }
}
console.log(await page.locator('#own-summary').textContent());
await page.screenshot({ path: path.join(shots, 'own-full.png'), fullPage: true });
console.log(page.errors);
await ctx.close(); await s.close();
