import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../server/auth/tokens';
import { importFiles } from '../../server/recordings/import';
import type { RouteEntry } from '../../server/input-guard';
import { DEMO_ACCOUNTS, signIn, startTestServer, TEST_DB, type TestServer } from './helpers';

/**
 * Every registered route (enumerated by the app's onRoute hook, so a new route is fuzzed
 * without touching this file) gets generated bad input — numbers beyond int32 and beyond
 * double, Infinity, NUL bytes, long strings, wrong types, deep JSON — mixed with real ids
 * so the bad value reaches the database. No answer may be 5xx, and no bad value may reach
 * the database unchecked (code invalid_value: a schema left a field open).
 */

const PER_ROUTE_SIGNED_IN = 20;
const PER_ROUTE_ANONYMOUS = 5;
/** Fixed so a failure reproduces; FUZZ_SEED=n explores other inputs. */
const SEED = Number(process.env.FUZZ_SEED ?? 1313);

let server: TestServer;
let token = '';
let physicianId = 0;
const real: Record<string, unknown> = {};

beforeAll(async () => {
  server = await startTestServer();
  const signedIn = await signIn(server, DEMO_ACCOUNTS.physician);
  token = signedIn.token;
  physicianId = signedIn.userId;
  const [patient] = await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1004'`);
  const bytes = new Uint8Array(readFileSync(new URL('../fixtures/real/sleepedf_SC4001E0_short_psg.edf', import.meta.url)));
  const { recordingId } = await importFiles(server.db, { patientId: patient.id, deviceId: null, createdBy: physicianId, timezone: 'UTC', files: [{ name: 'psg.edf', bytes }] });
  const [night] = await server.db.query<{ night_key: number; start_ms: number; stop_ms: number }>('select night_key, start_ms, stop_ms from recordings where id = $1', [recordingId]);
  Object.assign(real, {
    patient_id: patient.id,
    user_id: patient.id,
    id: patient.id,
    recording_id: recordingId,
    night: night.night_key,
    recording_date: new Date(night.night_key * 1000).toISOString().slice(0, 10),
    device_start_time: night.start_ms / 1000,
    device_stop_time: night.stop_ms / 1000,
    start_date: new Date(night.start_ms).toISOString().slice(0, 10),
    end_date: new Date(night.stop_ms).toISOString().slice(0, 10),
    code: 'EEG',
    type: 'SPO2',
    kpi: 'RII',
  });
}, 120_000);
afterAll(() => server?.close());

/** Field names the routes read, beyond those their schemas list (a route may read a field its schema leaves open). */
const COMMON_FIELDS = [
  'patient_id', 'recording_id', 'id', 'user_id', 'night', 'recording_date', 'device_id', 'device_master_id', 'comment', 'label', 'color_code',
  'annotation_map_id', 'version', 'label_id', 'checkup_date', 'checkup_date_id', 'start_date', 'end_date', 'code', 'type', 'kpi', 'start_time', 'end_time',
  'first_name', 'last_name', 'height', 'weight', 'date_of_birth', 'gender', 'country', 'patient_code', 'diseaseIds', 'vital_parameters', 'tags', 'address',
  'device_allocation_date', 'device_deallocation_date', 'allocation_date', 'deallocation_date', 'note', 'exp', 'sig', 'desaturation_rule', 'rii_divisor',
];

/** Values a careless or hostile client sends. */
const plainBad: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    2 ** 31, -(2 ** 31) - 1, 2 ** 53, 2 ** 63, 1e308, -1e308, 1.5, -1, 0,
    'Infinity', '-Infinity', 'NaN', '1e308', '99999999999999999999', '2147483648', '-0', '0x10', '',
    ' ', 'null', 'true', true, false, null, [], {}, [1, 2], { a: 1 }, [null],
    'x'.repeat(20_000), 'é'.repeat(11_000), 'abc\u0000def', '\u0000', '2026-13-45', '0000-00-00', '9999-12-31', '1970-01-01',
    "'; drop table users; --", '<script>alert(1)</script>', '\uD800', '../../etc/passwd', '%00', '#ff00zz',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ maxLength: 40, unit: 'binary' }),
  fc.integer(),
  fc.double(),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((n) => Number(n)),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null)), { maxKeys: 3 }),
);
const badValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 12, arbitrary: plainBad },
  // Deep nesting as a marker, spliced into the JSON text (JSON.stringify itself would overflow).
  { weight: 1, arbitrary: fc.integer({ min: 40, max: 6000 }).map((n) => `@@deep${n}@@`) },
);

