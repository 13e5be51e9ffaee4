// Screenshots of every room at 1280 px for a human to look at (not a test), each with a check that
// nothing is cut off: no element wider than the page, no horizontal scrolling.
//   ANNOSAT_DATA=… node tests/browser/shots.mjs OUTDIR
import { serve, browser, openApp, idle, votesPath } from './harness.mjs';
import fs from 'node:fs';
import path from 'node:path';
const out = process.argv[2] || '/tmp/shots';
fs.mkdirSync(out, { recursive: true });
const srv = await serve();
const ctx = await browser();

/** Elements (by id or tag.class) whose right edge passes the viewport, and the page's scroll width. */
async function overflow(page) {
  return page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const wide = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > w + 1 && getComputedStyle(el).visibility !== 'hidden') {
        wide.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : ''} (right ${Math.round(r.right)})`);
      }
    }
    return { scroll: document.documentElement.scrollWidth, width: w, wide: wide.slice(0, 5) };
  });
}

async function shot(page, name, fullPage = true) {
  await page.waitForTimeout(600);
  const o = await overflow(page);
  await page.screenshot({ path: `${out}/${name}.png`, fullPage });
  const ok = o.scroll <= o.width && o.wide.length === 0;
  console.log(`${ok ? 'fits   ' : 'CUT OFF'} ${name}.png${ok ? '' : `: scroll ${o.scroll} > ${o.width}; ${o.wide.join(', ')}`}`);
  if (page.errors.length) console.log('  page errors:', page.errors);
}

try {
  const page = await openApp(ctx, srv.url, '?dataset=chaosnli_snli&n=10');
  await page.locator('#answer-card, .answer').first().waitFor({ timeout: 60_000 }).catch(() => {});
  await shot(page, 'first-screen', false);
  await shot(page, 'target');

  // An upload with 5 votes per item (ChaosNLI-SNLI's original votes): the headline while the
  // answer beyond the votes is computed, then the answer and a bounded panel's extrapolated curve.
  const five = await openApp(ctx, srv.url, '');
  await five.setInputFiles('#upload', path.join(path.dirname(votesPath('chaosnli_snli')), 'votes_old5.csv'));
  await five.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
  await five.locator('#headline-status[data-state="busy"]').waitFor({ timeout: 60_000 }).catch(() => {});
  await shot(five, 'five-votes-coming', false);
  await five.locator('#saturation li[data-extrapolated="true"]').first().waitFor({ timeout: 300_000 });
  await idle(five, 120_000);
  await shot(five, 'five-votes-answer', false);
  console.log(`  five votes: ${(await five.locator('#sentence').textContent()).trim()}`);
  await five.locator('canvas[data-metric="entropy_corr"]').scrollIntoViewIfNeeded();
  await shot(five, 'five-votes-chart', false);
  await page.click('#tab-models');
  await page.locator('figure[data-model-metric="kl"] canvas').waitFor({ timeout: 60_000 });
  await shot(page, 'models');
  await page.click('#tab-repro');
  await page.locator('#repro-table').waitFor({ timeout: 60_000 });
  await shot(page, 'repro');
  await page.click('#tab-plan');
  await page.click('#plan-run');
  await page.locator('#plan-sentence').waitFor({ timeout: 120_000 }).catch(() => {});
  await shot(page, 'plan');
  await page.goto(srv.url + '?dataset=chaosnli_snli&room=sources&source=original5');
  await page.locator('#sources-sentences li').first().waitFor({ timeout: 120_000 });
  await shot(page, 'sources');

  // An upload with 10 votes per item: the bounded answer, and the Models room's own-data card.
  const up = await openApp(ctx, srv.url, '');
  await up.setInputFiles('#upload', votesPath('snow2008_rte'));
  await up.locator('#dataset option[value="uploaded"]').waitFor({ state: 'attached' });
  await idle(up, 120_000);
  await shot(up, 'upload-target');
  await up.click('#tab-models');
  await up.locator('#own-train, #own-card, .own').first().waitFor({ timeout: 60_000 }).catch(() => {});
  const chooser = await up.locator('#export-pick').evaluate((s) => s.options[s.selectedIndex]?.textContent).catch(() => null);
  console.log(`  upload: the export chooser shows ${JSON.stringify(chooser)}`);
  await shot(up, 'upload-models');
  await up.click('#tab-plan');
  await up.click('#plan-run');
  await up.locator('#plan-sentence').waitFor({ timeout: 120_000 }).catch(() => {});
  await shot(up, 'upload-plan');
} finally {
  await ctx.close();
  await srv.close();
}
