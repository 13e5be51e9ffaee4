// wasi-run.mjs - runs a wasm32-wasip1 program (a benchmark helper: heads/examples/floor.rs,
// encoder/examples/floor_embed.rs) in headless Chromium, the engine the app's model workers run in,
// and prints its output. It needs only the 8 WASI calls such a program makes (arguments, clock,
// stdout/stderr, exit), so they are provided here in a few lines; the clock is the page's
// performance.now(), which Chromium coarsens to 0.1 ms (the programs time whole runs).
//   node tests/browser/wasi-run.mjs <program.wasm> [args…]
import fs from 'node:fs';
import process from 'node:process';
import { browser } from './harness.mjs';

/** Runs in the page: instantiates the program with a minimal WASI and returns its exit code and output. */
async function run({ b64, args }) {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const argv = args.map((a) => enc.encode(`${a}\0`));
  let memory;
  let out = '';
  const view = () => new DataView(memory.buffer); // memory.buffer changes when the memory grows
  class Exit { constructor(code) { this.code = code; } }
  const sizes = (list) => (count, size) => {
    view().setUint32(count, list.length, true);
    view().setUint32(size, list.reduce((n, a) => n + a.length, 0), true);
    return 0;
  };
  const wasi = {
    args_sizes_get: sizes(argv),
    args_get(ptrs, buf) {
      for (const a of argv) {
        view().setUint32(ptrs, buf, true);
        new Uint8Array(memory.buffer).set(a, buf);
        ptrs += 4;
        buf += a.length;
      }
      return 0;
    },
    environ_sizes_get: sizes([]),
    environ_get: () => 0,
    clock_time_get(id, _precision, at) {
      const ms = id === 0 ? Date.now() : performance.now(); // realtime, else monotonic
      view().setBigUint64(at, BigInt(Math.round(ms * 1e6)), true);
      return 0;
    },
    fd_write(_fd, iovs, n, written) {
      let total = 0;
      for (let i = 0; i < n; i++) {
        const ptr = view().getUint32(iovs + 8 * i, true);
        const len = view().getUint32(iovs + 8 * i + 4, true);
        out += dec.decode(new Uint8Array(memory.buffer, ptr, len));
        total += len;
      }
      view().setUint32(written, total, true);
      return 0;
    },
    proc_exit(code) { throw new Exit(code); },
    sched_yield: () => 0,
  };
  const { instance } = await WebAssembly.instantiate(bytes, { wasi_snapshot_preview1: wasi });
  memory = instance.exports.memory;
  try {
    instance.exports._start();
    return { code: 0, out };
  } catch (e) {
    if (e instanceof Exit) return { code: e.code, out };
    return { code: 1, out: `${out}\n${e}` };
  }
}

const [file, ...args] = process.argv.slice(2);
if (!file) {
  console.error('usage: node tests/browser/wasi-run.mjs <program.wasm> [args…]');
  process.exit(2);
}
const ctx = await browser();
try {
  const page = await ctx.newPage();
  const { code, out } = await page.evaluate(run, { b64: fs.readFileSync(file).toString('base64'), args: [file, ...args] });
  process.stdout.write(out);
  process.exitCode = code;
} finally {
  await ctx.close();
}
