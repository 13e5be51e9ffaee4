// The Sources room in real headless Chromium: a bundled source (ChaosNLI-SNLI's original 5 SNLI
// annotators) measured in ChaosNLI annotators, equal to `annosat worth` for the same seed; an
// uploaded judge panel (judge .jsonl files the test writes in the release format) with its panel
// curve and per-judge table, equal to the CLI on the same folder; malformed sources refused with
// clear messages while the page keeps its data; the URL keeps the choice.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, browser, openApp, idle, shots, annosat } from './harness.mjs';

let server, ctx;
before(async () => { server = await serve(); ctx = await browser(); });
after(async () => { await ctx?.close(); await server?.close(); });

function cliWorth(args) {
  return annosat(['worth', ...args]);
}

function data(...p) {
  const dir = process.env.ANNOSAT_DATA;
  if (!dir) throw new Error('set ANNOSAT_DATA (scripts/test.sh does)');
  return path.join(dir, ...p);
}

async function csvDownload(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#sources-csv')]);
  return fs.readFileSync(await download.path(), 'utf8');
}

async function measured(page) {
  await page.locator('#sources-status[data-state="idle"]').waitFor({ timeout: 180_000 });
}

test('a bundled source: the original SNLI annotators in ChaosNLI annotators, equal to the CLI', async () => {
  const page = await openApp(ctx, server.url);
  await idle(page);
  await page.click('#tab-sources');
  await page.locator('#source-original5').check();
  await measured(page);
  const cli = cliWorth(['--votes', data('chaosnli_snli', 'votes.csv'), '--source', data('chaosnli_snli', 'votes_old5.csv'),
    '--split-seed', '42', '--panel-subsets', '10']);
  assert.equal(await csvDownload(page), cli, 'the CSV export is what annosat worth prints');
  const sentences = await page.locator('#sources-sentences li').allTextContents();
  assert.equal(sentences.length, 5);
  // Each sentence carries the CLI's ν with one decimal (or its words when bounded).
  for (const row of cli.trim().split('\n').slice(1)) {
    const [metric, nu, , , bound] = row.split(',');
    const li = page.locator(`#sources-sentences li[data-metric="${metric}"]`);
    const text = await li.textContent();
    if (nu) assert.match(text, new RegExp(`^worth ${Number(nu).toFixed(1)} humans \\[`), text);
    else assert.match(text, bound === 'below' ? /^worth fewer than/ : /^worth more than/, text);
  }
  assert.match(await page.locator('#sources-items').textContent(), /1,?514 items in both/);
  assert.equal(await page.locator('#sources-charts canvas').count(), 5);
  // A wide count file has no annotator ids: no panel view, and the room says why.
  assert.match(await page.locator('#sources-no-panel').textContent(), /fewer than two annotators with ids/);
  assert.match(page.url(), /room=sources&source=original5/);
  await page.screenshot({ path: path.join(shots, 'sources-original5.png'), fullPage: true });

  // Heavier settings show progress and can be stopped; the result shown stays.
  await page.fill('#sources-splits', '20');
  await page.fill('#sources-bootstrap', '2000');
  await page.locator('#sources-bootstrap').dispatchEvent('change');
  await page.locator('#sources-splits').dispatchEvent('change');
  await page.click('#sources-run');
  await page.locator('#sources-status[data-state="busy"] #sources-status-stop').waitFor({ timeout: 30_000 });
  await page.click("#sources-status-stop");
  await page.locator('#sources-status[data-state="stopped"]').waitFor();
  assert.equal(await page.locator('#sources-sentences li').count(), 5, 'the earlier result stays');
  await page.fill('#sources-splits', '3');
  await page.fill('#sources-bootstrap', '200');
  await page.locator('#sources-bootstrap').dispatchEvent('change');
  await page.locator('#sources-splits').dispatchEvent('change');

  // Another dataset with the same source measures it there; one without offers none.
  await page.selectOption('#dataset', 'chaosnli_mnli');
  await idle(page);
  await measured(page);
  const mnli = cliWorth(['--votes', data('chaosnli_mnli', 'votes.csv'), '--source', data('chaosnli_mnli', 'votes_old5.csv')]);
  assert.equal(await csvDownload(page), mnli);
  await page.selectOption('#dataset', 'cifar10h');
  await idle(page);
  await page.locator('#sources-none').waitFor();
  assert.equal(await page.locator('#sources-result').count(), 0);
  await page.selectOption('#dataset', 'chaosnli_snli');
  await idle(page);
  await page.locator('#source-original5').check();
  await measured(page);

  // The URL brings the choice back and measures it again.
  assert.deepEqual(page.errors, []);
  const again = await openApp(ctx, page.url());
  await measured(again);
  assert.equal(await again.locator('#source-original5').isChecked(), true);
  assert.equal(await csvDownload(again), cli);
  await again.close();
  await page.close();
});

/** Three judges on the first 300 SNLI items in the release format: one copies the majority of the
 * original 5 votes, one answers in NLI letters with some parse failures, one is noisy. */
