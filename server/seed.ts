import { lockForSetup, type Db } from './db/adapter';
import { hashPassword } from './auth/passwords';
import { DAY_MS } from '../engine/constants';

export const DEMO_PASSWORD = 'nocturne-demo';
const SEED_LOCK = 7_270_002;
const SEED_KEY = 'demo_seed';

export const DEMO_ACCOUNTS = {
  physician: 'physician@demo.nocturne.test',
  annotator: 'annotator@demo.nocturne.test',
  annotator2: 'annotator2@demo.nocturne.test',
  admin: 'admin@demo.nocturne.test',
  secondary: 'secondary@demo.nocturne.test',
  paid: 'paid@demo.nocturne.test',
} as const;

/** Vital thresholds as the add-patient form sends them for a new patient (spec 1 §3). */
export const NEW_PATIENT_VITALS = {
  spo2: { modFrom: 90, modTo: 93, sevFrom: 40, sevTo: 89 },
  pr: { modFromF: 100, modToF: 120, modFromS: 60, modToS: 60, sevFromF: 120, sevToF: 160, sevFromS: 0, sevToS: 55 },
  br: { modFromF: 24, modToF: 30, modFromS: 12, modToS: 12, sevFromF: 30, sevToF: 50, sevFromS: 0, sevToS: 10 },
};

const PATIENTS = [
  { code: 'NCT1001', first: 'Anna', last: 'Keller', gender: 'F', born: 1958, height: 164, weight: 71, atRisk: 1, diseases: [2, 5] },
  { code: 'NCT1002', first: 'Marco', last: 'Bianchi', gender: 'M', born: 1971, height: 178, weight: 96, atRisk: 2, diseases: [2, 11] },
  { code: 'NCT1003', first: 'Lea', last: 'Dubois', gender: 'F', born: 1989, height: 170, weight: 62, atRisk: 0, diseases: [4] },
  { code: 'NCT1004', first: 'Jonas', last: 'Weber', gender: 'M', born: 1949, height: 172, weight: 84, atRisk: 1, diseases: [3, 6, 7] },
  { code: 'NCT1005', first: 'Priya', last: 'Nair', gender: 'F', born: 1976, height: 158, weight: 58, atRisk: null, diseases: [1] },
] as const;

const DEVICES = ['NCT0001', 'NCT0002', 'NCT0003', 'NCT0004', 'NCT0005', 'NCT0006'];

/**
 * Seeds the demo clinic once: accounts, patients and devices, in one transaction with
 * the marker that says it was done. Returns false when it had been seeded before.
 */
export async function seedDemo(db: Db): Promise<boolean> {
  const hash = await hashPassword(DEMO_PASSWORD);
  return db.transaction(async (tx) => {
    await lockForSetup(tx, SEED_LOCK);
    const [done] = await tx.query('select 1 from app_meta where key = $1', [SEED_KEY]);
    if (done) return false;

    const [org] = await tx.query<{ id: number }>(`insert into organisations (name) values ('Nocturne Demo Sleep Clinic') returning id`);
    const user = async (email: string, fields: Record<string, unknown>) => {
      const cols = ['email', 'password_hash', 'organisation_id', 'country', ...Object.keys(fields)];
      const values = [email, hash, org.id, 'Switzerland', ...Object.values(fields)];
      const [row] = await tx.query<{ id: number }>(
        `insert into users (${cols.join(', ')}) values (${cols.map((_, i) => `$${i + 1}`).join(', ')}) returning id`,
        values,
      );
      return row.id;
    };
    const physician = await user(DEMO_ACCOUNTS.physician, { first_name: 'Clara', last_name: 'Meier', role: 'physician', membership_type: 'non-paid', phone: '41445550100' });
    await user(DEMO_ACCOUNTS.annotator, { first_name: 'Arun', last_name: 'Rao', role: 'annotator', is_annotator: true, physician_id: physician });
    await user(DEMO_ACCOUNTS.admin, { first_name: 'Alex', last_name: 'Steiner', role: 'admin' });
    await user(DEMO_ACCOUNTS.secondary, { first_name: 'Sofia', last_name: 'Brunner', role: 'physician', is_secondary_user: true, physician_id: physician });

    for (const p of PATIENTS) {
      const bmi = Math.round((p.weight / (p.height / 100) ** 2) * 100) / 100;
      const [row] = await tx.query<{ id: number }>(
        // Demo patients have been followed for two months, so every trend duration is offered.
        `insert into patients (patient_code, physician_id, created_by, first_name, last_name, gender, date_of_birth,
                               at_risk, height, weight, bmi, vital_parameters, country, created_at)
         values ($1, $2, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'Switzerland', now() - interval '60 days') returning id`,
        [p.code, physician, p.first, p.last, p.gender, `${p.born}-01-01`, p.atRisk, p.height, p.weight, bmi, JSON.stringify(NEW_PATIENT_VITALS)],
      );
      for (const d of p.diseases) {
        await tx.query('insert into patient_diseases (patient_id, disease_id) values ($1, $2)', [row.id, d]);
      }
    }
    for (const id of DEVICES) {
      await tx.query('insert into devices (device_id, physician_id) values ($1, $2)', [id, physician]);
    }
    await tx.query('insert into app_meta (key, value) values ($1, $2)', [SEED_KEY, new Date().toISOString()]);
    return true;
  });
}

