// scripts/serve.sh itself, as the README tells a user to run it: the page loads once and stays.
// Starts serve.sh on a free port, loads the page, keeps it open for 90 s and asserts one page load,
// no new build, and an idle CPU (trunk's process tree and the browser's), then stops everything.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { spawn, execFileSync } from 'node:child_process';
import { root, browser, idle, shots } from './harness.mjs';

const KEEP_OPEN_MS = Number(process.env.ANNOSAT_SERVE_KEEP_MS || 90_000);
const TICK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
let serveProc, ctx;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
}

/** CPU seconds (user + system) used so far by `pid` and all its descendants still alive. */
function treeCpu(pid) {
  const kids = new Map();
  const stat = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    let s;
    try { s = fs.readFileSync(`/proc/${d}/stat`, 'utf8'); } catch { continue; }
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(f[1]);
    stat.set(Number(d), (Number(f[11]) + Number(f[12])) / TICK);
    if (!kids.has(ppid)) kids.set(ppid, []);
    kids.get(ppid).push(Number(d));
  }
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop();
    total += stat.get(p) || 0;
    stack.push(...(kids.get(p) || []));
  }
  return total;
}

after(async () => {
  await ctx?.close();
  if (serveProc) { try { process.kill(-serveProc.pid, 'SIGTERM'); } catch { /* already gone */ } }
});

test('scripts/serve.sh: one page load, no rebuild and an idle CPU while the page stays open for 90 s', { timeout: 40 * 60_000 }, async () => {
  const port = await freePort();
  let log = '';
  serveProc = spawn('bash', [path.join(root, 'scripts/serve.sh'), '--port', String(port)], {
    cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
  });
  serveProc.stdout.on('data', (d) => { log += d; });
  serveProc.stderr.on('data', (d) => { log += d; });
  const builds = () => (log.match(/starting build/g) || []).length;
  const url = `http://127.0.0.1:${port}/`;
  const t0 = Date.now();
  // Until the first build has finished and the page is served.
  for (;;) {
    assert.equal(serveProc.exitCode, null, `serve.sh exited:\n${log.slice(-3000)}`);
    if (/success/i.test(log)) {
      try { if ((await fetch(url)).ok) break; } catch { /* not yet */ }
    }
    await sleep(1000);
  }
  const firstPage = (Date.now() - t0) / 1000;
  console.log(`serve.sh: first page after ${firstPage.toFixed(0)} s`);
  assert.equal(builds(), 1, 'one build before the first page');

  // The model worker is built after the first page, in the background; the page names where it is
  // served. Wait for it (the idle check below must not measure its build), then fetch it through
  // trunk's proxy as the page would.
  const index = await (await fetch(url)).text();
  assert.match(index, /<meta name="annosat-model-worker" content="model-worker\/"/);
  assert.doesNotMatch(index, /annosat-model-worker_bg/, 'the page does not wait for the model worker');
  for (;;) {
    assert.equal(serveProc.exitCode, null, `serve.sh exited:\n${log.slice(-3000)}`);
    assert.doesNotMatch(log, /model worker failed/, log.slice(-3000));
    if (/model worker ready/.test(log)) break;
    await sleep(2000);
  }
  console.log(`serve.sh: model worker ready after ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  for (const f of ['annosat-model-worker.js', 'annosat-model-worker_bg.wasm']) {
    const r = await fetch(url + 'model-worker/' + f, { method: 'HEAD' });
    assert.equal(r.status, 200, `model-worker/${f} is served`);
  }

  ctx = await browser();
  const page = await ctx.newPage();
  const errors = [];
  let loads = 0;
  page.on('load', () => { loads += 1; });
  page.on('pageerror', (e) => errors.push(String(e)));
  // A blocked script (the Content-Security-Policy against trunk's live reload) is a console error.
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(url + '?n=7');
  await idle(page);
  // CPU seconds so far: trunk's tree, and this test's tree (Chromium) without trunk's.
  const cpu = () => { const t = treeCpu(serveProc.pid); return { trunk: t, browser: treeCpu(process.pid) - t }; };
  const held = Date.now();
  const cpuStart = cpu();
  let sampledAt = Date.now(), cpuMid = null;
  while (Date.now() - held < KEEP_OPEN_MS) {
    await sleep(5000);
    // The CPU check covers the last 60 s (or the whole wait if it is shorter), after start-up settled.
    if (!cpuMid && KEEP_OPEN_MS - (Date.now() - held) <= 60_000) {
      cpuMid = cpu();
      sampledAt = Date.now();
    }
  }
  const from = cpuMid || cpuStart;
  const secs = (Date.now() - (cpuMid ? sampledAt : held)) / 1000;
  const now = cpu();
  const use = { trunk: (now.trunk - from.trunk) / secs, browser: (now.browser - from.browser) / secs };
  console.log(`after ${((Date.now() - held) / 1000).toFixed(0)} s open: ${loads} page load(s), ${builds()} build(s); `
    + `CPU over the last ${secs.toFixed(0)} s: trunk ${(use.trunk * 100).toFixed(2)}% of a core, `
    + `Chromium + test ${(use.browser * 100).toFixed(2)}%`);
  await page.screenshot({ path: path.join(shots, 'serve-after-90s.png') });
  assert.equal(await page.locator('#n-value').textContent(), '7', 'the view is the one the user left');
  assert.equal(loads, 1, 'the page loaded once (no reload)');
  assert.equal(builds(), 1, `no build after the first:\n${log.slice(-2000)}`);
  assert.ok(use.trunk < 0.02, `trunk used ${(use.trunk * 100).toFixed(1)}% of a core while idle`);
  assert.ok(use.browser < 0.10, `the open page used ${(use.browser * 100).toFixed(1)}% of a core while idle`);
  assert.deepEqual(errors, []);
});
