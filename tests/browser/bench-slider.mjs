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
const steps = [];
for (let i = 0; i < 40; i++) {
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
const longest = await page.evaluate(() => Math.max(0, ...window.__long));
steps.sort((a, b) => a - b);
const q = (p) => steps[Math.min(steps.length - 1, Math.floor(p * steps.length))].toFixed(1);
console.log(`slider, ${steps.length} steps on ${name}: main-thread work per step median ${q(0.5)} ms, 90th percentile ${q(0.9)} ms, worst ${q(1)} ms; longest main-thread task reported ${longest ? longest.toFixed(0) + ' ms' : 'none over 50 ms'} (goal: a step ≤ 16 ms)`);
await ctx.close();
await s.close();