function writePanel(dir) {
  const lines = fs.readFileSync(data('chaosnli_snli', 'votes_old5.csv'), 'utf8').trim().split(/\r?\n/);
  const classes = lines[0].split(',').slice(1);
  const letter = { entailment: 'e', neutral: 'n', contradiction: 'c' };
  const out = { majority: [], letters: [], noisy: [] };
  lines.slice(1, 301).forEach((row, i) => {
    const [uid, ...c] = row.split(',');
    const counts = c.map(Number);
    const top = classes[counts.indexOf(Math.max(...counts))];
    out.majority.push({ uid, label: top, parse_fail: false });
    out.letters.push(i % 37 === 0 ? { uid, label: null, parse_fail: true } : { uid, label: letter[top], parse_fail: false });
    out.noisy.push({ uid, label: classes[(i * 7) % 3], parse_fail: false });
  });
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, rows] of Object.entries(out)) {
    fs.writeFileSync(path.join(dir, `${name}.jsonl`), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  }
  return Object.keys(out).map((n) => path.join(dir, `${n}.jsonl`));
}

test('an uploaded judge panel: per-judge table and panel curve, equal to the CLI on the folder', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'annosat-judges-'));
  const files = writePanel(path.join(dir, 'panel'));
  const page = await openApp(ctx, server.url);
  await idle(page);
  await page.click('#tab-sources');
  // The folder picker, with a file beside the judges that a folder's reading leaves out.
  fs.writeFileSync(path.join(dir, 'panel', 'README.txt'), 'three judges\n');
  assert.equal(files.length, 3);
  await page.setInputFiles('#source-folder', path.join(dir, 'panel'));
  await measured(page);
  const cli = cliWorth(['--votes', data('chaosnli_snli', 'votes.csv'), '--source', path.join(dir, 'panel'),
    '--split-seed', '42']);
  assert.equal(await csvDownload(page), cli);
  assert.match(await page.locator('#sources-notes').textContent(), /judge panel: 3 judges, \d+ labels, 9 parse failures left out/);
  assert.match(await page.locator('#sources-items').textContent(), /300 items in both \(1,?214 only in the human votes/);
  const judges = await page.locator('#sources-each tbody th').allTextContents();
  assert.deepEqual(judges, ['letters', 'majority', 'noisy']);
  assert.equal(await page.locator('#sources-panel-charts canvas').count(), 5);
  // The noisy judge is worth fewer humans than the majority copier for the JS distance.
  const jsd = async (row) => page.locator(`#sources-each tbody tr:nth-child(${row}) td[data-metric="jsd"]`).textContent();
  assert.match(await jsd(3), /^(fewer than|<)/);
  assert.doesNotMatch(page.url(), /source=/, 'an upload is not kept in the URL');
  // The page's seed is the first split seed: another seed, measured again, equals the CLI's.
  await page.fill('#seed', '7');
  await page.press('#seed', 'Enter');
  await idle(page);
  await page.click('#sources-run');
  await page.locator('#sources-status[data-state="idle"]:has-text("split seed 7")').waitFor({ timeout: 60_000 });
  const seven = cliWorth(['--votes', data('chaosnli_snli', 'votes.csv'), '--source', path.join(dir, 'panel'),
    '--split-seed', '7']);
  assert.equal(await csvDownload(page), seven);
  assert.notEqual(seven, cli, 'the seed matters');
  await page.screenshot({ path: path.join(shots, 'sources-panel.png'), fullPage: true });
  await page.close();
});

test('malformed sources get clear messages and the page keeps its data', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'annosat-bad-source-'));
  const write = (name, text) => { const p = path.join(dir, name); fs.writeFileSync(p, text); return p; };
  const snliIds = fs.readFileSync(data('chaosnli_snli', 'votes.csv'), 'utf8').split('\n').slice(1, 4).map((l) => l.split(',')[0]);
  const cases = [
    [write('classes.csv', `item_id,yes,no\n${snliIds[0]},1,2\n`), /classes \(yes, no\) are not the human file's \(entailment, neutral, contradiction\)/],
    [write('ids.csv', 'item_id,entailment,neutral,contradiction\nnope-1,1,2,0\nnope-2,0,1,1\n'), /no item id is in both files/],
    [write('twice.csv', `item_id,annotator_id,label\n${snliIds[0]},w1,entailment\n${snliIds[0]},w1,neutral\n`), /multilabel votes \(annotator w1 gave item .* both/],
  ];
  const page = await openApp(ctx, server.url);
  await idle(page);
  const before = await page.locator('#dataset').inputValue();
  await page.click('#tab-sources');
  for (const [file, message] of cases) {
    await page.setInputFiles('#source-files', file);
    const status = page.locator('#sources-status[data-state="error"]');
    await status.waitFor({ timeout: 60_000 });
    assert.match(await status.textContent(), message);
    assert.equal(await page.locator('#sources-result').count(), 0);
  }
  // A vote file mixed with judge files.
  const judge = write('j.jsonl', `{"uid":"${snliIds[0]}","label":"e"}\n`);
  await page.setInputFiles('#source-files', [judge, path.join(dir, 'ids.csv')]);
  await page.locator('#sources-status[data-state="error"]').waitFor();
  assert.match(await page.locator('#sources-status').textContent(), /not both/);
  // The page's own data are untouched: same dataset, the target side still answers.
  assert.equal(await page.locator('#dataset').inputValue(), before);
  await page.click('#tab-target');
  assert.equal(await page.locator('.readout[data-metric="kl"]').count(), 1);
  assert.match(await page.locator('#status').getAttribute('data-state'), /idle/);
  assert.deepEqual(page.errors, []);
  await page.close();
});
