import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoNights } from '../../server/seed';
import { simulateForPatient } from '../../server/simulator/simulated';
import { nightKey } from '../../server/recordings/night-key';
import { createUser, DEMO_ACCOUNTS, signIn, startTestServer, type TestServer } from './helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ SEED_NIGHTS: '1' });
}, 180_000);
afterAll(() => server.close());

const nightsOf = (code: string) =>
  server.db.query<{ id: number; night_key: number; hours: number; channels: string[]; device_id: string }>(
    `select r.id, r.night_key, (r.stop_ms - r.start_ms) / 3600000.0 as hours, r.device_id,
            array(select code from recording_channels c where c.recording_id = r.id order by code) as channels
     from recordings r join patients p on p.id = r.patient_id where p.patient_code = $1 order by r.start_ms`,
    [code],
  );

describe('the demo nights', () => {
  it('give several patients several nights each, ending last night, one of 10 hours with PSG', async () => {
    const anna = await nightsOf('NCT1001');
    expect(anna).toHaveLength(5);
    expect(Math.max(...anna.map((n) => Number(n.hours)))).toBeGreaterThanOrEqual(10);
    expect(anna.filter((n) => n.channels.includes('NC_PSG'))).toHaveLength(1);
    // The last is the latest night that has ended and is not the night in progress (a device streaming now records that one).
    const now = Date.now();
    const inProgress = nightKey(now, 'Europe/Zurich');
    expect(anna.at(-1)!.night_key).toBe(inProgress - 86_400);
    const [ended] = await server.db.query<{ n: number }>('select count(*)::int as n from recordings where source = $1 and (stop_ms > $2 or night_key >= $3)', ['simulated', now, inProgress]);
    expect(ended!.n).toBe(0);
    expect(new Set(anna.map((n) => n.night_key)).size).toBe(5);
    expect(anna.every((n) => n.device_id === 'NCT0001')).toBe(true);
    for (const code of ['BR', 'HR', 'SPO2', 'PR', 'MOV', 'SLP_STGS', 'SA', 'TB', 'SQB', 'I', 'Q', 'Y_DIST']) expect(anna[0].channels).toContain(code);
    expect((await nightsOf('NCT1002')).length).toBe(3);
    expect((await nightsOf('NCT1004')).length).toBe(3);
  });

  it('get their dashboard triage rows made right after the seed, with no dashboard visit: the first visit has nothing left to analyse', async () => {
    const stored = async () =>
      (await server.db.query<{ nights: number; analysed: number }>(
        `select count(*)::int as nights, count(distinct a.recording_id)::int as analysed from recordings r left join night_analyses a on a.recording_id = r.id`,
      ))[0]!;
    expect((await stored()).nights).toBeGreaterThan(10);
    // Nothing in this test asks for an analysis: the server's background preparation makes them.
    const { token } = await signIn(server, DEMO_ACCOUNTS.physician);
    const triage = () => server.call('GET', '/physician/triage', { token });
    await expect.poll(async () => (await triage()).json().data.pending, { timeout: 240_000, interval: 1000 }).toBe(0);
    const s = await stored();
    expect(s.analysed).toBe(s.nights);
    const res = await triage();
    expect(res.statusCode).toBe(200);
    const data = res.json().data as { pending: number; patients: Array<{ patient_code: string; nights: Array<{ analysed: boolean; lowest_spo2: number | null }> }> };
    expect(data.pending).toBe(0);
    const anna = data.patients.find((p) => p.patient_code === 'NCT1001')!;
    expect(anna.nights).toHaveLength(5);
    expect(anna.nights.every((n) => n.analysed && n.lowest_spo2 !== null)).toBe(true);
  }, 300_000);

  it('keep the ground truth beside each night', async () => {
    const [night] = await nightsOf('NCT1002');
    const [truth] = await server.db.query<{ generator: string; truth: Array<{ kind: string }> }>('select generator, truth from recording_truth where recording_id = $1', [night.id]);
    expect(truth.generator).toMatch(/^nocturne-simulator\//);
    expect(truth.truth.some((e) => e.kind === 'obstructive_apnea')).toBe(true);
    const [events] = await server.db.query<{ n: number }>(`select count(*)::int as n from recording_events where recording_id = $1 and source = 'truth' and text like '%Apnea%'`, [night.id]);
    expect(events.n).toBeGreaterThan(5);
  });

  it('are not simulated twice, and more nights go to evenings without one', async () => {
    expect(await seedDemoNights(server.db)).toBe(0);
    const [lea] = await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1003'`);
    const before = await nightsOf('NCT1003');
    const ids = await simulateForPatient(server.db, { patientId: lea.id, patientCode: 'NCT1003', deviceId: 'NCT0004', timezone: 'Europe/Zurich', nights: 2, profile: 'healthy' });
    expect(ids).toHaveLength(2);
    const after = await nightsOf('NCT1003');
    expect(after).toHaveLength(before.length + 2);
    expect(new Set(after.map((n) => n.night_key)).size).toBe(after.length);
  });

  it('are listed for the annotator through the API', async () => {
    const { token } = await signIn(server, DEMO_ACCOUNTS.annotator);
    const [anna] = await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1001'`);
    const res = await server.call('GET', `/patient/available-nights?patient_id=${anna.id}`, { token });
    expect(res.json().data.nights).toHaveLength(5);
  });
});

describe('the trend of the demo nights', () => {
  const range = () => {
    const to = DateTime.now().setZone('Europe/Zurich').startOf('day').set({ hour: 9 });
    return `device_start_time=${to.minus({ days: 13 }).toSeconds()}&device_stop_time=${to.toSeconds()}`;
  };
  const patientId = async (code: string) => (await server.db.query<{ id: number }>('select id from patients where patient_code = $1', [code]))[0].id;

  it('gives box statistics per night for signals and one value per night for the indices', async () => {
    const { token } = await signIn(server, DEMO_ACCOUNTS.physician);
    const anna = await patientId('NCT1001');
    const res = await server.call('GET', `/analytics/patient-trendview/type=BR,SPO2,RII,AHI,ODI,SE,SQ?patient_id=${anna}&${range()}`, { token });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as Record<string, Array<Record<string, number>>>;
    expect(data.BR).toHaveLength(5);
    for (const p of data.BR) {
      expect(p.min).toBeLessThanOrEqual(p.lowerPercentile);
      expect(p.lowerPercentile).toBeLessThanOrEqual(p.medianPercentile);
      expect(p.medianPercentile).toBeLessThanOrEqual(p.upperPercentile);
      expect(p.upperPercentile).toBeLessThanOrEqual(p.max);
    }
    for (const code of ['RII', 'AHI', 'ODI', 'SE', 'SQ']) {
      expect(data[code], code).toHaveLength(5);
      for (const p of data[code]) expect(p.value, code).toBeGreaterThanOrEqual(0);
    }
    for (const p of [...data.SE, ...data.SQ]) expect(p.value).toBeLessThanOrEqual(100);
    // The same nights, in order.
    expect(data.AHI.map((p) => p.night)).toEqual(data.BR.map((p) => p.night));
    // Severe obstructive apnoea shows a higher AHI than a healthy sleeper, every night.
    const severe = (await server.call('GET', `/analytics/patient-trendview/type=AHI?patient_id=${await patientId('NCT1002')}&${range()}`, { token })).json().data.AHI as Array<{ value: number }>;
    const healthy = (await server.call('GET', `/analytics/patient-trendview/type=AHI?patient_id=${await patientId('NCT1003')}&${range()}`, { token })).json().data.AHI as Array<{ value: number }>;
    // Both patients have nights (Math.min of nothing is Infinity: the comparison alone proves nothing).
    expect(severe.length).toBeGreaterThan(0);
    expect(healthy.length).toBeGreaterThan(0);
    expect(Math.min(...severe.map((p) => p.value))).toBeGreaterThan(Math.max(...healthy.map((p) => p.value)));
    // Demo patients have been followed for two months (every trend duration is offered).
    const details = (await server.call('GET', `/patient/details?patient_id=${anna}`, { token })).json().data.patient_info;
    expect(Date.now() - Date.parse(details.createdAt)).toBeGreaterThan(59 * 86_400_000);
  });

  it('refuses AHI and ODI to paid memberships, and malformed channel lists', async () => {
    const anna = await patientId('NCT1001');
    await server.db.query(`update users set membership_type = 'paid' where email = $1`, [DEMO_ACCOUNTS.physician]);
    try {
      const { token } = await signIn(server, DEMO_ACCOUNTS.physician);
      expect((await server.call('GET', `/analytics/patient-trendview/type=BR,ODI?patient_id=${anna}&${range()}`, { token })).statusCode).toBe(403);
      expect((await server.call('GET', `/analytics/patient-trendview/type=BR,RII?patient_id=${anna}&${range()}`, { token })).statusCode).toBe(200);
      const bad = await server.call('GET', `/analytics/patient-trendview/type=BR;drop?patient_id=${anna}&${range()}`, { token });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain('Unknown channel');
    } finally {
      await server.db.query(`update users set membership_type = 'non-paid' where email = $1`, [DEMO_ACCOUNTS.physician]);
    }
  });
});

describe('the dashboard over the demo nights', () => {
  it('counts flagged patients, deployed and available devices, and lists the past night', async () => {
    const { token } = await signIn(server, DEMO_ACCOUNTS.physician);
    const res = await server.call('GET', '/physician/widgets', { token });
    expect(res.statusCode).toBe(200);
    const w = res.json().data;
    // NCT1001 and NCT1004 are At Risk (NCT1002 is Control, not flagged); four devices are out, two are free.
    expect(w.flagged_patients).toBe(2);
    expect(w.deployed_devices).toBe(4);
    expect(w.available_devices).toBe(2);
    expect(w.overdue_devices).toBe(0);
    // The past night's list: the recordings that ended within 24 hours (the seeded last night ended
    // within 24 h after noon; before noon the night in progress is left to the devices).
    const [{ n: recent }] = await server.db.query<{ n: number }>('select count(*)::int as n from recordings where stop_ms > $1', [Date.now() - 86_400_000]);
    expect(w.past_night_recordings).toHaveLength(recent);
    expect(w.last_recordings).toHaveLength(5);
    expect(w.unseen_recordings).toBeGreaterThan(0);
    // Annotators have no dashboard.
    const annotator = (await signIn(server, DEMO_ACCOUNTS.annotator)).token;
    expect((await server.call('GET', '/physician/widgets', { token: annotator })).statusCode).toBe(403);
  });

  it('makes one notification per night of the week with its apnea count; a click marks it read', async () => {
    const { token } = await signIn(server, DEMO_ACCOUNTS.physician);
    let created = 0;
    for (let i = 0; i < 2; i++) created += (await server.call('POST', '/physician/generate-notifications', { token })).json().data.created;
    const list = (await server.call('GET', '/physician/get-notifications', { token })).json().data.notifications as Array<{ id: number; patient_code: string; apnea_events: number; is_read: number; night: number }>;
    expect(list.length).toBe(created);
    expect(list.length).toBeGreaterThanOrEqual(13);
    // Generating again adds nothing.
    expect((await server.call('POST', '/physician/generate-notifications', { token })).json().data.created).toBe(0);
    const severe = list.filter((n) => n.patient_code === 'NCT1002');
    const healthy = list.filter((n) => n.patient_code === 'NCT1003');
    expect(severe.length).toBeGreaterThan(0);
    expect(healthy.length).toBeGreaterThan(0);
    expect(Math.min(...severe.map((n) => n.apnea_events))).toBeGreaterThan(Math.max(...healthy.map((n) => n.apnea_events)));
    const unseenBefore = (await server.call('GET', '/physician/widgets', { token })).json().data.unseen_recordings;
    expect((await server.call('POST', `/physician/update-notification/id=${list[0]!.id}`, { token })).statusCode).toBe(200);
    const after = (await server.call('GET', '/physician/get-notifications', { token })).json().data.notifications as typeof list;
    expect(after.find((n) => n.id === list[0]!.id)!.is_read).toBe(1);
    expect((await server.call('GET', '/physician/widgets', { token })).json().data.unseen_recordings).toBe(unseenBefore - 1);
    // Another practice cannot mark it.
    const other = await createUser(server);
    const stranger = (await signIn(server, other.email)).token;
    expect((await server.call('POST', `/physician/update-notification/id=${list[1]!.id}`, { token: stranger })).statusCode).toBe(404);
  });

  it('makes a night seen when its review screen is opened: the unseen count drops, its bell item reads read (issue 32.4)', async () => {
    const { token } = await signIn(server, DEMO_ACCOUNTS.physician);
    const unseen = async () => (await server.call('GET', '/physician/widgets', { token })).json().data.unseen_recordings as number;
    const before = await unseen();
    const [night] = await server.db.query<{ id: number; patient_id: number }>(
      `select r.id, r.patient_id from recordings r join patients p on p.id = r.patient_id left join physician_notifications n on n.recording_id = r.id
       where p.patient_code = 'NCT1002' and coalesce(n.is_read, 0) = 0 and r.stop_ms > $1 order by r.stop_ms desc limit 1`,
      [Date.now() - 7 * 86_400_000],
    );
    expect(night).toBeDefined();
    const open = (t: string, body = { patient_id: night!.patient_id, recording_id: night!.id }) => server.call('POST', '/physician/night-seen', { token: t, body });
    expect((await open(token)).statusCode).toBe(200);
    expect(await unseen()).toBe(before - 1);
    const [n] = await server.db.query<{ is_read: number }>('select is_read from physician_notifications where recording_id = $1', [night!.id]);
    if (n) expect(n.is_read).toBe(1);
    // Opening it again changes nothing; an annotator's view does not make it seen; another practice's is 404.
    expect((await open(token)).statusCode).toBe(200);
    expect(await unseen()).toBe(before - 1);
    expect((await open((await signIn(server, DEMO_ACCOUNTS.annotator)).token)).statusCode).toBe(403);
    const stranger = (await signIn(server, (await createUser(server)).email)).token;
    expect((await open(stranger)).statusCode).toBe(404);
    expect((await open(token, { patient_id: night!.patient_id + 100_000, recording_id: night!.id })).statusCode).toBe(404);
  });

  it('lists devices due back and devices reserved soon', async () => {
    const { token } = await signIn(server, DEMO_ACCOUNTS.physician);
    const [{ id: physician }] = await server.db.query<{ id: number }>('select id from users where email = $1', [DEMO_ACCOUNTS.physician]);
    const [{ id: priya }] = await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1005'`);
    const free = await server.db.query<{ device_master_id: number; device_id: string }>(
      `select d.device_master_id, d.device_id from devices d where d.physician_id = $1 and not exists (select 1 from device_allocations a where a.device_master_id = d.device_master_id) order by d.device_id`,
      [physician],
    );
    const day = 86_400_000;
    const now = Date.now();
    await server.db.query(
      `insert into device_allocations (device_master_id, patient_id, physician_id, allocation_ms, deallocation_ms, timezone, created_by) values ($1, $2, $3, $4, $5, 'Europe/Zurich', $3), ($6, $2, $3, $7, $8, 'Europe/Zurich', $3)`,
      [free[0]!.device_master_id, priya, physician, now - 10 * day, now - 2 * day, free[1]!.device_master_id, now + day, now + 5 * day],
    );
    const res = (await server.call('GET', '/physician/deallocation-notifications', { token })).json().data;
    expect(res.deallocations.map((d: { device_id: string }) => d.device_id)).toEqual([free[0]!.device_id]);
    expect(res.reserved.map((d: { device_id: string }) => d.device_id)).toEqual([free[1]!.device_id]);
    expect((await server.call('GET', '/physician/widgets', { token })).json().data.overdue_devices).toBe(1);
  });

  it('counts devices by the statuses the Data Center lists, and a device out for days that never sent anything is a silent one (issue 32.6)', async () => {
    // The test above left one device overdue with NCT1005, who never recorded (as NCT0006 in the demo).
    const { token } = await signIn(server, DEMO_ACCOUNTS.physician);
    const w = (await server.call('GET', '/physician/widgets', { token })).json().data;
    const listed = (await server.call('GET', '/datacenter/getAllRecordingDevicesOfPatients', { token })).json().data.devices as Array<{ device_id: string; status: string; deployed: boolean; patient_code: string | null }>;
    const overdue = listed.filter((d) => d.status === 'overdue');
    expect(overdue.map((d) => [d.patient_code, d.deployed])).toEqual([['NCT1005', true]]);
    expect(w.overdue_devices).toBe(1);
    expect(w.available_devices).toBe(listed.filter((d) => d.status === 'available').length);
    expect(w.deployed_devices).toBe(listed.filter((d) => d.deployed).length);
    expect(w.deployed_devices).toBe(5);
    expect(w.no_recent_data.map((p: { patient_code: string }) => p.patient_code)).toContain('NCT1005');
    expect(w.no_recent_data.find((p: { patient_code: string }) => p.patient_code === 'NCT1005').last_stop_ms).toBeNull();
  });
});
