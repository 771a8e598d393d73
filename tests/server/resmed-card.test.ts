import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, signIn, startTestServer, type TestServer } from './helpers';
import { uploadFiles } from './multipart';
import { appleDouble } from '../apple-double';

// A ResMed AirSense 10 card as it comes (cpap-lib's real card, tests/fixtures/real/README.md):
// one night's DATALOG folder of seven mask sessions, one of them shorter than a minute, whose
// three files hold a header and no data record (-1), and the card's STR.edf beside it.

const FOLDER = new URL('../fixtures/real/cpaplib_as10_20230822/', import.meta.url);
const STR = { name: 'STR.edf', bytes: new Uint8Array(readFileSync(new URL('../fixtures/real/cpaplib_as10_STR.edf', import.meta.url))) };
const ALL = readdirSync(FOLDER).sort().map((name) => ({ name, bytes: new Uint8Array(readFileSync(new URL(name, FOLDER))) }));
/** The session of 22:49:24 that stopped before its first record. */
const EMPTY = ALL.filter((f) => f.name.startsWith('20230822_224924_'));
const WITH_DATA = ALL.filter((f) => !EMPTY.includes(f));
const NO_RECORDS = 'number of data records: is -1 (recording in progress: the header was never completed) and the file holds no data records';

let server: TestServer;
let token = '';
const ids: Record<string, number> = {};

beforeAll(async () => {
  server = await startTestServer();
  token = (await signIn(server, DEMO_ACCOUNTS.physician)).token;
  for (const r of await server.db.query<{ id: number; patient_code: string }>(`select id, patient_code from patients where patient_code in ('NCT1002', 'NCT1003', 'NCT1004', 'NCT1005')`)) ids[r.patient_code] = r.id;
});
afterAll(() => server.close());

const upload = (patient: string, files: Array<{ name: string; bytes: Uint8Array }>) => uploadFiles(server, token, { patient_id: String(ids[patient]), timezone: 'Europe/Zurich' }, files);

/** What a patient has stored: nights, channels with their sample counts, files, device events, device summary days. */
async function stored(patient: string) {
  const [n] = await server.db.query<{ nights: number; files: number; events: number; days: number }>(
    `select (select count(*) from recordings where patient_id = $1)::int as nights,
            (select count(*) from recording_files f join recordings r on r.id = f.recording_id where r.patient_id = $1)::int as files,
            (select count(*) from device_events e join recordings r on r.id = e.recording_id where r.patient_id = $1)::int as events,
            (select count(*) from device_summaries where patient_id = $1)::int as days`,
    [ids[patient]],
  );
  const channels = await server.db.query<{ code: string; sample_count: number }>(
    'select c.code, c.sample_count from recording_channels c join recordings r on r.id = c.recording_id where r.patient_id = $1 order by c.code',
    [ids[patient]],
  );
  return { ...n, channels };
}

describe('a ResMed card as it comes', () => {
  it('leaves a mask session with no data record out of its night folder, says so, and stores the night as without it', async () => {
    const without = await upload('NCT1004', WITH_DATA);
    expect(without.statusCode).toBe(201);
    // Sent in another order than by name (a browser's folder order): listed by name all the same.
    const res = await upload('NCT1005', [...ALL].reverse());
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data.skipped_files).toEqual(EMPTY.map((f) => ({ name: f.name, reason: 'no_data', problem: NO_RECORDS })));
    expect(res.json().message).toContain(`3 left out (no data: ${EMPTY.map((f) => f.name).join(', ')})`);
    // The same night, channel for channel and sample for sample, as the upload without those files.
    const a = without.json().data;
    expect([data.recording_start_time, data.recording_stop_time, data.device_events]).toEqual([a.recording_start_time, a.recording_stop_time, a.device_events]);
    expect(data.channels).toEqual(a.channels);
    const mine = await stored('NCT1005');
    expect(mine).toEqual({ ...(await stored('NCT1004')), days: 0 });
    expect(mine).toMatchObject({ nights: 1, files: WITH_DATA.length, events: 4 });
  });

  it('refuses an upload of only files with no data record, naming each, and stores nothing', async () => {
    const before = await stored('NCT1003');
    const res = await upload('NCT1003', EMPTY);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_recording_file', message: `3 files cannot be read: ${EMPTY.map((f) => `${f.name}: ${NO_RECORDS}`).join('; ')}` });
    expect(await stored('NCT1003')).toEqual(before);
  });

  it("stores the card's daily summary beside the night, and neither when the night is refused", async () => {
    // The summary with a night that cannot be stored: nothing stays, the summary's days neither.
    const refused = await upload('NCT1003', [STR, ...EMPTY]);
    expect(refused.statusCode).toBe(400);
    expect((await stored('NCT1003')).days).toBe(0);
    const res = await upload('NCT1003', [STR, ...ALL]);
    expect(res.statusCode).toBe(201);
    // 18 noon-to-noon days from 21.08.23 (the file's 18 records), 17 with therapy.
    expect(res.json().data.device_summary).toEqual({ files: ['STR.edf'], days_read: 18, days_stored: 17, first_day: '2023-08-21', last_day: '2023-09-06' });
    expect(await stored('NCT1003')).toMatchObject({ nights: 1, files: WITH_DATA.length, days: 17 });
  });

  it("leaves a Mac's \"._\" companion files out of a card folder, saying what they are; and says which files were stored before (decision 1035)", async () => {
    const companions = ALL.map((f) => ({ name: `._${f.name}`, bytes: appleDouble() }));
    const res = await upload('NCT1002', [...companions, ...ALL]);
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data.skipped_files.filter((s: { reason: string }) => s.reason === 'macos_metadata').map((s: { name: string }) => s.name)).toEqual(companions.map((f) => f.name).sort());
    expect(data.skipped_files.filter((s: { reason: string }) => s.reason === 'no_data')).toHaveLength(EMPTY.length);
    expect(res.json().message).toContain(`${ALL.length} left out (macOS metadata, not recordings: ._20230822`);
    expect(await stored('NCT1002')).toMatchObject({ files: expect.any(Number), events: 4 });
    // Companions alone are refused, saying what they are.
    const alone = await upload('NCT1003', companions.slice(0, 1));
    expect(alone.statusCode).toBe(400);
    expect(alone.json().message).toContain(`${companions[0]!.name}: file: is macOS metadata (the "._" companion Finder writes beside a file on an SD card), not a recording`);
    // The folder again with another night's file: the stored files are said to be stored, not "the same as another file".
    const again = await upload('NCT1002', [...WITH_DATA, { name: 'snore_resmed_20251025_005814_BRP.edf', bytes: new Uint8Array(readFileSync(new URL('../fixtures/real/snore_resmed_20251025_005814_BRP.edf', import.meta.url))) }]);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().message).toContain(`; ${WITH_DATA.length} left out (already stored)`);
    expect(again.json().message).not.toContain('the same as another file');
  });
});
