// `node --import tsx bench/first-paint.bench.ts`: the first-paint part of bench:render alone
// (the demo's 10-hour night, cold and warm, bench/first-paint.ts), for a before/after on the
// same machine within minutes. BENCH_URL: a server already running with the demo nights.
// Prints the figures and the 1-minute load average; writes nothing (bench:render owns render.json).
import { loadavg } from 'node:os';
import { benchSession, measureFirstPaint } from './first-paint';

const session = await benchSession();
try {
  const { context, page } = await session.signedInPage();
  const before = loadavg()[0];
  const fp = await measureFirstPaint(context, page);
  console.log(JSON.stringify({ cold: fp.cold, warm: fp.warm, load_average_1m: [before, loadavg()[0]].map((v) => Math.round(v * 100) / 100), date: new Date().toISOString() }, null, 2));
} finally {
  await session.close();
}
