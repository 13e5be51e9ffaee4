// Shared pieces of the browser tests: a static server for dist/, Debian Chromium, and the CLI.
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, after } from 'node:test';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const dist = process.env.ANNOSAT_DIST || path.join(root, 'dist');

const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.csv': 'text/csv' };

/** Serves dist/ on a free loopback port; resolves to { url, close }. */
export function serve() {
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = path.join(dist, rel);
    if (!file.startsWith(dist)) { res.writeHead(403).end(); return; }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (err, body) => {
      if (err) { res.writeHead(404).end('not found'); return; }
      res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' }).end(body);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((r) => server.close(r)),
  })));
}

/** Debian's Chromium with the flags that work on these machines, in a fresh profile. */
export async function browser() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'annosat-chromium-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  const close = ctx.close.bind(ctx);
  ctx.close = async () => { await close(); fs.rmSync(profile, { recursive: true, force: true }); };
  return ctx;
}

/** A server and a browser for a test file, started before its tests and closed after them; with
 * `record`, every URL the context requests (the workers' fetches too) is pushed onto it. */
export function setUp({ record } = {}) {
  const env = {};
  before(async () => {
    env.server = await serve();
    env.ctx = await browser();
    if (record) env.ctx.on('request', (r) => record.push(r.url()));
  });
  after(async () => { await env.ctx?.close(); await env.server?.close(); });
  return env;
}

/** Records, in `window.__stages`, every text the element `selector` shows (a short stage can pass
 * between two polls of a waiting locator). */
export async function recordStages(page, selector) {
  await page.evaluate((sel) => {
    window.__stages = [];
    new MutationObserver(() => {
      const t = document.querySelector(sel)?.textContent;
      if (t && window.__stages.at(-1) !== t) window.__stages.push(t);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, selector);
}

/** What `annosat ARGS…` prints on stdout (stderr dropped): the CLI the browser tests compare with. */
export function annosat(args) {
  const cli = process.env.ANNOSAT_CLI;
  if (!cli) throw new Error('set ANNOSAT_CLI to the annosat binary (scripts/test.sh does)');
  return execFileSync(cli, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

/** `annosat curves … --format csv` parsed into { `${n}/${metric}`: {mean, lo, hi} } (strings as printed). */
export function cliCurves(votes, args) {
  const out = annosat(['curves', '--votes', votes, '--format', 'csv', ...args]);
  const [header, ...rows] = out.trim().split('\n');
  if (header !== 'n,metric,mean,lo,hi') throw new Error(`unexpected header ${header}`);
  return Object.fromEntries(rows.map((r) => { const [n, m, mean, lo, hi] = r.split(','); return [`${n}/${m}`, { mean, lo, hi }]; }));
}

/** A dataset's votes.csv in the data directory the test script found (ANNOSAT_DATA). */
export function votesPath(name) {
  const dir = process.env.ANNOSAT_DATA;
  if (!dir) throw new Error('set ANNOSAT_DATA (scripts/test.sh does)');
  return path.join(dir, name, 'votes.csv');
}

/** Opens the app and waits until the worker has delivered curves. */
export async function openApp(ctx, url, query = '') {
  const page = await ctx.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') page.errors.push(m.text()); });
  await page.goto(url + query);
  await idle(page);
  return page;
}

/** Waits until no load or computation is running. */
export async function idle(page, timeout = 60_000) {
  // 'attached': the status line is hidden (but kept) while another room is shown.
  await page.locator('#status[data-state="idle"]').waitFor({ state: 'attached', timeout });
}

/** The readout of one metric: raw value (full precision) and what is displayed. */
export async function readout(page, metric) {
  const el = page.locator(`.readout[data-metric="${metric}"]`);
  return { raw: await el.getAttribute('data-value'), shown: (await el.locator('.value').textContent()).trim() };
}

export const METRICS = ['jsd', 'entropy_corr', 'kl', 'majority_agreement'];

/** Where screenshots go (look at them). */
export const shots = process.env.ANNOSAT_SCREENSHOTS || path.join(os.tmpdir(), 'annosat-screenshots');
fs.mkdirSync(shots, { recursive: true });
