// A/B first paint under the same load: two servers of the same data, one serving build A
// (BENCH_URL_A), one build B (BENCH_URL_B), visited in turn — A cold, A warm, B cold, B warm, then
// B before A in the next round — so both builds see the same moments of a shared machine. Prints medians per build.
// `BENCH_URL_A=… BENCH_URL_B=… node --import tsx bench/first-paint-ab.ts`. BENCH_URL_B may
// be the same server as A, and BENCH_WAIT_A / BENCH_WAIT_B ('signal' or 'poll') set how each
// side learns of its first chart (bench/first-paint.ts): an A/B of the measurement itself.
// BENCH_LATENCY_MS (and BENCH_THROUGHPUT_MBPS) put both behind an emulated network.
import { loadavg } from 'node:os';
import { DEMO, findLongNight, launchChromium, signInThroughForm } from '../tests/e2e/harness';
import { benchCompositing } from './compositing';
import { visit, type Visit, type WaitMethod } from './first-paint';
import { percentile } from './timing';

const ROUNDS = Number(process.env.BENCH_FIRST_PAINT_ROUNDS ?? 8);
const urls = { A: process.env.BENCH_URL_A!, B: process.env.BENCH_URL_B ?? process.env.BENCH_URL_A! };
const waits: Record<'A' | 'B', WaitMethod> = { A: process.env.BENCH_WAIT_A === 'poll' ? 'poll' : 'signal', B: process.env.BENCH_WAIT_B === 'poll' ? 'poll' : 'signal' };
/** BENCH_LATENCY_MS > 0: both sides behind an emulated network (Chromium's), this round-trip latency and BENCH_THROUGHPUT_MBPS (default 50). */
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 0);
const THROUGHPUT_MBPS = Number(process.env.BENCH_THROUGHPUT_MBPS ?? 50);
const browser = await launchChromium(benchCompositing());
try {
  // The sides sign in one after the other: on one server (an A/B of the measurement) they share an account and its outbox.
  const sides = [];
  for (const name of ['A', 'B'] as const) {
    const context = await browser.newContext({ baseURL: urls[name], viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    await page.goto('/');
    await signInThroughForm(page, urls[name], DEMO.physician);
    const night = await findLongNight(page);
    if (LATENCY_MS > 0) {
      // A network between browser and server (not loopback): each request waits this long, the bytes flow at this rate.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      const bytesPerS = (THROUGHPUT_MBPS * 1e6) / 8;
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: LATENCY_MS, downloadThroughput: bytesPerS, uploadThroughput: bytesPerS });
    }
    sides.push({ name, context, page, url: `/app/patients/id=${night.patientId}?night=${night.night}`, cold: [] as Visit[], warm: [] as Visit[] });
  }
  const load = [loadavg()[0]];
  for (let i = 0; i < ROUNDS; i++) {
    // A then B, then B then A (ABBA): the side visited second in a round ran 14 ms slower warm
    // with the same build on both (2026-12-04), an order effect that alternating cancels.
    for (const s of i % 2 === 0 ? sides : [...sides].reverse()) {
      const c = await visit(s.context, s.page, s.url, true, waits[s.name]);
      const w = await visit(s.context, s.page, s.url, false, waits[s.name]);
      if (i === 0) continue;
      s.cold.push(c);
      s.warm.push(w);
    }
  }
  load.push(loadavg()[0]);
  const r1 = (v: number) => Math.round(v * 10) / 10;
  const med = (vs: Visit[], k: keyof Visit) => r1(percentile(vs.map((v) => v[k]), 0.5));
  const out = Object.fromEntries(
    sides.map((s) => [
      s.name,
      Object.fromEntries(
        (['cold', 'warm'] as const).map((kind) => [kind, { first_paint_p50: med(s[kind], 'firstPaint'), first_paint_p95: r1(percentile(s[kind].map((v) => v.firstPaint), 0.95)), scripts_end: med(s[kind], 'scriptsEnd'), first_channel_bytes: med(s[kind], 'firstBytes'), first_channel_in_engine: med(s[kind], 'firstLoaded'), all_channels_in_engine: med(s[kind], 'allLoaded'), rounds: s[kind].map((v) => r1(v.firstPaint)) }]),
      ),
    ]),
  );
  console.log(JSON.stringify({ ...out, waits, network: LATENCY_MS > 0 ? { latency_ms: LATENCY_MS, throughput_mbps: THROUGHPUT_MBPS } : 'loopback', rounds_each: ROUNDS - 1, load_average_1m: load.map((v) => Math.round(v * 100) / 100), date: new Date().toISOString() }, null, 2));
} finally {
  await browser.close();
}
