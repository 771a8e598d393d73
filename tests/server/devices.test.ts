import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarDays, operationOf } from '../../server/devices/allocations';
import { DEMO_ACCOUNTS, signIn, startTestServer, type TestServer } from './helpers';

const DAY = 86_400_000;
let server: TestServer;
let physician = '';
let admin = '';
let annotator = '';
const ids: Record<string, number> = {};
const devices: Record<string, number> = {};
const today = Math.floor(Date.now() / DAY) * DAY;

beforeAll(async () => {
  server = await startTestServer();
  physician = (await signIn(server, DEMO_ACCOUNTS.physician)).token;
  admin = (await signIn(server, DEMO_ACCOUNTS.admin)).token;
  annotator = (await signIn(server, DEMO_ACCOUNTS.annotator)).token;
  for (const r of await server.db.query<{ id: number; patient_code: string }>('select id, patient_code from patients')) ids[r.patient_code] = r.id;
  for (const r of await server.db.query<{ device_master_id: number; device_id: string }>('select device_master_id, device_id from devices')) devices[r.device_id] = r.device_master_id;
  // A patient with no device yet (the other demo patients hold one from a week ago to a week ahead).
  const [physicianRow] = await server.db.query<{ id: number }>('select id from users where email = $1', [DEMO_ACCOUNTS.physician]);
  const [free] = await server.db.query<{ id: number }>(
    `insert into patients (patient_code, physician_id, created_by, gender, country) values ('FREE01', $1, $1, 'M', 'Switzerland') returning id`,
    [physicianRow.id],
  );
  ids.FREE01 = free.id;
});
afterAll(() => server.close());

const op = (body: object, token = physician) => server.call('POST', '/device/device-operation', { token, body });
const deploy = (patient: string, device: string, fromDays: number, nights: number, extra: object = {}) =>
  op({ patient_id: ids[patient], device_master_id: devices[device], device_allocation_date: today + fromDays * DAY + 12 * 3_600_000, device_deallocation_date: today + (fromDays + nights) * DAY + 12 * 3_600_000, allocate_device: true, ...extra });

describe('operation from flags (spec 1 §4)', () => {
  it.each([
    [{ cancel_device: true, allocate_device: true, change_allocation_times: true }, 'cancel'],
    [{ change_allocation_times: true }, 'extend'],
    [{ change_allocation_times: true, force_extend: true }, 'force-extend'],
    [{ allocate_device: true }, 'deploy'],
    [{ allocate_device: true, force_extend: true }, 'force-deploy'],
    [{ country: 'Switzerland' }, 'force-deploy'],
    [{}, null],
  ])('%j → %s', (flags, expected) => expect(operationOf(flags)).toBe(expected));
});

