// The screen half of `npm run bench:realtime` (issue 15), in Chromium with SwiftShader WebGL:
//
// 1. Device to painted: 32 simulated devices (the DeviceClient of `npm run device`, at 1×)
//    stream to a real server (server/main.ts, dist/ served) while the demo physician watches
//    /app/realtimeDashboard. bench/live-probe.js, injected before the app, hears each frame go
//    into a tile's series (useLiveDevice) and each strip drawn (LiveBoard: every strip of the
//    page through one WebGL context), and stamps a frame painted when the first strip draw
//    after it has rastered (gl.finish). Latency = that time
//    − the frame's sentMs (stamped by the device when it made the frame); both clocks are this
//    machine's, their offset measured and taken off.
// 2. Frame time of the 32-tile dashboard: the animation-frame work of each display frame
//    (every rAF callback of the frame, summed, its rasters included) in the same rounds.
// 3. ours vs uPlot: /app/bench?live=ours|uplot draws 32 strips of the tiles' size with
//    the same synthetic data at the same rate (src/features/bench/LiveStripsBench.tsx), timed
//    by the same probe: same warm-up, same number of drawing frames a round, rounds
//    alternating, percentiles over all rounds; raster included on both sides (gl.finish,
//    a 1-pixel getImageData).
//
// Knobs: BENCH_SCREEN_VIEWPORT (default 1920x1080, a wall display: the dashboard fits 32 tiles in it),
// BENCH_SCREEN_PHASE=aligned (every device sends in the same millisecond; default: their
// phases spread over the 200-ms interval, as devices at separate bedsides), BENCH_SKIP_STRIPS=1
// (the dashboard only), BENCH_SCREEN_SHOT / _TRACE / _PROFILE / _RAW (files for a closer look).
// Run alone: `node --import tsx bench/realtime-screen.ts` (needs dist/: `npm run build`);
// it replaces the "screen" key of bench/results/realtime.json and keeps the rest.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { DeviceClient, liveSource } from '../server/live/device-client';
import { FRAME_INTERVAL_MS } from '../contract/live-protocol';
import { simulateNight } from '../server/simulator';
import { DEMO, launchChromium, signInThroughForm, startAppServer } from '../tests/e2e/harness';
import { benchCompositing, rendererKnown } from './compositing';
import { addDemoBeds } from '../server/live/demo-beds';
import { sharedDb } from '../tests/server/live-processes';
import { clockOffset, frameSummary, latencySummary, ratio, type ClockReading, type ProbeTake } from './screen-stats';
import { percentile } from './timing';
import { machineCpu } from './machine';
import { AS_NPM_START } from './first-paint';

const env = process.env;
const DEVICES = Number(env.BENCH_SCREEN_DEVICES ?? 32);
/** Streaming before the first round: a tile's strip holds a minute, so it is full by then. */
const WARMUP_MS = Number(env.BENCH_SCREEN_WARMUP_MS ?? 65_000);
const ROUNDS = Number(env.BENCH_SCREEN_ROUNDS ?? 3);
const ROUND_MS = Number(env.BENCH_SCREEN_ROUND_MS ?? 10_000);
/** Strips: warm-up before each round, and display frames that drew per round and side. */
const STRIP_WARMUP_MS = Number(env.BENCH_STRIP_WARMUP_MS ?? 3_000);
const STRIP_FRAMES = Number(env.BENCH_STRIP_FRAMES ?? 400);
const PORT = env.BENCH_SCREEN_PORT ?? '0';
const DB_KIND = (env.BENCH_SCREEN_DB ?? 'postgres') as 'postgres' | 'pglite';
const GOALS = { latency_p99_ms: 50, frame_p99_ms: 16.7, uplot_ratio: null };
/** A wall display, which the dashboard fits 32 tiles in; BENCH_SCREEN_VIEWPORT=1280x800 for a laptop (16 tiles). */
const [VW, VH] = (env.BENCH_SCREEN_VIEWPORT ?? '1920x1080').split('x').map(Number);
const VIEWPORT = { width: VW!, height: VH! };
const dir = fileURLToPath(new URL('./', import.meta.url));
const PROBE = path.join(dir, 'live-probe.js');

