import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelData } from '../../server/recordings/model';
import { saveNight } from '../../server/recordings/store';
import { createUser, DEMO_ACCOUNTS, signIn, startTestServer, type TestServer } from './helpers';

// Issue 36 point 1: the annotation list pages. A night of 1,200 annotations (some at the same
// start), read in pages of 500 by cursor, is the same list as the one answer without a limit;
// a deleted one is in neither; another practice's physician sees no page of it.

let server: TestServer;
let physician = '';
let patientId = 0;
const START = Date.UTC(2026, 3, 9, 21, 30);
const NIGHT = Date.UTC(2026, 3, 9) / 1000;
const TOTAL = 1200;

beforeAll(async () => {
  server = await startTestServer();
  ({ token: physician } = await signIn(server, DEMO_ACCOUNTS.physician));
  patientId = (await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1002'`))[0].id;
  const br: ChannelData = { code: 'BR', label: 'BR', unit: 'br/min', sampleRate: 1, t0: START, storage: 'float32', scale: 1, offset: 0, samples: new Float32Array(10 * 3600).fill(14) };
  await saveNight(server.db, { patientId, deviceId: 'NCT0002', source: 'simulated', createdBy: null, night: { startMs: START, stopMs: START + 10 * 3_600_000, timezone: 'Europe/Zurich', channels: [br], events: [], meta: {} } });
  for (let b = 0; b < TOTAL / 400; b++) {
    // Pairs share a start, so the cursor must order by id within a start.
    const annotations = Array.from({ length: 400 }, (_, i) => ({ kpi: 'BR', start_time: START + Math.floor((b * 400 + i) / 2) * 25_000, duration: '10', label: 1 }));
    const res = await post(physician, '/analytics/patient/new-annotations', { patient_id: patientId, night: NIGHT, annotations });
    expect(res.statusCode).toBe(201);
  }
}, 120_000);
afterAll(() => server.close());

const post = (token: string, url: string, body: object) => server.call('POST', url, { token, body });
type Listed = { annotation_map_id: number; start_ms: number };
const list = async (token: string, extra: object) => (await post(token, '/analytics/patient/get-annotations', { patient_id: patientId, night: NIGHT, ...extra })).json().data as { annotations: Listed[]; next_cursor?: string | null };

async function allPages(limit: number): Promise<{ ids: number[]; pages: number }> {
  const ids: number[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await list(physician, { limit, ...(cursor ? { cursor } : {}) });
    expect(page.annotations.length).toBeLessThanOrEqual(limit);
    ids.push(...page.annotations.map((a) => a.annotation_map_id));
    cursor = page.next_cursor ?? undefined;
    pages++;
  } while (cursor);
  return { ids, pages };
}

describe('the annotation list in pages', () => {
  it('pages by cursor give the whole list, in order, once each', async () => {
    const whole = await list(physician, {});
    expect(whole.annotations).toHaveLength(TOTAL);
    expect(whole.next_cursor).toBeNull();
    const paged = await allPages(500);
    expect(paged.pages).toBe(3);
    expect(paged.ids).toEqual(whole.annotations.map((a) => a.annotation_map_id));
    const starts = whole.annotations.map((a) => a.start_ms);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it('a deleted annotation is on no page; a page boundary inside a shared start loses none', async () => {
    const first = await list(physician, { limit: 3 });
    expect(first.next_cursor).toMatch(/^\d+:\d+$/);
    await post(physician, '/analytics/patient/delete-annotations', { ids: [first.annotations[0].annotation_map_id] });
    const paged = await allPages(401);
    expect(paged.ids).toHaveLength(TOTAL - 1);
    expect(new Set(paged.ids).size).toBe(TOTAL - 1);
    expect(paged.ids).not.toContain(first.annotations[0].annotation_map_id);
  });

  it('refuses a malformed cursor or limit, and answers another practice no page', async () => {
    expect((await post(physician, '/analytics/patient/get-annotations', { patient_id: patientId, night: NIGHT, cursor: 'drop table' })).statusCode).toBe(400);
    expect((await post(physician, '/analytics/patient/get-annotations', { patient_id: patientId, night: NIGHT, limit: 0 })).statusCode).toBe(400);
    const { token: other } = await signIn(server, (await createUser(server)).email);
    const res = await post(other, '/analytics/patient/get-annotations', { patient_id: patientId, night: NIGHT, limit: 10 });
    expect([403, 404]).toContain(res.statusCode);
  });
});

// Decision 0994: the single-night screen reads the same list as columns, in one request or in
// pages; the columns are the list's fields, the authors named once, device events on page one.
type Columns = {
  columns: Record<'annotation_map_id' | 'start_ms' | 'end_ms' | 'label' | 'created_by' | 'version' | 'night' | 'delete_flag' | 'updated_by', number[]> & Record<'type' | 'kpi' | 'comment' | 'color_code', string[]>;
  authors: { id: number; name: string }[];
  device: unknown[];
  next_cursor: string | null;
};
const columns = async (token: string, extra: object) => (await post(token, '/analytics/patient/get-annotation-columns', { patient_id: patientId, night: NIGHT, ...extra })).json().data as Columns;

describe('the annotation list as columns', () => {
  it('holds the list’s annotations and fields, in its order, and names their authors once', async () => {
    const whole = (await post(physician, '/analytics/patient/get-annotations', { patient_id: patientId, night: NIGHT })).json().data.annotations as Array<Listed & Record<string, unknown>>;
    const c = await columns(physician, {});
    expect(c.next_cursor).toBeNull();
    expect(c.columns.annotation_map_id).toEqual(whole.map((a) => a.annotation_map_id));
    for (const field of ['type', 'night', 'kpi', 'start_ms', 'end_ms', 'comment', 'label', 'color_code', 'created_by', 'updated_by', 'delete_flag', 'version'] as const) {
      expect(c.columns[field], field).toEqual(whole.map((a) => a[field]));
    }
    expect(c.authors).toEqual([...new Map(whole.map((a) => [a.created_by, { id: a.created_by, name: a.created_by_name }])).values()]);
  });

  it('pages by cursor, a full page pointing to the next (which may be empty), each annotation once', async () => {
    const whole = (await columns(physician, {})).columns.annotation_map_id;
    const ids: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Columns = await columns(physician, { limit: 400, ...(cursor ? { cursor } : {}) });
      ids.push(...page.columns.annotation_map_id);
      if (pages > 0) expect(page.device).toEqual([]);
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.floor(whole.length / 400) + 1);
    expect(ids).toEqual(whole);
  });

  it('refuses a limit above 20,000 and answers another practice nothing', async () => {
    expect((await post(physician, '/analytics/patient/get-annotation-columns', { patient_id: patientId, night: NIGHT, limit: 20_001 })).statusCode).toBe(400);
    const { token: other } = await signIn(server, (await createUser(server)).email);
    expect([403, 404]).toContain((await post(other, '/analytics/patient/get-annotation-columns', { patient_id: patientId, night: NIGHT })).statusCode);
  });
});
