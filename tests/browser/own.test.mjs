// Models on the user's own data, in real headless Chromium: an upload whose items carry texts is
// embedded with MiniLM in the tab (tokenizers + candle, the F16 encoder loaded as F32) and heads are
// trained over the N grid; the embeddings equal `annosat embed` on the same F16 checkpoint within
// 1e-4 per component; no request leaves the page's origin; a reload takes the encoder from the
// Cache API; bad text inputs get clear messages and the app keeps its data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { openApp, idle, shots, root, votesPath, setUp, recordStages } from './harness.mjs';

const requests = [];
// Context-wide: also sees what the workers fetch.
const env = setUp({ record: requests });

const ITEMS = 60;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'annosat-own-'));

/** The first ITEMS ChaosNLI-SNLI items: votes, and their premise/hypothesis. */
function snliSample() {
  const [header, ...rows] = fs.readFileSync(votesPath('chaosnli_snli'), 'utf8').trim().split('\n');
  const votes = rows.slice(0, ITEMS).map((r) => r.split(','));
  const items = new Map(fs.readFileSync(path.join(path.dirname(votesPath('chaosnli_snli')), 'items.jsonl'), 'utf8')
    .trim().split('\n').map((l) => JSON.parse(l)).map((o) => [o.item_id, o]));
  return { classes: header.split(',').slice(1), votes, items };
}

const q = (s) => `"${s.replaceAll('"', '""')}"`;
const file = (name, text) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

/** Reads a safetensors file's F32 tensors: { name: Float32Array }, and its metadata. */
function safetensors(buf) {
  const n = Number(buf.readBigUInt64LE(0));
  const header = JSON.parse(buf.subarray(8, 8 + n).toString('utf8'));
  const out = {};
  for (const [k, v] of Object.entries(header)) {
    if (k === '__metadata__') continue;
    const [a, b] = v.data_offsets;
    const bytes = buf.subarray(8 + n + a, 8 + n + b);
    out[k] = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  }
  return { tensors: out, meta: header.__metadata__ };
}

async function toOwn(page, votesFile) {
  await page.setInputFiles('#upload', votesFile);
  await page.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
  await idle(page);
  await page.click('#tab-models');
  await page.locator('#own-train').waitFor();
}

