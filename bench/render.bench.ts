// `npm run bench:render`: drives the app's /app/bench page in Chromium (16 channels,
// 10 hours, four at 250 Hz, generated in the page) through a scripted sequence — arrow-key
// paging in 30-s windows, zooming in and out, full-night pans — on our renderer and, in the
// same run with the same data, on uPlot (one chart per channel). Writes
// bench/results/render.json. The server only serves the app and the sign-in.
import { mkdirSync, writeFileSync } from 'node:fs';
import { DEMO, launchChromium, signInThroughForm, startAppServer } from '../tests/e2e/harness';

const QUERY = process.env.BENCH_QUERY ?? 'channels=16&hz=250&hours=10&fast=4';
const GOALS = { paging_p95: 16.7, frame_p99: 16.7, uplot_ratio: 10 };

const server = await startAppServer({ SEED_NIGHTS: '0' });
const browser = await launchChromium();
try {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto('/');
  await signInThroughForm(page, server.url, DEMO.physician);
  await page.getByTestId('dashboard').waitFor();
  await page.goto(`/app/bench?${QUERY}`);
  await page.waitForFunction(() => window.__nocturneBench?.ready || window.__nocturneBench?.error, undefined, { timeout: 300_000 });
  const error = await page.evaluate(() => window.__nocturneBench?.error);
  if (error) throw new Error(`bench page failed: ${error}`);
  const figures = await page.evaluate(() => window.__nocturneBench!.run());
  const gpu = await page.evaluate(() => {
    const gl = document.createElement('canvas').getContext('webgl');
    const ext = gl?.getExtension('WEBGL_debug_renderer_info');
    return ext ? String(gl!.getParameter(ext.UNMASKED_RENDERER_WEBGL)) : 'unknown';
  });
  const result = {
    ...figures,
    goals: GOALS,
    met: {
      paging_p95: figures.paging_p95 <= GOALS.paging_p95,
      frame_p99: figures.frame_p99 <= GOALS.frame_p99,
      uplot_ratio: figures.uplot_ratio >= GOALS.uplot_ratio,
    },
    query: QUERY,
    browser: browser.version(),
    gpu,
    date: new Date().toISOString(),
    notes: [
      'ms; paging = synthetic keydown (at a random phase of the display frame) to the end of the first frame drawing final data (gl.finish); paging_work = that frame alone',
      'frame = one renderer frame incl. gl.finish; uplot_frame_p50 = setScale on 16 charts until their commit drew',
      'uplot_ratio = uPlot full-night frame over ours for a full-night range change: engine views (worker round trip) + upload + draw (uplot_ratio_redraw: over a redraw alone)',
      'SwiftShader (software WebGL) on CI machines; a GPU makes our frames cheaper, not uPlot\'s canvas 2D decimation',
    ],
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/render.json', `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
  await context.close();
} finally {
  await browser.close();
  await server.close();
}
