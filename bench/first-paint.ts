// First paint of a real night (issue 14 point 7): the demo's 10-hour night opened on the
// single-night screen as a user opens it, cold (HTTP cache and IndexedDB emptied, the app
// bundle included) and warm (the same visit again). Time = the page's navigation start to
// the renderer's first frame that drew a chart's data (the FIRST_CHART_MARK user-timing
// mark). Where the time went is read from the same page: resource timings of the app and
// the channel fetches, and the loader's marks per channel.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO, findLongNight, launchChromium, signInThroughForm, startAppServer } from '../tests/e2e/harness';
import { benchCompositing, rendererKnown, type Compositing } from './compositing';
import { percentile } from './timing';

/** Rounds of each kind; the first round of each is a warm-up and not counted. */
const ROUNDS = Number(process.env.BENCH_FIRST_PAINT_ROUNDS ?? 8);

/** One visit's timeline, ms from navigation start. */
export interface Visit {
  firstPaint: number;
  /** The first channel's bytes arrived / it was in the engine. */
  firstBytes: number;
  firstLoaded: number;
  /** Every channel of the visit in the engine. */
  allLoaded: number;
  /** The app's scripts fetched (the last one's responseEnd). */
  scriptsEnd: number;
  channels: number;
}

/**
 * How a visit learns that its first chart was drawn. 'signal' (the default): the page tells
 * Node through a binding from a PerformanceObserver installed before the app's scripts, so
 * nothing is run in the page while it loads. 'poll' (BENCH_FIRST_PAINT_WAIT=poll, the method
 * before 2026-12-03): Playwright's waitForFunction, whose first call in a new document
 * evaluates Playwright's injected script (a 330 kB message, 30–35 ms of the page's main
 * thread on a 2-core machine) in the middle of the first paint it measures.
 */
export type WaitMethod = 'signal' | 'poll';
const WAIT: WaitMethod = process.env.BENCH_FIRST_PAINT_WAIT === 'poll' ? 'poll' : 'signal';

/** The first-chart binding of each browser context: `arm()` readies it for one visit; the wait it returns resolves when that visit's page marked its first chart. */
const signals = new WeakMap<BrowserContext, { arm: () => (ms: number) => Promise<void> }>();