test('an upload with texts: embedded and trained in the tab, embeddings equal the CLI, nothing leaves the tab, the encoder cached', async () => {
  const { classes, votes, items } = snliSample();
  const wide = [['item_id', 'premise', 'hypothesis', ...classes].join(','),
    ...votes.map(([id, ...c]) => [q(id), q(items.get(id).premise), q(items.get(id).hypothesis), ...c].join(','))].join('\n');
  // The CLI's view of the same items: votes.csv + items.jsonl.
  const data = path.join(tmp, 'snli60');
  fs.mkdirSync(data, { recursive: true });
  fs.writeFileSync(path.join(data, 'votes.csv'), [['item_id', ...classes].join(','), ...votes.map((r) => r.join(','))].join('\n') + '\n');
  fs.writeFileSync(path.join(data, 'items.jsonl'), votes.map(([id]) => JSON.stringify(items.get(id))).join('\n') + '\n');

  const page = await openApp(env.ctx, env.server.url);
  await toOwn(page, file('snli60.csv', wide));
  // One bar across the stages, with the stage's detail and time left. Every text the status takes
  // is recorded (a short stage can pass between two polls of a waiting locator).
  await recordStages(page, '#own-status');
  await page.click('#own-train');
  await page.locator('#own-status', { hasText: /folds? [\d, and]+ of 10: training heads( in \d+ workers)?: epochs? [\d, and]+ of at most 60/ }).waitFor({ timeout: 300_000 });
  const early = await page.evaluate(() => window.__stages);
  assert.ok(early.some((t) => /embedding( in \d+ workers)?: \d+ of \d+ texts|downloading the encoder/.test(t)), early.join(' | '));
  assert.ok(Number(await page.locator('#own-progress').getAttribute('value')) > 0.5, 'the bar has passed download and embedding');
  await page.screenshot({ path: path.join(shots, 'own-progress.png') });
  await page.locator('#own-summary').waitFor({ timeout: 600_000 });
  assert.equal(await page.locator('#own-summary').getAttribute('data-cached'), 'false');
  assert.equal(await page.locator('#own-summary').getAttribute('data-items'), String(ITEMS));
  assert.equal(await page.locator('[data-model-metric] canvas').count(), 10, 'the model-side panels are drawn');
  // 10-fold: every item tested once; verdicts for every arm; the paired comparison has its units
  // (the folds).
  assert.match(await page.locator('#own-summary').textContent(), /10-fold cross-validation/);
  assert.ok(await page.locator('#verdict-table tbody tr').count() > 0, 'verdicts shown');
  assert.equal(await page.locator('#compare-table', { hasText: 'no paired runs' }).count(), 0);
  const [w, l, t] = (await page.locator('#compare-table tr[data-metric=kl] td').nth(3).textContent()).split('–').map(Number);
  assert.equal(w + l + t, 10, 'one paired unit per fold');
  for (const cap of await page.locator('.cap').all()) {
    if ((await cap.getAttribute('data-verdict')) !== 'saturates') assert.doesNotMatch(await cap.textContent(), /N=/);
  }
  await page.screenshot({ path: path.join(shots, 'own-trained.png'), fullPage: true });

  // Embeddings: the tab's download against `annosat embed` on the same (F16) encoder files.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#own-download')]);
  const mine = safetensors(fs.readFileSync(await dl.path()));
  const out = execFileSync(process.env.ANNOSAT_CLI, ['embed', '--data', data, '--model-dir', path.join(root, 'public/encoder'),
    '--cache', path.join(tmp, 'cache')], { encoding: 'utf8' }).trim().split('\n').pop();
  const cli = safetensors(fs.readFileSync(out));
  assert.deepEqual(JSON.parse(mine.meta.item_ids), JSON.parse(cli.meta.item_ids));
  let worst = 0;
  for (const k of ['premise', 'hypothesis']) {
    assert.equal(mine.tensors[k].length, ITEMS * 384);
    for (let i = 0; i < mine.tensors[k].length; i++) worst = Math.max(worst, Math.abs(mine.tensors[k][i] - cli.tensors[k][i]));
  }
  console.log(`# embeddings, browser vs annosat embed (${ITEMS} items × 2 texts × 384): largest |difference| ${worst.toExponential(2)}`);
  fs.writeFileSync(path.join(shots, 'embed-agreement.json'), JSON.stringify({ items: ITEMS, max_abs_diff: worst }));
  assert.ok(worst <= 1e-4, `embeddings differ by ${worst}`);

  const foreign = requests.filter((u) => !u.startsWith(env.server.url) && !u.startsWith('blob:') && !u.startsWith('data:'));
  assert.deepEqual(foreign, [], 'every request is to the page\'s own origin');
  assert.deepEqual(page.errors, []);

  // A reload: the encoder comes from the Cache API, not the network.
  const before = requests.filter((u) => u.endsWith('encoder/model.safetensors')).length;
  await page.reload();
  await idle(page);
  await toOwn(page, file('snli60.csv', wide));
  await page.click('#own-train');
  await page.locator('#own-summary').waitFor({ timeout: 600_000 });
  assert.equal(await page.locator('#own-summary').getAttribute('data-cached'), 'true');
  assert.equal(requests.filter((u) => u.endsWith('encoder/model.safetensors')).length, before, 'no second download');

  // The same items with their original 5 votes: a 90% point past the first fifth of 5 votes is
  // forced by the votes, so the page says so in words and prints no point.
  const old5 = new Map(fs.readFileSync(path.join(path.dirname(votesPath('chaosnli_snli')), 'votes_old5.csv'), 'utf8')
    .trim().split('\n').slice(1).map((r) => r.split(',')).map(([id, ...c]) => [id, c]));
  const few = [['item_id', 'premise', 'hypothesis', ...classes].join(','),
    ...votes.map(([id]) => [q(id), q(items.get(id).premise), q(items.get(id).hypothesis), ...old5.get(id)].join(','))].join('\n');
  await page.reload();
  await idle(page);
  await toOwn(page, file('snli60-5votes.csv', few));
  await page.click('#own-train');
  await page.locator('#own-summary').waitFor({ timeout: 600_000 });
  const caps = await page.locator('.cap').all();
  let bounded = 0;
  for (const cap of caps) {
    const text = await cap.textContent();
    assert.doesNotMatch(text, /N=\d+ \[/, `a point printed with 5 votes: ${text}`);
    if ((await cap.getAttribute('data-verdict')) === 'saturates') {
      assert.equal(await cap.getAttribute('data-bounded'), '5', text);
      assert.match(text, /bounded by your 5 votes/);
      bounded++;
    }
  }
  for (const cell of await page.locator('#verdict-table td[data-verdict=saturates]').all()) {
    assert.match(await cell.textContent(), /bounded by your 5 votes/);
  }
  console.log(`# 5 votes per item: ${bounded} of ${caps.length} captions improve with N, each bounded by the votes`);
  assert.ok(bounded > 0, "on these 60 items some arm improves with N (the check above would be empty otherwise)");
  await page.screenshot({ path: path.join(shots, 'own-5votes.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
});

test('a pool of two model workers embeds and trains exactly as one, and Stop ends the pool', async () => {
  const { classes, votes, items } = snliSample();
  const wide = [['item_id', 'premise', 'hypothesis', ...classes].join(','),
    ...votes.map(([id, ...c]) => [q(id), q(items.get(id).premise), q(items.get(id).hypothesis), ...c].join(','))].join('\n');
  const runs = {};
  for (const k of [1, 2]) {
    const page = await openApp(env.ctx, env.server.url, `?model_workers=${k}`);
    await toOwn(page, file('snli60.csv', wide));
    await page.click('#own-train');
    const sum = page.locator('#own-summary');
    await sum.waitFor({ timeout: 600_000 });
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#own-download')]);
    runs[k] = {
      workers: await sum.getAttribute('data-workers'),
      manifest: await sum.getAttribute('data-manifest'),
      memory: Number(await sum.getAttribute('data-worker-memory')),
      embeddings: fs.readFileSync(await dl.path()),
      text: await sum.textContent(),
    };
    assert.deepEqual(page.errors, []);
    await page.close();
  }
  assert.equal(runs[1].workers, '1');
  assert.equal(runs[2].workers, '2');
  assert.match(runs[2].text, /in 2 model workers/);
  // Every text in the same batch as with one worker: the same bits; every fold's heads trained
  // alone: the same runs, metrics and predictions.
  // (Compared tensor by tensor: the file's metadata map is written in hash order.)
  const [one, two] = [safetensors(runs[1].embeddings), safetensors(runs[2].embeddings)];
  assert.deepEqual(two.meta, one.meta);
  assert.deepEqual(Object.keys(two.tensors).sort(), Object.keys(one.tensors).sort());
  for (const k of Object.keys(one.tensors)) {
    assert.ok(Buffer.from(one.tensors[k].buffer).equals(Buffer.from(two.tensors[k].buffer)), `${k}: embeddings differ between 1 and 2 workers`);
  }
  assert.equal(runs[2].manifest, runs[1].manifest, 'the runs differ between 1 and 2 workers');
  console.log(`# 1 vs 2 model workers: embeddings (${runs[1].embeddings.length} bytes) and runs (manifest ${runs[1].manifest}) identical; a worker held ${(runs[2].memory / 2 ** 20).toFixed(0)} MiB`);
  fs.writeFileSync(path.join(shots, 'pool-identity.json'), JSON.stringify({ manifest: runs[1].manifest, worker_memory: runs[2].memory }));

  // Stop while the pool trains: the job is cancelled, the page's workers that remain are the curve
  // workers, and a new job runs.
  const page = await openApp(env.ctx, env.server.url, '?model_workers=2');
  const curveWorkers = page.workers().length;
  await toOwn(page, file('snli60.csv', wide));
  await page.click('#own-train');
  await page.locator('#own-status', { hasText: /training heads in 2 workers/ }).waitFor({ timeout: 300_000 });
  const during = page.workers().length;
  await page.click('#own-cancel');
  await page.locator('#own-status', { hasText: /^cancelled$/ }).waitFor({ timeout: 30_000 });
  // The coordinator and its two pool workers close (Playwright hears each worker's end).
  for (let i = 0; i < 100 && page.workers().length > curveWorkers; i++) await new Promise((r) => setTimeout(r, 100));
  console.log(`# workers: ${curveWorkers} before the job, ${during} while training, ${page.workers().length} after Stop`);
  assert.equal(during, curveWorkers + 3, 'the coordinator and 2 pool workers');
  assert.equal(page.workers().length, curveWorkers, 'Stop ends the coordinator and its pool');
  await page.click('#own-train');
  await page.locator('#own-summary').waitFor({ timeout: 600_000 });
  assert.equal(await page.locator('#own-summary').getAttribute('data-manifest'), runs[1].manifest);
  assert.deepEqual(page.errors, []);
});

test('texts that cannot be used get clear messages, and the upload stays', async () => {
  const page = await openApp(env.ctx, env.server.url);
  const plain = 'item_id,yes,no\na,3,1\nb,0,4\nc,2,2\n';
  await toOwn(page, file('plain.csv', plain));
  await page.click('#own-train');
  await page.locator('#own-error', { hasText: 'no text column' }).waitFor({ timeout: 60_000 });
  // A texts file whose ids match no vote row.
  await page.setInputFiles('#own-texts', file('texts.csv', 'item_id,text\nx,hello\ny,bye\n'));
  await page.click('#own-train');
  await page.locator('#own-error', { hasText: /none of the 2 ids in texts.csv matches/ }).waitFor({ timeout: 60_000 });
  // Empty texts.
  await page.setInputFiles('#own-texts', { name: 'items.jsonl', mimeType: 'application/json',
    buffer: Buffer.from('{"item_id": "a", "text": ""}\n{"item_id": "b", "text": "  "}\n') });
  await page.click('#own-train');
  await page.locator('#own-error', { hasText: /empty/ }).waitFor({ timeout: 60_000 });
  // Too few items for a train/validation/test split.
  await page.setInputFiles('#own-texts', file('few.csv', 'item_id,text\na,one\nb,two\nc,three\n'));
  await page.click('#own-train');
  await page.locator('#own-error', { hasText: /3 items with text: the model side needs at least 30/ }).waitFor({ timeout: 60_000 });
  await page.screenshot({ path: path.join(shots, 'own-error.png') });
  // The app keeps the upload.
  await page.click('#tab-target');
  assert.match(await page.locator('#stats').textContent(), /yes, no/);
  assert.deepEqual(page.errors, []);
});