declare global {
  interface Window {
    __nocturneLiveBench?: { now(): number; start(maxDrawFrames?: number): void; done(): boolean; take(): ProbeTake };
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load1 = () => Math.round(loadavg()[0]! * 100) / 100;
const r2 = (v: number) => Math.round(v * 100) / 100;

async function version(pkg: string): Promise<string> {
  return (JSON.parse(await readFile(path.join(dir, '..', 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The page clock against ours, read `n` times (the shortest round trip wins). */
async function readClocks(page: Page, n = 15): Promise<ClockReading[]> {
  const readings: ClockReading[] = [];
  for (let i = 0; i < n; i++) {
    const before = Date.now();
    const at = await page.evaluate(() => window.__nocturneLiveBench!.now());
    readings.push({ before, page: at, after: Date.now() });
  }
  return readings;
}

/**
 * The page's composited layers by the reason Chromium gives (DevTools' LayerTree): on
 * SwiftShader each presented frame composites every layer, so layers made because something
 * paints over a strip ("Overlap") cost every frame.
 */
async function compositedLayers(page: Page): Promise<Record<string, number>> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const tree = new Promise<{ layerId: string }[]>((resolve) => cdp.on('LayerTree.layerTreeDidChange', (e) => e.layers && resolve(e.layers)));
    await cdp.send('LayerTree.enable');
    const counts: Record<string, number> = {};
    for (const l of await tree) {
      const { compositingReasonIds } = await cdp.send('LayerTree.compositingReasons', { layerId: l.layerId });
      const key = compositingReasonIds?.join('+') || 'none';
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  } finally {
    await cdp.detach();
  }
}

/** Times a recording: `ms` of it, or until the page has `drawFrames` frames that drew. */
async function record(page: Page, opts: { ms?: number; drawFrames?: number }): Promise<ProbeTake> {
  await page.evaluate((n) => window.__nocturneLiveBench!.start(n), opts.drawFrames ?? 0);
  if (opts.drawFrames) await page.waitForFunction(() => window.__nocturneLiveBench!.done(), undefined, { polling: 250, timeout: 300_000 });
  else await sleep(opts.ms ?? ROUND_MS);
  return page.evaluate(() => window.__nocturneLiveBench!.take());
}

export async function measureScreen() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'nocturne-rt-screen-'));
  const db = await sharedDb(DB_KIND, dataDir, env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  const serverEnv = { ...db.env, ...AS_NPM_START, DATA_DIR: dataDir, SEED_NIGHTS: '0', PORT };
  const clients: DeviceClient[] = [];
  const browser = await launchChromium(benchCompositing());
  let server: Awaited<ReturnType<typeof startAppServer>> | null = null;
  try {
    // Migrate and seed the demo clinic, then add the bench devices with the database to ourselves (PGlite allows one process).
    server = await startAppServer(serverEnv, 180_000, dataDir);
    await server.close();
    server = null;
    const setup = await db.open();
    const devices = await addDemoBeds(setup, DEVICES, 'RTS');
    await setup.close();
    server = await startAppServer(serverEnv, 180_000, dataDir);
    const url = server.url;

    const context = await browser.newContext({ baseURL: url, viewport: VIEWPORT });
    await context.addInitScript({ path: PROBE });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/');
    await signInThroughForm(page, url, DEMO.physician);
    await rendererKnown(page);
    // Asked before the dashboard, on a context of its own, lost at once.
    const gpu = await page.evaluate(() => {
      const gl = document.createElement('canvas').getContext('webgl');
      const ext = gl?.getExtension('WEBGL_debug_renderer_info');
      const name = ext ? String(gl!.getParameter(ext.UNMASKED_RENDERER_WEBGL)) : 'unknown';
      gl?.getExtension('WEBGL_lose_context')?.loseContext();
      return name;
    });

    // ── 1 + 2: the dashboard with its devices streaming ──
    const source = liveSource(simulateNight({ seed: 'bench-screen', startMs: Math.floor(Date.now() / 1000) * 1000, durationMs: 30 * 60_000 }).channels);
    // Each device ticks on its own phase, spread over the 200-ms frame interval as at separate
    // bedsides (BENCH_SCREEN_PHASE=aligned: every device in the same millisecond, the worst case).
    const aligned = env.BENCH_SCREEN_PHASE === 'aligned';
    devices.forEach((d, i) => clients.push(new DeviceClient({ server: url, deviceId: d.deviceId, key: d.key, source, speed: 1, phaseMs: aligned ? 0 : (i * FRAME_INTERVAL_MS) / devices.length })));
    for (const c of clients) c.start();
    await page.goto('/app/realtimeDashboard');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="live-tile"][data-state="streaming"]').length >= n, DEVICES, { timeout: 120_000, polling: 500 });
    const layout = await page.evaluate(() => {
      const strips = [...document.querySelectorAll<HTMLCanvasElement>('[data-testid="tile-strip"]')];
      const inView = strips.filter((c) => {
        const r = c.getBoundingClientRect();
        return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth && r.width > 0 && r.height > 0;
      });
      return { tiles: strips.length, inViewport: inView.length, width: strips[0]?.clientWidth ?? 0, height: strips[0]?.clientHeight ?? 0 };
    });
    await sleep(WARMUP_MS);
    // BENCH_SCREEN_SHOT=file.png: the dashboard as measured.
    if (env.BENCH_SCREEN_SHOT) await page.screenshot({ path: env.BENCH_SCREEN_SHOT });
    const layers = await compositedLayers(page);
    const dashboardLoad = [load1()];
    const dashboardCpu = machineCpu();
    const clocks: ClockReading[] = await readClocks(page);
    const takes: ProbeTake[] = [];
    const acks: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const ackFrom = clients.map((c) => c.ackMs.length);
      // BENCH_SCREEN_PROFILE=file.cpuprofile: the page's main thread profiled during the first round (for DevTools).
      const cdp = r === 0 && env.BENCH_SCREEN_PROFILE ? await context.newCDPSession(page) : null;
      if (cdp) await cdp.send('Profiler.enable').then(() => cdp.send('Profiler.start'));
      // BENCH_SCREEN_TRACE=file.json: a Chromium trace of the first round (compositor and GPU: presented frames, swaps).
      const tracing = r === 0 && env.BENCH_SCREEN_TRACE;
      if (tracing) await browser.startTracing(page, { path: env.BENCH_SCREEN_TRACE, categories: ['viz', 'gpu', 'cc', 'toplevel', 'blink', 'devtools.timeline'] });
      takes.push(await record(page, { ms: ROUND_MS }));
      if (tracing) await browser.stopTracing();
      if (cdp) await writeFile(env.BENCH_SCREEN_PROFILE!, JSON.stringify((await cdp.send('Profiler.stop')).profile));
      clients.forEach((c, i) => acks.push(...c.ackMs.slice(ackFrom[i])));
    }
    clocks.push(...(await readClocks(page)));
    dashboardLoad.push(load1());
    const dashboardMachine = dashboardCpu.stop();
    const states = await page.evaluate(() => [...document.querySelectorAll('[data-testid="live-tile"]')].map((t) => t.getAttribute('data-state')));
    for (const c of clients) c.stop();
    const clock = clockOffset(clocks);
    const latency = latencySummary(takes, clock.offsetMs);
    // BENCH_SCREEN_RAW=file.json: every frame's sent, arrived and painted times, for a look at the tail.
    if (env.BENCH_SCREEN_RAW) await writeFile(env.BENCH_SCREEN_RAW, JSON.stringify({ offset: clock.offsetMs, takes }));
    const dashboard = frameSummary(takes);
    const devicesErrors = clients.reduce((s, c) => s + c.errors.length, 0);
    console.log(`dashboard: ${layout.tiles} tiles (${layout.inViewport} in the viewport), latency p50 ${latency.p50} ms p99 ${latency.p99} ms over ${latency.frames} frames, frame work p50 ${dashboard.p50} ms p99 ${dashboard.p99} ms; machine busy ${dashboardMachine.busyPct} % steal ${dashboardMachine.stealPct} %`);

    // ── 3: the same strips, ours vs uPlot ──
    const stripsLoad = [load1()];
    const stripsCpu = machineCpu();
    const width = layout.width || 390;
    const height = layout.height || 120;
    const sides = { ours: [] as ProbeTake[], uplot: [] as ProbeTake[] };
    for (let r = 0; r < (env.BENCH_SKIP_STRIPS ? 0 : ROUNDS); r++) {
      // Alternating which side goes first, so a drift in the machine's load hits both alike.
      for (const mode of r % 2 === 0 ? (['ours', 'uplot'] as const) : (['uplot', 'ours'] as const)) {
        await page.goto(`/app/bench?live=${mode}&strips=${DEVICES}&width=${width}&height=${height}`);
        await page.waitForFunction((n) => window.__nocturneLiveStrips?.ready && document.querySelectorAll('[data-testid="bench-strip"]').length >= n, DEVICES, { timeout: 60_000 });
        await sleep(STRIP_WARMUP_MS);
        sides[mode].push(await record(page, { drawFrames: STRIP_FRAMES }));
      }
    }
    stripsLoad.push(load1());
    const stripsMachine = stripsCpu.stop();
    await context.close();
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    const ours = frameSummary(sides.ours);
    const uplot = frameSummary(sides.uplot);
    const oursLatency = latencySummary(sides.ours, 0);
    const uplotLatency = latencySummary(sides.uplot, 0);
    console.log(`strips: ours drawn-frame work p50 ${ours.drawn_p50} ms p99 ${ours.drawn_p99} ms, uPlot p50 ${uplot.drawn_p50} ms p99 ${uplot.drawn_p99} ms`);

    return {
      measuredAt: new Date().toISOString(),
      machine: `${cpus().length}-core machine (1-minute load average in load_average_1m)`,
      database: DB_KIND,
      browser: browser.version(),
      gpu,
      uplot_version: await version('uplot'),
      goals: GOALS,
      met: {
        latency_p99_ms: latency.p99 !== null && latency.p99 <= GOALS.latency_p99_ms,
        frame_p99_ms: dashboard.p99 !== null && dashboard.p99 <= GOALS.frame_p99_ms,
      },
      latency: {
        devices: DEVICES,
        ...latency,
        ack_p50: acks.length ? r2(percentile(acks, 0.5)) : null,
        ack_p99: acks.length ? r2(percentile(acks, 0.99)) : null,
        clock_offset_ms: r2(clock.offsetMs),
        clock_uncertainty_ms: r2(clock.uncertaintyMs),
        device_errors: devicesErrors,
        tile_states: states,
      },
      dashboard: { tiles: layout.tiles, tiles_in_viewport: layout.inViewport, strip_px: [layout.width, layout.height], viewport: VIEWPORT, device_phases: aligned ? 'aligned' : 'spread', composited_layers: layers, ...dashboard },
      strips: {
        strips: DEVICES,
        strip_px: [width, height],
        rate_hz: 20,
        update_ms: 200,
        window_s: 60,
        frames_per_round: STRIP_FRAMES,
        ours: { ...ours, data_to_paint_p50: oursLatency.p50, data_to_paint_p99: oursLatency.p99 },
        uplot: { ...uplot, data_to_paint_p50: uplotLatency.p50, data_to_paint_p99: uplotLatency.p99 },
        ratio_p50: ratio(uplot.drawn_p50, ours.drawn_p50),
        ratio_p99: ratio(uplot.drawn_p99, ours.drawn_p99),
        ratio_per_draw_p50: ratio(uplot.per_draw_p50, ours.per_draw_p50),
      },
      rounds: ROUNDS,
      round_ms: ROUND_MS,
      warmup_ms: { dashboard: WARMUP_MS, strips: STRIP_WARMUP_MS },
      load_average_1m: { dashboard: dashboardLoad, strips: stripsLoad },
      // The machine's CPUs over the dashboard rounds and over the strips (busy, and stolen by the hypervisor: bench/machine.ts).
      machine_cpu: { dashboard: dashboardMachine, strips: stripsMachine },
      notes: [
        `latency: ms from a frame's sentMs (stamped by the simulated device when it made the frame; ${DEVICES} DeviceClients at 1×, in the bench's process, as npm run device runs them, ${aligned ? 'all ticking in the same millisecond' : 'their 200-ms ticks spread evenly over the interval'}) to the end of the raster (gl.finish) of the first strip draw after the frame's samples reached the tile; frames carrying no samples of the strip's channel (Y_DIST, 4 a frame) are not counted; all frames of all rounds pooled; the page clock's offset from the bench's (clock_offset_ms, ± clock_uncertainty_ms) is taken off`,
        'latency.arrival = sentMs to the frame in the page (device socket, ingest, ack-after-commit fan-out, viewer socket, decoding); latency.screen = arrival to painted (waiting for the display frame, drawing, raster); ack = device-side ack latency (send to commit acknowledged) in the same rounds',
        `dashboard: /app/realtimeDashboard at ${VIEWPORT.width}×${VIEWPORT.height} (every tile in view), work of each display frame = all its requestAnimationFrame callbacks (the LiveBoard's one loop, which draws every changed strip) summed, each strip drawn followed by gl.finish (raster included); p50/p99 over all display frames of all rounds, drawn_* over the frames in which a strip drew; missed_pct = display-frame gaps over 1.5 × the median interval`,
        'strips: /app/bench?live=ours|uplot, the tiles\' strip size, synthetic Y_DIST-like data at 20 Hz, each strip given 4 samples every 200 ms (strips spread over the interval as devices are), the last 60 s shown and a full minute held from the start; ours = LivePlot (a block of the page\'s one LiveBoard, src/charts/gl\'s renderer, 2 points a pixel column, gl.finish), uPlot = setData of the window each frame after new samples (uPlot has no append), committed at once with batch, then a 1-pixel getImageData; axes, legend, cursor off on both; same warm-up, rounds alternate which side goes first, each round ends after the same number of display frames that drew; ratio = uPlot ÷ ours over the frames that drew (ratio_per_draw: per strip drawn)',
        'no goal is given for the ratio; SwiftShader (software WebGL) on this machine, which makes gl.finish the CPU doing the GPU\'s work',
      ],
    };
  } finally {
    for (const c of clients) c.stop();
    await browser.close();
    if (server) await server.close();
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const RESULTS = path.join(dir, 'results', 'realtime.json');

async function readResults(): Promise<Record<string, unknown>> {
  const text = await readFile(RESULTS, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return '{}';
    throw err;
  });
  return JSON.parse(text) as Record<string, unknown>;
}

/** The "screen" figures bench/results/realtime.json holds now, or null. */
export async function readScreen(): Promise<unknown> {
  return (await readResults()).screen ?? null;
}

/** Writes the "screen" key of bench/results/realtime.json, keeping the rest of it. */
export async function writeScreen(screen: unknown): Promise<void> {
  const current = await readResults();
  await writeFile(RESULTS, `${JSON.stringify({ ...current, screen }, null, 2)}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  measureScreen()
    .then(writeScreen)
    .then(() => console.log('screen figures → bench/results/realtime.json'))
    .catch((err: Error) => {
      console.error(err.stack ?? err.message);
      process.exit(1);
    });
}
