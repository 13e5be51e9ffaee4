// Benchmark (not a test): what one step of the N slider costs on the page's main thread, in
// headless Chromium. Drags N across 40 steps with the keyboard (each step redraws what depends on N)
// and prints the main-thread work of each step (the redraws that depend on N) and the longest
// main-thread task the browser reported (the worker's per-item answers redraw the scatter too),
// against the 16 ms goal.
//   node tests/browser/bench-slider.mjs [dataset]      (scripts/bench.sh runs it)
import { serve, browser, openApp } from './harness.mjs';

const [name = 'chaosnli_snli'] = process.argv.slice(2);
const s = await serve();
const ctx = await browser();
const page = await openApp(ctx, s.url, `?dataset=${name}&n=10`);
// Let the per-item view settle, then record long tasks (the browser reports those of 50 ms or more).
await page.waitForTimeout(500);
await page.evaluate(() => {
  window.__long = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); })
    .observe({ entryTypes: ['longtask'] });
});
await page.focus('#n-slider');
/** Moves the slider one step right, `count` times; returns each step's main-thread work in ms. */
async function drag(count) {
  const steps = [];
  for (let i = 0; i < count; i++) {
    // Main-thread work of one step: from the input event until the page's reactions (Leptos runs
    // effects as microtasks; the redraws happen there) have all run, i.e. the next macrotask.
    const ms = await page.evaluate(() => new Promise((resolve) => {
      const t0 = performance.now();
      const el = document.querySelector('#n-slider');
      el.value = String(Number(el.value) + 1);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      setTimeout(() => resolve(performance.now() - t0), 0);
    }));
    // The per-item view is redrawn when the worker answers for the new N: let that happen too.
    await page.waitForTimeout(30);
    steps.push(ms);
  }
  return steps;
}

const steps = await drag(40);
const longest = await page.evaluate(() => Math.max(0, ...window.__long));
// Every main-thread task of a second drag, from Chromium's own trace (the longtask API sees only
// those of 50 ms or more; the per-item scatter, redrawn when the worker answers for the new N, is
// a task of its own). Tracing slows the page a little, so the step times above are untraced.
const cdp = await ctx.newCDPSession(page);
const events = [];
cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
const traced = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
await drag(40);
await cdp.send('Tracing.end');
await traced;
// The page's main thread: the renderer thread that ran the page's own script (its wasm).
const main = events.find((e) => e.name === 'TracingStartedInBrowser')?.args?.data?.frames?.[0];
const rendererMain = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' &&
  (!main || e.pid === main.processId));
const tasks = events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && rendererMain &&
  e.pid === rendererMain.pid && e.tid === rendererMain.tid).map((e) => e.dur / 1000);
const longestTask = Math.max(0, ...tasks);
steps.sort((a, b) => a - b);
const q = (p) => steps[Math.min(steps.length - 1, Math.floor(p * steps.length))].toFixed(1);
console.log(`slider, ${steps.length} steps on ${name}: main-thread work per step median ${q(0.5)} ms, 90th percentile ${q(0.9)} ms, worst ${q(1)} ms; longest main-thread task in a traced drag ${longestTask.toFixed(1)} ms (of ${tasks.length}) (long tasks reported: ${longest ? longest.toFixed(0) + ' ms' : 'none over 50 ms'}) (goal: a step ≤ 16 ms)`);
await ctx.close();
await s.close();
