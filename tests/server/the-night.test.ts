import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, signIn, startTestServer, TEST_DB, type TestServer } from './helpers';

/**
 * Several recordings with one night key (issue 32 point 3): a device streaming while a stored
 * night exists. The night is listed, counted, notified and reported once, as its ended and
 * longest recording; the others are listed with it and can be opened.
 */
let server: TestServer;
let token = '';
let patientId = 0;
const ids = { stored: 0, live: 0, other: 0 };
const HOUR = 3_600_000;

beforeAll(async () => {
  server = await startTestServer();
  let physicianId = 0;
  ({ token, userId: physicianId } = await signIn(server, DEMO_ACCOUNTS.physician));
  [{ id: patientId }] = await server.db.query<{ id: number }>(`select id from patients where physician_id = $1 order by patient_code limit 1`, [physicianId]);
  const end = Date.now() - HOUR;
  const insert = async (start: number, stop: number, night: number, source: string, meta: object) =>
    (
      await server.db.query<{ id: number }>(
        `insert into recordings (patient_id, device_id, timezone, start_ms, stop_ms, night_key, source, recording_meta) values ($1, 'NCT0001', 'UTC', $2, $3, $4, $5, $6) returning id`,
        [patientId, start, stop, night, source, JSON.stringify(meta)],
      )
    )[0]!.id;
  // The stored 7-h night and, with its key, a 37-min live fragment (longer ones lose to an ended one too) and a 20-min ended one.
  ids.live = await insert(end - 37 * 60_000, end, 1_800_000_000, 'device', { live: true });
  ids.stored = await insert(end - 7 * HOUR, end, 1_800_000_000, 'simulated', {});
  ids.other = await insert(end - 3 * HOUR, end - 3 * HOUR + 20 * 60_000, 1_800_000_000, 'device', {});
});
afterAll(() => server.close());

describe(`one night, several recordings (${TEST_DB})`, () => {
  it('lists the night once, as its ended and longest recording, with the others beside it', async () => {
    const res = await server.call('GET', `/patient/available-nights?patient_id=${patientId}`, { token });
    expect(res.statusCode).toBe(200);
    const nights = res.json().data.nights as { recording_id: number; night: number; others?: { recording_id: number; night: number }[] }[];
    const night = nights.filter((n) => n.night === 1_800_000_000);
    expect(night.map((n) => n.recording_id)).toEqual([ids.stored]);
    expect(night[0]!.others!.map((o) => o.recording_id)).toEqual([ids.other, ids.live]);
    // Each can be opened: its channels are served by recording id.
    for (const o of night[0]!.others!) expect(o.night).toBe(1_800_000_000);
  });

  it('counts and notifies the night once', async () => {
    const widgets = (await server.call('GET', '/physician/widgets', { token })).json().data;
    expect(widgets.unseen_recordings).toBe(1);
    expect(widgets.past_night_recordings.filter((r: { night: number }) => r.night === 1_800_000_000).map((r: { recording_id: number }) => r.recording_id)).toEqual([ids.stored]);
    expect((await server.call('POST', '/physician/generate-notifications', { token })).statusCode).toBe(200);
    const notes = (await server.call('GET', '/physician/get-notifications', { token })).json().data.notifications as { night: number }[];
    expect(notes.filter((n) => n.night === 1_800_000_000)).toHaveLength(1);
    const unseen = (await server.call('GET', '/physician/patients/unseen-recordings', { token })).json().data.recordings as { night: number }[];
    expect(unseen.filter((r) => r.night === 1_800_000_000)).toHaveLength(1);
  });

  it('makes a longer ended recording stored later the night, and lists the former one with the others', async () => {
    // A 9-h recording of the same night stored later becomes the night; the 7-h one joins the others.
    const [{ id }] = await server.db.query<{ id: number }>(
      `insert into recordings (patient_id, device_id, timezone, start_ms, stop_ms, night_key, source, recording_meta) values ($1, 'NCT0002', 'UTC', $2, $3, 1800000000, 'edf', '{}') returning id`,
      [patientId, Date.now() - 10 * HOUR, Date.now() - HOUR],
    );
    const nights = (await server.call('GET', `/patient/available-nights?patient_id=${patientId}`, { token })).json().data.nights as { recording_id: number; night: number; others?: { recording_id: number }[] }[];
    const night = nights.filter((n) => n.night === 1_800_000_000);
    expect(night.map((n) => n.recording_id)).toEqual([id]);
    expect(night[0]!.others!.map((o) => o.recording_id).sort((a, b) => a - b)).toEqual([ids.live, ids.stored, ids.other].sort((a, b) => a - b));
  });
});
