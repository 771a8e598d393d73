// Zoom and pan of bench:render, this tree's build against a peer commit's (PEER_COMMIT) in the
// same Chromium at the same time: one /app/bench page per side (16 channels, 10 h), the
// zoom/pan sequence run on each in turn, ROUNDS times (sides alternating first), so both see
// the same moments of a shared machine. Prints each side's p50/p95 and where the time went
// (the views' arrival, the final frame's start and length, frames drawn before it).
// `PEER_COMMIT=<sha> ROUNDS=6 node --import tsx bench/render-ab.ts`; TRACE=1 writes a
// Chromium trace of one more round of each side to /tmp/render-ab-<side>.json.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DEMO, launchChromium, signInThroughForm } from '../tests/e2e/harness';
import type { Timed } from '../src/features/bench/sequence';
import { peerTree, startServer, type Running } from './annotation-servers';
import { benchCompositing, rendererKnown } from './compositing';
import { percentile } from './timing';

const ROUNDS = Number(process.env.ROUNDS ?? 6);
const QUERY = process.env.BENCH_QUERY ?? 'channels=16&hz=250&hours=10&fast=4';

interface Side {
  name: 'current' | 'peer';
  page: Page;
  zoom: Timed[];
  pan: Timed[];
}

async function openSide(browser: Browser, name: Side['name'], server: Running): Promise<Side> {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`${name} page error:`, e.message));
  await page.goto('/');
  await signInThroughForm(page, server.url, DEMO.physician);
  await rendererKnown(page);
  await page.goto(`/app/bench?${QUERY}`);
  await page.waitForFunction(() => window.__nocturneBench?.ready || window.__nocturneBench?.error, undefined, { timeout: 300_000 });
  return { name, page, zoom: [], pan: [] };
}

const zoomPan = (page: Page) => page.evaluate(() => window.__nocturneBench!.zoomPan!());

async function traced(side: Side): Promise<void> {
  const cdp = await side.page.context().newCDPSession(side.page);
  const chunks: unknown[] = [];
  cdp.on('Tracing.dataCollected', (e) => chunks.push(...e.value));
  const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-devtools.timeline.frame,v8.execute,blink.user_timing,gpu,disabled-by-default-v8.cpu_profiler,toplevel,viz,cc',
    transferMode: 'ReportEvents',
  });
  await zoomPan(side.page);
  await cdp.send('Tracing.end');
  await done;
  writeFileSync(`/tmp/render-ab-${side.name}.json`, JSON.stringify({ traceEvents: chunks }));
  await cdp.detach();
}

const r1 = (v: number) => Math.round(v * 10) / 10;

function report(sides: Side[]): void {
  const rows: Record<string, Record<string, number>> = {};
  for (const s of sides) {
    for (const kind of ['zoom', 'pan'] as const) {
      const t = s[kind];
      const of = (f: (x: Timed) => number | null) => t.map(f).filter((v): v is number => v !== null);
      rows[`${s.name} ${kind}`] = {
        p50: r1(percentile(of((x) => x.latency), 0.5)),
        p95: r1(percentile(of((x) => x.latency), 0.95)),
        'data p50': r1(percentile(of((x) => x.data), 0.5)),
        'data p95': r1(percentile(of((x) => x.data), 0.95)),
        'final start p95': r1(percentile(of((x) => x.frameStart), 0.95)),
        'frame p95': r1(percentile(of((x) => x.frame), 0.95)),
        'early frames': of((x) => x.early).reduce((a, b) => a + b, 0),
        samples: t.length,
      };
    }
  }
  console.table(rows);
}

async function main() {
  const peerCommit = process.env.PEER_COMMIT ?? 'HEAD';
  const head = execFileSync('git', ['rev-parse', '--short', 'HEAD']).toString().trim();
  const peer = await peerTree(peerCommit);
  const dirs = [await mkdtemp(path.join(tmpdir(), 'nocturne-render-ab-')), await mkdtemp(path.join(tmpdir(), 'nocturne-render-ab-'))];
  const servers = [await startServer(process.cwd(), dirs[0]!), await startServer(peer.dir, dirs[1]!)];
  const browser = await launchChromium(benchCompositing());
  const load = [loadavg()[0]];
  try {
    const sides = [await openSide(browser, 'current', servers[0]!), await openSide(browser, 'peer', servers[1]!)];
    // One unmeasured round each (JIT, buffers).
    for (const s of sides) await zoomPan(s.page);
    for (let r = 0; r < ROUNDS; r++) {
      for (const s of r % 2 ? [...sides].reverse() : sides) {
        const { zoom, pan } = await zoomPan(s.page);
        s.zoom.push(...zoom);
        s.pan.push(...pan);
      }
    }
    load.push(loadavg()[0]);
    console.log(`render zoom/pan — current ${head} (+ work tree) vs peer ${peerCommit}; ${ROUNDS} rounds (+1)`);
    report(sides);
    console.log(`load ${load.map((v) => v.toFixed(2)).join(' → ')}; ${new Date().toISOString()}`);
    if (process.env.TRACE) for (const s of sides) await traced(s);
  } finally {
    await browser.close();
    for (const s of servers) await s.close();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
    await peer.remove();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