const PAID_KEY = 'demo_paid';

/**
 * The paid-membership demo physician (issue 16 point 3): works in the demo physician's
 * practice, so the same patients show what differs for paid members (no notifications, no
 * per-KPI summaries or system annotations; spec 1 §6, spec 2 §1). Once, also on databases
 * seeded before the account existed. Only where the demo clinic is seeded (never in production
 * unless SEED_DEMO=1, and start refuses production while it keeps the published password).
 */
export async function seedDemoPaid(db: Db): Promise<boolean> {
  const hash = await hashPassword(DEMO_PASSWORD);
  return db.transaction(async (tx) => {
    await lockForSetup(tx, SEED_LOCK);
    const [done] = await tx.query('select 1 from app_meta where key = $1', [PAID_KEY]);
    if (done) return false;
    const [physician] = await tx.query<{ id: number; organisation_id: number | null }>('select id, organisation_id from users where email = $1', [DEMO_ACCOUNTS.physician]);
    if (!physician) return false;
    await tx.query(
      `insert into users (email, password_hash, organisation_id, country, first_name, last_name, role, membership_type, physician_id, phone)
       values ($1, $2, $3, 'Switzerland', 'Paula', 'Graf', 'physician', 'paid', $4, '41445550101') on conflict (email) do nothing`,
      [DEMO_ACCOUNTS.paid, hash, physician.organisation_id, physician.id],
    );
    await tx.query('insert into app_meta (key, value) values ($1, $2)', [PAID_KEY, new Date().toISOString()]);
    return true;
  });
}

const ANNOTATOR2_KEY = 'demo_annotator2';

/**
 * The demo physician's second annotator (issue 36 point 2): double scoring needs two scorers.
 * Once, also on databases seeded before the account existed; only where the demo clinic is seeded.
 */
export async function seedDemoSecondAnnotator(db: Db): Promise<boolean> {
  const hash = await hashPassword(DEMO_PASSWORD);
  return db.transaction(async (tx) => {
    await lockForSetup(tx, SEED_LOCK);
    const [done] = await tx.query('select 1 from app_meta where key = $1', [ANNOTATOR2_KEY]);
    if (done) return false;
    const [physician] = await tx.query<{ id: number; organisation_id: number | null }>('select id, organisation_id from users where email = $1', [DEMO_ACCOUNTS.physician]);
    if (!physician) return false;
    await tx.query(
      `insert into users (email, password_hash, organisation_id, country, first_name, last_name, role, is_annotator, physician_id)
       values ($1, $2, $3, 'Switzerland', 'Lena', 'Vogt', 'annotator', true, $4) on conflict (email) do nothing`,
      [DEMO_ACCOUNTS.annotator2, hash, physician.organisation_id, physician.id],
    );
    await tx.query('insert into app_meta (key, value) values ($1, $2)', [ANNOTATOR2_KEY, new Date().toISOString()]);
    return true;
  });
}

