// The practice's calendar, appointments and settings (issue 17 point 5).
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, DEMO_ACCOUNTS, signIn, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let physician = '';
let secondary = '';
let annotator = '';
let admin = '';
let stranger = '';
let patientId = 0;
let spareId = 0;
/** A month well ahead, so every date in it is a valid check-up day. */
const month = DateTime.utc().plus({ months: 3 }).startOf('month');
const day = (n: number) => month.plus({ days: n - 1 }).toISODate()!;

beforeAll(async () => {
  server = await startTestServer();
  physician = (await signIn(server, DEMO_ACCOUNTS.physician)).token;
  secondary = (await signIn(server, DEMO_ACCOUNTS.secondary)).token;
  annotator = (await signIn(server, DEMO_ACCOUNTS.annotator)).token;
  admin = (await signIn(server, DEMO_ACCOUNTS.admin)).token;
  stranger = (await signIn(server, (await createUser(server)).email)).token;
  [{ id: patientId }] = await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1001'`);
  [{ id: spareId }] = await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1002'`);
});
afterAll(() => server.close());

const calendar = (from: string, to: string, token = physician) => server.call('GET', `/practice/calendar?from=${from}&to=${to}`, { token });
type Event = { kind: string; date: string; patient_id: number; patient_code: string; completed?: boolean; device_id?: string; returned?: boolean };

describe('calendar', () => {
  it('shows check-ups, device returns and bookings on the patient’s local day', async () => {
    expect((await server.call('POST', '/patient/add-checkup', { token: physician, body: { patient_id: patientId, checkup_date: day(10) } })).statusCode).toBe(200);
    // A booking that starts at 23:30 UTC on the 14th is the 15th in Auckland; its return at 22:00 UTC on the 19th is the 20th.
    const [{ device_master_id: master, device_id: deviceId }] = await server.db.query<{ device_master_id: number; device_id: string }>(
      `select d.device_master_id, d.device_id from devices d join users u on u.id = d.physician_id where u.email = $1 order by d.device_id desc limit 1`,
      [DEMO_ACCOUNTS.physician],
    );
    const start = month.plus({ days: 13, hours: 23, minutes: 30 }).toMillis();
    const end = month.plus({ days: 18, hours: 22 }).toMillis();
    await server.db.query(
      `insert into device_allocations (device_master_id, patient_id, physician_id, allocation_ms, deallocation_ms, timezone, created_by)
       select $1, $2, physician_id, $3, $4, 'Pacific/Auckland', physician_id from patients where id = $2`,
      [master, spareId, start, end],
    );
    const res = await calendar(day(1), month.endOf('month').toISODate()!);
    expect(res.statusCode).toBe(200);
    const events = res.json().data.events as Event[];
    expect(events).toContainEqual(expect.objectContaining({ kind: 'checkup', date: day(10), patient_id: patientId, patient_code: 'NCT1001', completed: false }));
    expect(events).toContainEqual(expect.objectContaining({ kind: 'booking', date: day(15), patient_id: spareId, device_id: deviceId }));
    expect(events).toContainEqual(expect.objectContaining({ kind: 'return', date: day(20), patient_id: spareId, device_id: deviceId, returned: false }));
    // Sorted by day.
    expect(events.map((e) => e.date)).toEqual([...events.map((e) => e.date)].sort());
    // The annotator sees their physician's calendar.
    expect((await calendar(day(1), day(28), annotator)).json().data.events).toContainEqual(expect.objectContaining({ kind: 'checkup', date: day(10) }));
  });

  it('shows the demo allocations’ returns', async () => {
    const from = DateTime.utc().minus({ days: 10 }).toISODate()!;
    const to = DateTime.utc().plus({ days: 30 }).toISODate()!;
    const events = (await calendar(from, to)).json().data.events as Event[];
    expect(events.some((e) => e.kind === 'return')).toBe(true);
  });

  it('keeps to the practice: another physician sees none of it, an administrator is refused', async () => {
    const events = (await calendar(day(1), day(28), stranger)).json().data.events as Event[];
    expect(events).toEqual([]);
    expect((await calendar(day(1), day(28), admin)).statusCode).toBe(403);
    expect((await server.call('GET', `/practice/calendar?from=${day(1)}&to=${day(2)}`)).statusCode).toBe(401);
  });

  it('answers bad ranges with 400 naming the field', async () => {
    const bad = await calendar('2026-13-01', day(2));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.field).toBe('from');
    const notIso = await server.call('GET', `/practice/calendar?from=yesterday&to=${day(2)}`, { token: physician });
    expect(notIso.statusCode).toBe(400);
    expect(notIso.body).toContain('from');
    const reversed = await calendar(day(5), day(1));
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().data.field).toBe('to');
    const long = await calendar(day(1), month.plus({ days: 70 }).toISODate()!);
    expect(long.statusCode).toBe(400);
    expect(long.json().data.rule).toBe('span');
    expect((await server.call('GET', `/practice/calendar?from=${day(1)}`, { token: physician })).statusCode).toBe(400);
  });
});

