// Development only: `node --import tsx bench/first-paint.run.ts` measures first paint alone.
import { DEMO, launchChromium, signInThroughForm, startAppServer } from '../tests/e2e/harness';
import { measureFirstPaint, visit } from './first-paint';

// BENCH_URL: a server already running with the demo nights (development loop).
const server = process.env.BENCH_URL ? { url: process.env.BENCH_URL, close: async () => undefined } : await startAppServer({ SEED_NIGHTS: '1' }, 300_000);
const browser = await launchChromium();
try {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto('/');
  await signInThroughForm(page, server.url, DEMO.physician);
  console.log(JSON.stringify(await measureFirstPaint(context, page), null, 2));
  if (process.env.BENCH_TRACE) {
    if (process.env.BENCH_TRACE === 'cold') await visit(context, page, page.url(), true);
    const trace = await page.evaluate(() => [
      ...performance.getEntriesByType('resource').map((r) => `${r.startTime.toFixed(0).padStart(6)} ${(r as PerformanceResourceTiming).responseEnd.toFixed(0).padStart(6)} ${r.name.replace(location.origin, '')}`),
      ...performance.getEntriesByType('mark').map((m) => `${m.startTime.toFixed(0).padStart(6)}        ${m.name}`),
    ].sort((a, b) => Number.parseFloat(a) - Number.parseFloat(b)));
    console.log(trace.join('\n'));
  }
} finally {
  await browser.close();
  await server.close();
}