const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);
/** URL-encodes any string (a lone surrogate becomes U+FFFD, as a browser sends it). */
const enc = (text: string) => encodeURIComponent(Buffer.from(text, 'utf8').toString('utf8'));
const str = (v: unknown) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
const spliceDeep = (text: string) => text.replace(/"@@deep(\d+)@@"|@@deep(\d+)@@/g, (_m, a, b) => nest(Number(a ?? b)));

/** A body that is not JSON of an object at all. */
const rawBody = fc.oneof(
  fc.integer({ min: 33, max: 6000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.integer({ min: 33, max: 6000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)),
  fc.constantFrom('{', '{"a":}', 'null', '"\\u0000"', '[1,2,3]', '1e999', '{"__proto__":{"x":1}}', '\u0000', ''),
);

function schemaFields(route: RouteEntry, part: 'body' | 'querystring' | 'params'): string[] {
  const s = (route.schema as Record<string, { properties?: Record<string, unknown> } | undefined> | undefined)?.[part];
  return Object.keys(s?.properties ?? {});
}

interface Fuzzed {
  url: string;
  payload?: string;
  contentType?: string;
}

/** One request: fields real or bad, or a whole body that is not a JSON object. */
function requestFor(route: RouteEntry): fc.Arbitrary<Fuzzed> {
  const params = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const inBody = route.method !== 'GET' && route.method !== 'DELETE';
  const own = schemaFields(route, inBody ? 'body' : 'querystring');
  const extra = COMMON_FIELDS.filter((f) => !own.includes(f));
  // The route's own fields mostly real (so the request gets past the id checks), some bad;
  // up to three fields it does not declare, bad.
  const field = (name: string) => fc.oneof({ weight: 3, arbitrary: fc.constant(real[name] ?? 1) }, { weight: 2, arbitrary: badValue });
  const record = fc
    .tuple(fc.tuple(...own.map(field)), fc.subarray(extra, { maxLength: 3 }).chain((names) => fc.tuple(fc.constant(names), fc.tuple(...names.map(() => badValue)))))
    .map(([ownValues, [names, extraValues]]) => ({
      ...Object.fromEntries(own.map((f, i) => [f, ownValues[i]])),
      ...Object.fromEntries(names.map((f, i) => [f, extraValues[i]])),
    }));
  const paramValues = fc.tuple(...params.map((p) => field(p)));
  return fc.tuple(paramValues, record, fc.option(rawBody, { freq: 6 })).map(([pv, values, raw]) => {
    let url = route.url;
    params.forEach((p, i) => (url = url.replace(`:${p}`, enc(spliceDeep(str(pv[i]))))));
    if (inBody) {
      return { url, payload: raw ?? spliceDeep(JSON.stringify(values)), contentType: 'application/json' };
    }
    const query = Object.entries(values)
      .flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]))
      .map(([k, v]) => `${enc(String(k))}=${enc(spliceDeep(str(v)))}`)
      .join('&');
    return { url: query ? `${url}?${query}` : url };
  });
}

async function send(route: RouteEntry, req: Fuzzed, bearer: string | null) {
  // Signing out must not end the session the other requests use.
  const auth = bearer && route.url.endsWith('/logout') ? await issueToken(server.db, physicianId, 'session') : bearer;
  return server.app.inject({
    method: route.method as 'GET',
    url: req.url,
    payload: req.payload,
    headers: { ...(auth ? { authorization: `Bearer ${auth}` } : {}), ...(req.contentType ? { 'content-type': req.contentType } : {}) },
    remoteAddress: '127.0.0.1',
  });
}

describe(`fuzzing every route with bad input (${TEST_DB})`, () => {
  it('never answers 5xx and never lets a bad value reach the database, signed in or not', async () => {
    const routes = server.app.apiRoutes.filter((r) => r.url.startsWith('/api/'));
    expect(routes.length).toBeGreaterThan(60);
    const failures: string[] = [];
    let requests = 0;
    for (const route of routes) {
      for (const [who, runs] of [['physician', PER_ROUTE_SIGNED_IN], ['anonymous', PER_ROUTE_ANONYMOUS]] as const) {
        const result = await fc.check(
          fc.asyncProperty(requestFor(route), async (req) => {
            requests++;
            const res = await send(route, req, who === 'physician' ? token : null);
            const bad = res.statusCode >= 500 || (res.statusCode === 400 && res.json().code === 'invalid_value');
            if (bad) failures.push(`${route.method} ${req.url.slice(0, 200)} ${String(req.payload ?? '').slice(0, 200)} as ${who} → ${res.statusCode} ${res.body.slice(0, 300)}`);
            return !bad;
          }),
          { numRuns: runs, seed: SEED, endOnFailure: true },
        );
        expect(result.numRuns).toBeGreaterThan(0);
      }
    }
    expect(requests).toBeGreaterThan(1500);
    expect(failures).toEqual([]);
  }, 300_000);
});