const NIGHTS_KEY = 'demo_nights';

/** The demo patients' simulated nights: several each, NCT1001's include one of 10 h or more with PSG. */
const DEMO_NIGHTS = [
  { code: 'NCT1001', device: 'NCT0001', profile: 'moderate_osa', nights: 5, longNight: true, psgEvery: 5 },
  { code: 'NCT1002', device: 'NCT0002', profile: 'severe_osa', nights: 3, longNight: false, psgEvery: 0 },
  { code: 'NCT1004', device: 'NCT0003', profile: 'central', nights: 3, longNight: false, psgEvery: 0 },
  { code: 'NCT1003', device: 'NCT0004', profile: 'healthy', nights: 2, longNight: false, psgEvery: 0 },
] as const;

/**
 * Simulates the demo nights once, the last on the evening before the night in progress at
 * `now` (so every one has ended, and a device streaming now records a night of its own). Each night is its own transaction and
 * evenings that already have a night are skipped, so an interrupted first start completes
 * on the next. Returns the number of nights stored.
 */
export async function seedDemoNights(db: Db, log: (line: string) => void = () => undefined, now = Date.now()): Promise<number> {
  const [done] = await db.query('select 1 from app_meta where key = $1', [NIGHTS_KEY]);
  if (done) return 0;
  const { simulateForPatient } = await import('./simulator/simulated');
  let stored = 0;
  for (const p of DEMO_NIGHTS) {
    const [patient] = await db.query<{ id: number }>('select id from patients where patient_code = $1', [p.code]);
    if (!patient) continue;
    log(`Simulating ${p.nights} nights for ${p.code}…`);
    const ids = await simulateForPatient(db, {
      patientId: patient.id,
      patientCode: p.code,
      deviceId: p.device,
      timezone: 'Europe/Zurich',
      nights: p.nights,
      profile: p.profile,
      longNight: p.longNight,
      psgEvery: p.psgEvery,
      now,
    });
    stored += ids.length;
  }
  await db.query('insert into app_meta (key, value) values ($1, $2) on conflict (key) do nothing', [NIGHTS_KEY, new Date().toISOString()]);
  return stored;
}

const DEVICES_KEY = 'demo_devices';
const YEAR_MS = 365 * DAY_MS;

/**
 * The demo physician holds the demo devices for two years around the first start, and
 * four demo patients have a device deployed from a week ago to a week ahead (covering
 * their simulated nights); two devices stay available. Once.
 */
export async function seedDemoDevices(db: Db, now = Date.now()): Promise<boolean> {
  return db.transaction(async (tx) => {
    await lockForSetup(tx, SEED_LOCK);
    const [done] = await tx.query('select 1 from app_meta where key = $1', [DEVICES_KEY]);
    if (done) return false;
    const [physician] = await tx.query<{ id: number }>('select id from users where email = $1', [DEMO_ACCOUNTS.physician]);
    if (!physician) return false;
    const devices = await tx.query<{ device_master_id: number; device_id: string }>('select device_master_id, device_id from devices where physician_id = $1 order by device_id', [physician.id]);
    for (const d of devices) {
      await tx.query('insert into physician_devices (device_master_id, physician_id, from_ms, to_ms) values ($1, $2, $3, $4)', [d.device_master_id, physician.id, now - YEAR_MS, now + YEAR_MS]);
    }
    const day = DAY_MS;
    const start = Math.floor(now / day) * day - 7 * day;
    for (const n of DEMO_NIGHTS) {
      const device = devices.find((d) => d.device_id === n.device);
      const [patient] = await tx.query<{ id: number }>('select id from patients where patient_code = $1', [n.code]);
      if (!device || !patient) continue;
      await tx.query(
        `insert into device_allocations (device_master_id, patient_id, physician_id, allocation_ms, deallocation_ms, timezone, created_by) values ($1, $2, $3, $4, $5, 'Europe/Zurich', $3)`,
        [device.device_master_id, patient.id, physician.id, start, start + 14 * day],
      );
    }
    await tx.query('insert into app_meta (key, value) values ($1, $2)', [DEVICES_KEY, new Date(now).toISOString()]);
    return true;
  });
}