describe('device operations', () => {
  it('lists the devices free for a range', async () => {
    const res = await server.call('GET', `/physician/available-devices?allocation_time=${today + DAY}&deallocation_time=${today + 3 * DAY}`, { token: physician });
    expect(res.json().data.map((d: { device_id: string }) => d.device_id)).toEqual(['NCT0005', 'NCT0006']);
    const dates = await server.call('GET', '/physician/available-devices-dates', { token: physician });
    expect(dates.json().data.calendar_available_dates.length).toBeGreaterThan(30);
  });

  it('offers as free dates exactly the local days on which a device is free all day, in the zone asked for', async () => {
    // Book every demo device of the practice for local days 3..5 in New York, so those days fall out.
    const zone = 'America/New_York';
    const days = calendarDays(zone, 60);
    const mapped = await server.db.query<{ device_master_id: number }>(
      `select m.device_master_id from physician_devices m join users u on u.id = m.physician_id where u.email = $1`,
      [DEMO_ACCOUNTS.physician],
    );
    const [patient] = await server.db.query<{ id: number; physician_id: number }>('select id, physician_id from patients where id = $1', [ids.FREE01]);
    const booked: number[] = [];
    for (const m of mapped) {
      // A patient of its own per device (a patient holds one device at a time), and only where the
      // device is not booked already then (a device holds one patient at a time).
      const [own] = await server.db.query<{ id: number }>(
        `insert into patients (patient_code, physician_id, created_by, gender, country) values ($1, $2, $2, 'M', 'Switzerland') returning id`,
        [`FREEDAY${m.device_master_id}`, patient.physician_id],
      );
      const rows = await server.db.query<{ id: number }>(
        `insert into device_allocations (device_master_id, patient_id, physician_id, allocation_ms, deallocation_ms, window_start_time, window_end_time, timezone, status, created_by)
         select $1, $2, $3, $4, $5, '19:00', '07:00', $6, 'booked', $3
         where not exists (select 1 from device_allocations where device_master_id = $1 and status = 'booked' and allocation_ms < $5 and deallocation_ms > $4)
         returning device_user_map_id as id`,
        [m.device_master_id, own.id, patient.physician_id, days[3]!.from, days[6]!.from, zone],
      );
      booked.push(...rows.map((r) => r.id));
    }
    try {
      const res = await server.call('GET', `/physician/available-devices-dates?timezone=${encodeURIComponent(zone)}`, { token: physician });
      expect(res.statusCode).toBe(200);
      const offered: string[] = res.json().data.calendar_available_dates;
      // The oracle: the free-devices call, day by day, over the same local days.
      const expected: string[] = [];
      for (const d of days) {
        const free = await server.call('GET', `/physician/available-devices?allocation_time=${d.from}&deallocation_time=${d.to}`, { token: physician });
        if (free.json().data.length > 0) expected.push(d.date);
      }
      expect(offered).toEqual(expected);
      expect(offered).not.toContain(days[4]!.date);
      expect(offered.length).toBeGreaterThan(0);
    } finally {
      await server.db.query('delete from device_allocations where device_user_map_id = any($1::int[])', [booked]);
    }
  });

  it('refuses an unknown time zone for the free dates with the field named', async () => {
    const res = await server.call('GET', '/physician/available-devices-dates?timezone=Mars/Olympus_Mons', { token: physician });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('timezone');
  });

  it('deploys, then refuses an overlapping deploy of the same device as occupied', async () => {
    const ok = await deploy('NCT1005', 'NCT0005', 1, 3);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toContain('success');
    const taken = await deploy('FREE01', 'NCT0005', 2, 2);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain('occupied');
    expect(taken.json().data.errors[0]).toMatch(/^This device is already reserved for patient NCT1005 from \d{2} \w{3} \d{4} to \d{2} \w{3} \d{4}\.$/);
  });

  it('refuses a second device for a patient who has one for those dates', async () => {
    const res = await deploy('NCT1005', 'NCT0006', 2, 1);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('This patient is already assigned to other device during these dates.');
    expect(res.json().data.errors[0]).toMatch(/^This patient is already assigned NCT0005 device for future dates start from .* to .*\.$/);
  });

  it('force-deploy cancels a booking that has not started', async () => {
    const res = await deploy('FREE01', 'NCT0005', 2, 2, { force_extend: true });
    expect(res.statusCode).toBe(200);
    const [old] = await server.db.query<{ status: string }>(`select status from device_allocations where patient_id = $1 and device_master_id = $2`, [ids.NCT1005, devices.NCT0005]);
    expect(old.status).toBe('cancelled');
  });

  it('refuses dates outside the physician\'s holding, unmapped devices and the past', async () => {
    const far = await deploy('NCT1005', 'NCT0006', 360, 10);
    expect(far.json().message).toBe('Dates are out of range from physician device allocation.');
    const [extra] = await server.db.query<{ device_master_id: number }>(`insert into devices (device_id) values ('NCT0099') returning device_master_id`);
    devices.NCT0099 = extra.device_master_id;
    const unmapped = await deploy('NCT1005', 'NCT0099', 1, 2);
    expect(unmapped.json().message).toContain('mapped');
    const past = await deploy('NCT1005', 'NCT0006', -3, 2);
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe('Deployment for the specified date failed. However you can request admin below');
  });

  it('extends, returns only when confirmed present, keeps the history', async () => {
    const patient = ids.NCT1002; // holds NCT0002 from a week ago to a week ahead
    const [a] = await server.db.query<{ allocation_ms: number; deallocation_ms: number }>(`select allocation_ms, deallocation_ms from device_allocations where patient_id = $1 and status = 'booked'`, [patient]);
    const longer = await op({ patient_id: patient, change_allocation_times: true, device_allocation_date: a.allocation_ms, device_deallocation_date: a.deallocation_ms + 3 * DAY });
    expect(longer.json().message).toContain('success');
    const unconfirmed = await op({ patient_id: patient, return_device: true });
    expect(unconfirmed.statusCode).toBe(400);
    // Returned five days after it was handed out (two days ago): the demo clinic is seeded once per
    // run, so its dates are read back rather than assumed from the clock, which may pass midnight.
    const returned = a.allocation_ms + 5 * DAY;
    const late = await op({ patient_id: patient, return_device: true, confirm_device_present: true, return_date: returned });
    expect(late.json().data.allocation).toMatchObject({ status: 'returned', returned_ms: returned, deallocation_ms: returned });
    const history = await server.call('POST', '/device/device-history', { token: annotator, body: { patient_id: patient } });
    expect(history.json().data.history).toEqual([expect.objectContaining({ device_id: 'NCT0002', is_device_returned: true, nights: 5, device_allocation_date: a.allocation_ms })]);
  });

  it('two simultaneous deploys of one device: exactly one succeeds, the other is occupied', async () => {
    const [a, b] = await Promise.all([deploy('NCT1001', 'NCT0006', 10, 2), deploy('NCT1004', 'NCT0006', 11, 2)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect([a, b].find((r) => r.statusCode === 409)!.json().message).toContain('occupied');
    const [n] = await server.db.query<{ n: number }>(`select count(*)::int as n from device_allocations where device_master_id = $1 and status = 'booked'`, [devices.NCT0006]);
    expect(n.n).toBe(1);
  });

  it('future allocations can be listed and cancelled', async () => {
    const list = await server.call('POST', '/device/future-allocations', { token: physician, body: { device_id: 'NCT0006' } });
    expect(list.json().data.allocations).toHaveLength(1);
    const res = await server.call('POST', '/device/cancel-future-allocations', { token: physician, body: { device_id: 'NCT0006' } });
    expect(res.json().data.cancelled).toBe(1);
  });

  it('refuses a country that is not a known name or code with a clear error, never a 500', async () => {
    for (const country of [5, 'Atlantis', { name: 'Switzerland' }]) {
      const res = await op({ patient_id: ids.NCT1005, device_master_id: devices.NCT0006, allocate_device: true, country, device_allocation_date: today + 30 * DAY, device_deallocation_date: today + 31 * DAY });
      expect(res.statusCode, JSON.stringify(country)).toBe(400);
      expect(res.json().message).toMatch(/country/);
    }
    const [n] = await server.db.query<{ n: number }>(`select count(*)::int as n from device_allocations where patient_id = $1 and allocation_ms = $2`, [ids.NCT1005, today + 30 * DAY]);
    expect(n.n).toBe(0);
  });

  it('annotators cannot operate devices', async () => {
    expect((await deploy('NCT1005', 'NCT0006', 20, 1, {})).statusCode).toBe(200);
    const res = await op({ patient_id: ids.NCT1005, cancel_device: true }, annotator);
    expect(res.statusCode).toBe(403);
  });
});

describe('past-date deployment requests', () => {
  it('a physician asks, an admin approves, the device is deployed in the past', async () => {
    const from = today - 10 * DAY;
    const req = await server.call('POST', '/device/deploy-device-in-past-date', { token: physician, body: { patient_id: ids.NCT1004, device_id: 'NCT0006', allocation_date: from, deallocation_date: from + 2 * DAY } });
    expect(req.statusCode).toBe(201);
    expect((await server.call('GET', '/admin/deploy-requests', { token: physician })).statusCode).toBe(403);
    const list = (await server.call('GET', '/admin/deploy-requests', { token: admin })).json().data.requests;
    const mine = list.find((r: { id: number }) => r.id === req.json().data.request_id);
    expect(mine).toMatchObject({ status: 'pending', patient_code: 'NCT1004', device_id: 'NCT0006' });
    const approve = await server.call('POST', `/admin/deploy-requests/${mine.id}/approve`, { token: admin, body: {} });
    expect(approve.json().code).toBe('request_approved');
    const [a] = await server.db.query<{ n: number }>(`select count(*)::int as n from device_allocations where patient_id = $1 and allocation_ms = $2`, [ids.NCT1004, from]);
    expect(a.n).toBe(1);
    expect((await server.call('POST', `/admin/deploy-requests/${mine.id}/deny`, { token: admin, body: {} })).statusCode).toBe(409);
  });
});

describe('the data centre and the patient list', () => {
  it('computes device statuses', async () => {
    const res = await server.call('GET', '/datacenter/getAllRecordingDevicesOfPatients', { token: physician });
    const byId = Object.fromEntries(res.json().data.devices.map((d: { device_id: string; status: string }) => [d.device_id, d.status]));
    expect(byId.NCT0001).toBe('inactive'); // deployed, no recording last night (no nights seeded here)
    expect(byId.NCT0002).toBe('archive_ready'); // returned above by NCT1002, who is not archived yet
    expect(byId.NCT0005).toBe('pending'); // booked for FREE01 in the coming days
  });

  it('the patient details carry the current allocation', async () => {
    const info = (await server.call('GET', `/patient/details?patient_id=${ids.NCT1003}`, { token: physician })).json().data.patient_info;
    expect(info).toMatchObject({ device_id: 'NCT0004', device_master_id: devices.NCT0004, timezone: 'Europe/Zurich', window_start_time: '19:00:00' });
    expect(info.device_deallocation_date).toBeGreaterThan(Date.now());
  });

  it('archiving cancels bookings that have not started', async () => {
    const ok = await server.call('POST', '/physician/update-patient-status', { token: physician, body: { patient_id: ids.FREE01, archive: true } });
    expect(ok.statusCode).toBe(200);
    const left = await server.db.query(`select 1 from device_allocations where patient_id = $1 and status = 'booked'`, [ids.FREE01]);
    expect(left).toEqual([]);
  });

  it('archives a patient after returning the device, confirmed', async () => {
    const patient = ids.NCT1001;
    const refused = await server.call('POST', '/physician/update-patient-status', { token: physician, body: { patient_id: patient, archive: true } });
    expect(refused.statusCode).toBe(400);
    const ok = await server.call('POST', '/physician/update-patient-status', { token: physician, body: { patient_id: patient, archive: true, confirm_device_returned: true } });
    expect(ok.statusCode).toBe(200);
    const list = (await server.call('GET', '/physician/patients', { token: physician })).json().data.patients.map((p: { patient_code: string }) => p.patient_code);
    expect(list).not.toContain('NCT1001');
    const archive = (await server.call('GET', '/physician/patients?archive=true', { token: physician })).json().data.patients.map((p: { patient_code: string }) => p.patient_code);
    expect(archive).toContain('NCT1001');
  });
});
