// Serialising two large answers (issue 35 point 2, "measure before and after"): the trend of 90
// nights as bench:api builds it (bench/stats-server.ts on PGlite: SpO2, HR and BR statistics
// and the AHI, ODI, RII, SE and SQ indices) and one night's JSON series of its three 1 Hz
// channels (8 h, 86,400 samples; also with a sample in ten missing), each with JSON.stringify and with the route's compiled
// serialiser (fast-json-stringify, as Fastify compiles the route's response schema), 2 × 200
// runs per side, alternating. The trend route sends JSON.stringify's text kept in its answer
// cache (a Buffer the serialiser never sees); the series route is serialised by its schema.
// Run: node --import tsx bench/answer-serialise.ts
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import Fastify from 'fastify';
import { analyticsEndpoints } from '../contract/endpoints/analytics';

type Serialise = (payload: unknown) => string;

/** The trend and series answers of the bench server's 90-night patient, as the routes answer them. */
async function answers(): Promise<{ trend: unknown; series: unknown }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'stats-server.ts'), 'pglite'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      // Its first line starting with {"port" (the mail it logs goes to the same output).
      createInterface({ input: child.stdout }).on('line', (l) => l.startsWith('{"port"') && resolve(l));
      child.once('exit', (code) => reject(new Error(`stats-server exited ${code}`)));
    });
    const s = JSON.parse(line) as { port: number; token: string; patientId: number; from: number; to: number; codes: string[] };
    const get = async (url: string) => {
      const res = await fetch(`http://127.0.0.1:${s.port}/api/v1${url}`, { headers: { authorization: `Bearer ${s.token}` } });
      if (!res.ok) throw new Error(`${url}: ${res.status}`);
      return res.json();
    };
    const trend = await get(`/analytics/patient-trendview/type=${s.codes.join(',')}?patient_id=${s.patientId}&device_start_time=${s.from}&device_stop_time=${s.to}`);
    const series = await get(`/analytics/patient/type=SPO2,HR,BR?patient_id=${s.patientId}&recording_date=2026-01-01`);
    return { trend, series };
  } finally {
    child.kill('SIGTERM');
  }
}

/** The serialiser Fastify compiles for a route with this schema (its 200 answer). */
async function routeSerialiser(schema: object): Promise<Serialise> {
  const app = Fastify();
  let serialise: Serialise | undefined;
  app.get('/', { schema: schema as never }, async (_request, reply) => {
    serialise = reply.getSerializationFunction('200') as Serialise;
    return reply.send('');
  });
  await app.inject('/');
  await app.close();
  if (!serialise) throw new Error('no serialiser');
  return serialise;
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

/** 2 × 200 timed runs of each side, alternating; p50 and p95 in ms. */
function measure(payload: unknown, sides: Record<string, Serialise>) {
  const names = Object.keys(sides);
  for (let i = 0; i < 20; i++) for (const n of names) sides[n]!(payload);
  const ms: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < 2; round++) {
    for (let i = 0; i < 200; i++) {
      for (const n of round % 2 === 0 ? names : [...names].reverse()) {
        const t = process.hrtime.bigint();
        sides[n]!(payload);
        ms[n]!.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
    }
  }
  return Object.fromEntries(names.map((n) => [n, { p50_ms: +quantile(ms[n]!, 0.5).toFixed(3), p95_ms: +quantile(ms[n]!, 0.95).toFixed(3) }]));
}

async function main() {
  const { trend, series } = await answers();
  // The same series with a sample in ten missing (null), as a night with gaps has.
  const gaps = JSON.parse(JSON.stringify(series), (key, value: unknown) => (key === 'dataset' ? (value as Array<number | null>).map((v, i) => (i % 10 === 0 ? null : v)) : value)) as unknown;
  const seriesSchema = analyticsEndpoints['GET /analytics/patient/type=:type'].response[200];
  const cases = [
    ['trend (90 nights, 8 codes)', trend, analyticsEndpoints['GET /analytics/patient-trendview/type=:type'].response[200]],
    ['series (1 night, 3 channels at 1 Hz)', series, seriesSchema],
    ['series, 1 sample in 10 missing', gaps, seriesSchema],
  ] as const;
  for (const [name, payload, schema] of cases) {
    const compiled = await routeSerialiser({ response: { 200: schema } });
    const json = JSON.stringify(payload);
    const same = compiled(payload) === json ? 'identical text' : JSON.stringify(JSON.parse(compiled(payload))) === json ? 'same JSON' : 'DIFFERENT';
    console.log(`${name}: ${(Buffer.byteLength(json) / 1024).toFixed(1)} KiB, serialiser output ${same}`);
    console.table(measure(payload, { 'JSON.stringify': (p) => JSON.stringify(p), 'route serialiser': compiled }));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
