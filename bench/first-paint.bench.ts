// `node --import tsx bench/first-paint.bench.ts`: the first-paint part of bench:render alone
// (the demo's 10-hour night, cold and warm, bench/first-paint.ts), for a before/after on the
// same machine within minutes. BENCH_URL: a server already running with the demo nights.
// Prints the figures and the 1-minute load average; writes nothing (bench:render owns render.json).
import { loadavg } from 'node:os';
import { DEMO, launchChromium, signInThroughForm, startAppServer } from '../tests/e2e/harness';
import { measureFirstPaint } from './first-paint';

const server = process.env.BENCH_URL ? { url: process.env.BENCH_URL, close: async () => undefined } : await startAppServer({ SEED_NIGHTS: '1' }, 600_000);
const browser = await launchChromium();
try {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto('/');
  await signInThroughForm(page, server.url, DEMO.physician);
  const before = loadavg()[0];
  const fp = await measureFirstPaint(context, page);
  console.log(JSON.stringify({ cold: fp.cold, warm: fp.warm, load_average_1m: [before, loadavg()[0]].map((v) => Math.round(v * 100) / 100), date: new Date().toISOString() }, null, 2));
} finally {
  await browser.close();
  await server.close();
}