async function firstChartSignal(context: BrowserContext): Promise<(ms: number) => Promise<void>> {
  let signal = signals.get(context);
  if (!signal) {
    let resolveNext: (() => void) | null = null;
    await context.exposeBinding('__nocturneFirstChart', () => {
      resolveNext?.();
      resolveNext = null;
    });
    await context.addInitScript(() => {
      const tell = (window as unknown as { __nocturneFirstChart: () => void }).__nocturneFirstChart;
      new PerformanceObserver((list, observer) => {
        if (!list.getEntries().some((e) => e.name === 'nocturne:first-chart')) return;
        observer.disconnect();
        void tell();
      }).observe({ type: 'mark', buffered: true });
    });
    signal = {
      arm() {
        const fired = new Promise<void>((resolve) => (resolveNext = resolve));
        return (ms) => {
          let timer: NodeJS.Timeout | undefined;
          const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no first chart within ${ms} ms`)), ms)));
          return Promise.race([fired, late]).finally(() => clearTimeout(timer));
        };
      },
    };
    signals.set(context, signal);
  }
  return signal.arm();
}

/** Opens `url` once (cold: the caches emptied first) and reads its timeline. */
export async function visit(context: BrowserContext, page: Page, url: string, cold: boolean, wait: WaitMethod = WAIT): Promise<Visit> {
  if (cold) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    const origin = new URL(page.url()).origin;
    // Session (localStorage) stays: the user is signed in, only the caches are empty.
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'indexeddb,cache_storage,service_workers' });
    await cdp.detach();
  }
  const painted = wait === 'signal' ? await firstChartSignal(context) : null;
  await page.goto(url);
  if (painted) await painted(60_000);
  else await page.waitForFunction(() => performance.getEntriesByName('nocturne:first-chart').length > 0, undefined, { timeout: 60_000 });
  // Let the rest of the night arrive, so the next visit starts from a quiet page.
  await page.waitForFunction(() => document.querySelector('[data-testid="chart-stack"]') && !document.querySelector('[data-testid="chart-stack"] .plot-empty.muted'), undefined, { timeout: 60_000 });
  await page.waitForTimeout(300);
  return page.evaluate(() => {
    const marks = performance.getEntriesByType('mark');
    const bytes = marks.filter((m) => m.name.startsWith('nocturne:channel-bytes:')).map((m) => m.startTime);
    const loaded = marks.filter((m) => m.name.startsWith('nocturne:channel-loaded:')).map((m) => m.startTime);
    const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((r) => r.initiatorType === 'script' || r.name.endsWith('.js'));
    return {
      firstPaint: performance.getEntriesByName('nocturne:first-chart')[0]?.startTime ?? Number.NaN,
      firstBytes: Math.min(...bytes),
      firstLoaded: Math.min(...loaded),
      allLoaded: Math.max(...loaded),
      scriptsEnd: Math.max(0, ...scripts.map((s) => s.responseEnd)),
      channels: loaded.length,
    };
  });
}

const r1 = (v: number) => Math.round(v * 10) / 10;

/** Median and p95 of each field over the rounds. */
function summary(visits: readonly Visit[]) {
  const of = (k: keyof Visit) => visits.map((v) => v[k]);
  return {
    p50: r1(percentile(of('firstPaint'), 0.5)),
    p95: r1(percentile(of('firstPaint'), 0.95)),
    rounds: of('firstPaint').map(r1),
    breakdown_p50: {
      scripts_end: r1(percentile(of('scriptsEnd'), 0.5)),
      first_channel_bytes: r1(percentile(of('firstBytes'), 0.5)),
      first_channel_in_engine: r1(percentile(of('firstLoaded'), 0.5)),
      first_paint: r1(percentile(of('firstPaint'), 0.5)),
      all_channels_in_engine: r1(percentile(of('allLoaded'), 0.5)),
      channels: percentile(of('channels'), 0.5),
    },
  };
}

/** Opens the night cold and warm, ROUNDS times each (alternating), on a signed-in page. */
export async function measureFirstPaint(context: BrowserContext, page: Page) {
  const night = await findLongNight(page);
  const url = `/app/patients/id=${night.patientId}?night=${night.night}`;
  const cold: Visit[] = [];
  const warm: Visit[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const c = await visit(context, page, url, true);
    const w = await visit(context, page, url, false);
    // The first pair warms the server (its buffers, the JIT) and is not counted.
    if (i === 0) continue;
    cold.push(c);
    warm.push(w);
  }
  return { night, cold: summary(cold), warm: summary(warm) };
}

/**
 * A browser benchmark's server runs as `npm start` runs it: without the tests' answer check
 * (CHECK_ANSWERS=1 makes the harness's server validate every JSON answer against its route's
 * schema before sending it, work a user's server does not do).
 */
export const AS_NPM_START = { CHECK_ANSWERS: '0' } as const;

/** What a browser benchmark drives: the app with the demo nights and Chromium. */
export interface BenchSession {
  url: string;
  browser: Browser;
  /** A fresh browser context with one page, signed in as the physician through the form. */
  signedInPage(): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

/** Waits (at most 5 minutes) until a freshly seeded server says it analysed the demo nights. */
export async function analysed(output: () => string): Promise<void> {
  const by = Date.now() + 300_000;
  while (!/Analysed \d+ nights? for the dashboard/.test(output())) {
    if (Date.now() > by) throw new Error(`the demo nights were not analysed in 5 minutes:\n${output()}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Starts the app with the demo nights (seeding them takes a minute or two), or uses BENCH_URL,
 * a server already running with them (development loop only), and Chromium.
 */
export async function benchSession(compositing: Compositing = benchCompositing(), url = process.env.BENCH_URL): Promise<BenchSession> {
  const server = url ? { url, close: async () => undefined } : await startAppServer({ ...AS_NPM_START, SEED_NIGHTS: '1' }, 600_000);
  // The first start analyses the demo nights after it listens: measured only once that is done (it took both cores).
  if ('output' in server) await analysed(server.output);
  const browser = await launchChromium(compositing);
  return {
    url: server.url,
    browser,
    async signedInPage() {
      const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 1000 } });
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error('page error:', e.message));
      await page.goto('/');
      await signInThroughForm(page, server.url, DEMO.physician);
      await rendererKnown(page);
      return { context, page };
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}
