// `node --import tsx bench/first-paint.bench.ts`: the first-paint part of bench:render alone
// (the demo's 10-hour night, cold and warm, bench/first-paint.ts), for a before/after on the
// same machine within minutes. One server with the demo nights (or BENCH_URL, one already
// running), then Chromium compositing through SwiftShader ('gpu') and in software (what Chromium
// does without a GPU, bench/compositing.ts), one after the other, twice, in alternating order:
// the same night, warm-up and rounds for each. Prints the figures and the 1-minute load average;
// writes nothing (bench:render owns render.json).
import { loadavg } from 'node:os';
import { startAppServer } from '../tests/e2e/harness';
import type { Compositing } from './compositing';
import { analysed, AS_NPM_START, benchSession, measureFirstPaint } from './first-paint';
import { percentile } from './timing';

const server = process.env.BENCH_URL ? null : await startAppServer({ ...AS_NPM_START, SEED_NIGHTS: '1' }, 600_000);
// Measured once its first start analysed the demo nights (that takes both cores), as bench:render is.
if (server) await analysed(server.output);
const url = process.env.BENCH_URL ?? server!.url;
const before = loadavg()[0];
const samples: Record<Compositing, { cold: number[]; warm: number[] }> = { gpu: { cold: [], warm: [] }, software: { cold: [], warm: [] } };
try {
  for (const mode of ['gpu', 'software', 'software', 'gpu'] as const) {
    const session = await benchSession(mode, url);
    try {
      const { context, page } = await session.signedInPage();
      const fp = await measureFirstPaint(context, page);
      samples[mode].cold.push(...fp.cold.rounds);
      samples[mode].warm.push(...fp.warm.rounds);
    } finally {
      await session.close();
    }
  }
} finally {
  await server?.close();
}
const r1 = (v: number) => Math.round(v * 10) / 10;
const summary = Object.fromEntries(
  Object.entries(samples).map(([mode, s]) => [mode, { cold_p50: r1(percentile(s.cold, 0.5)), cold_p95: r1(percentile(s.cold, 0.95)), warm_p50: r1(percentile(s.warm, 0.5)), warm_p95: r1(percentile(s.warm, 0.95)), samples: s.cold.length }]),
);
console.log(JSON.stringify({ ...summary, goals: { cold_p50: 400, warm_p50: 250 }, load_average_1m: [before, loadavg()[0]].map((v) => Math.round(v * 100) / 100), date: new Date().toISOString() }, null, 2));