describe('appointments', () => {
  it('lists upcoming check-ups soonest first and completed ones on demand', async () => {
    await server.call('POST', '/patient/add-checkup', { token: physician, body: { patient_id: spareId, checkup_date: day(3) } });
    const upcoming = (await server.call('GET', '/practice/appointments', { token: physician })).json().data as Array<{ checkup_date_id: number; checkup_date: string; patient_code: string; completed: boolean }>;
    const mine = upcoming.filter((u) => u.checkup_date >= day(1) && u.checkup_date <= day(28));
    expect(mine.map((u) => [u.checkup_date, u.patient_code])).toEqual([[day(3), 'NCT1002'], [day(10), 'NCT1001']]);
    expect(upcoming.map((u) => u.checkup_date)).toEqual([...upcoming.map((u) => u.checkup_date)].sort());

    const done = mine[0]!;
    expect((await server.call('POST', '/patient/mark-as-complete', { token: physician, body: { patient_id: spareId, checkup_date_id: done.checkup_date_id } })).statusCode).toBe(200);
    const after = (await server.call('GET', '/practice/appointments?when=upcoming', { token: physician })).json().data as Array<{ checkup_date_id: number }>;
    expect(after.map((u) => u.checkup_date_id)).not.toContain(done.checkup_date_id);
    const past = (await server.call('GET', '/practice/appointments?when=past', { token: annotator })).json().data as Array<{ checkup_date_id: number; completed: boolean }>;
    expect(past).toContainEqual(expect.objectContaining({ checkup_date_id: done.checkup_date_id, completed: true }));
  });

  it('keeps to the practice and checks its input', async () => {
    expect((await server.call('GET', '/practice/appointments', { token: stranger })).json().data).toEqual([]);
    expect((await server.call('GET', '/practice/appointments', { token: admin })).statusCode).toBe(403);
    const bad = await server.call('GET', '/practice/appointments?when=tomorrow', { token: physician });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('when');
  });
});

describe('settings', () => {
  const settings = async (token = physician) => (await server.call('GET', '/practice/settings', { token })).json().data;

  it('gathers the analytics settings, label map and categories, saved through their routes', async () => {
    const before = await settings();
    expect(before).toMatchObject({ desaturation_rule: 3, rii_divisor: 'TBT', label_map: {}, editable: { analytics: true, label_map: true, categories: true } });
    expect(before.categories.filter((c: { type: string }) => c.type === 'built-in').map((c: { label: string }) => c.label)).toEqual(expect.arrayContaining(['Apnea', 'Desaturation']));

    expect((await server.call('POST', '/physician/update-analytics-settings', { token: physician, body: { desaturation_rule: 4, rii_divisor: 'TST' } })).statusCode).toBe(200);
    expect((await server.call('POST', '/recordings/label-map', { token: physician, body: { label_map: { 'Pleth SpO2': 'SPO2' } } })).statusCode).toBe(200);
    const added = await server.call('POST', '/patient/add-label', { token: physician, body: { patient_id: patientId, label: 'Snoring', color_code: '#3366CC' } });
    expect(added.statusCode).toBe(201);

    const after = await settings();
    expect(after).toMatchObject({ desaturation_rule: 4, rii_divisor: 'TST', label_map: { 'Pleth SpO2': 'SPO2' } });
    expect(after.categories).toContainEqual(expect.objectContaining({ label: 'Snoring', type: 'custom', patient_id: patientId, patient_code: 'NCT1001', color_code: '#3366CC' }));
  });

  it('says who may change what; other practices and administrators see none of it', async () => {
    expect((await settings(secondary)).editable).toEqual({ analytics: false, label_map: true, categories: true });
    expect((await settings(annotator)).editable).toEqual({ analytics: false, label_map: false, categories: true });
    const other = await settings(stranger);
    expect(other.categories.every((c: { type: string }) => c.type === 'built-in')).toBe(true);
    expect(other.label_map).toEqual({});
    expect((await server.call('GET', '/practice/settings', { token: admin })).statusCode).toBe(403);
    expect((await server.call('GET', '/practice/settings')).statusCode).toBe(401);
  });
});
