// bench:annotations' data: the demo's longest night, and annotations added to it through the
// API as the app adds them (500 a call), by the physician and the annotator in turn, across
// the clinic's categories and the night's channels, spread over the whole night.
import { DEMO, DEMO_PASSWORD, outboxCode } from '../tests/e2e/harness';

export interface Night {
  patientId: number;
  night: number;
  hours: number;
  startMs: number;
  codes: string[];
  /** The single-night screen's address. */
  url: string;
}

/** Where the annotations may go: this many slots over the night, visited in a scattered order. */
const SLOTS = 10_000;
const BATCH = 500;

async function signedIn(base: string, email: string): Promise<string> {
  await call(base, '', 'POST', '/login', { email, password: DEMO_PASSWORD });
  const otp = await outboxCode(base, email);
  const res = await call<{ token: string }>(base, '', 'POST', '/verify-otp', { email, otp });
  return res.token;
}

async function call<T>(base: string, token: string, method: 'GET' | 'POST', url: string, body?: object): Promise<T> {
  const res = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: T }).data;
}

/** The physician's API session: finds the demo's longest night. */
export async function apiSession(base: string) {
  const token = await signedIn(base, DEMO.physician);
  return {
    async longNight(): Promise<Night> {
      const { patients } = await call<{ patients: { patient_id: number }[] }>(base, token, 'GET', '/physician/patients');
      let best: Night | null = null;
      for (const p of patients) {
        const { nights } = await call<{ nights: { night: number; recording_start_time: number; recording_stop_time: number; channels: { code: string }[] }[] }>(base, token, 'GET', `/patient/available-nights?patient_id=${p.patient_id}`);
        for (const n of nights) {
          const hours = (n.recording_stop_time - n.recording_start_time) / 3_600_000;
          if (!best || hours > best.hours)
            best = { patientId: p.patient_id, night: n.night, hours, startMs: n.recording_start_time, codes: n.channels.map((c) => c.code), url: `/app/patients/id=${p.patient_id}?night=${n.night}` };
        }
      }
      if (!best) throw new Error('the demo clinic has no nights');
      return best;
    },
  };
}

/** How many custom annotations the night has (what the list's custom count shows). */
export async function customCount(base: string, night: Night): Promise<number> {
  const token = await signedIn(base, DEMO.physician);
  const { annotations } = await call<{ annotations: { type: string }[] }>(base, token, 'POST', '/analytics/patient/get-annotations', { patient_id: night.patientId, night: night.night });
  return annotations.filter((a) => a.type === 'custom').length;
}

/** Adds annotations number `from` to `to` (exclusive) of the night's deterministic set. */
export async function seedAnnotations(base: string, night: Night, from: number, to: number): Promise<void> {
  const tokens = [await signedIn(base, DEMO.physician), await signedIn(base, DEMO.annotator)];
  const { labels } = await call<{ labels: { label_id: number }[] }>(base, tokens[0], 'POST', '/patient/get-label-list', { patient_id: night.patientId });
  const codes = night.codes.filter((c) => !['I', 'Q'].includes(c));
  const slotMs = (night.hours * 3_600_000 - 120_000) / SLOTS;
  for (let b = from; b < to; b += BATCH) {
    const annotations = [];
    for (let i = b; i < Math.min(to, b + BATCH); i++) {
      const slot = (i * 7919) % SLOTS;
      const kpi = i % 3 === 0 ? [codes[i % codes.length], codes[(i + 1) % codes.length]] : [codes[i % codes.length]];
      annotations.push({ kpi: [...new Set(kpi)], start_time: Math.round(night.startMs + 60_000 + slot * slotMs), duration: '10', label: labels[i % labels.length].label_id });
    }
    await call(base, tokens[Math.floor(b / BATCH) % 2], 'POST', '/analytics/patient/new-annotations', { patient_id: night.patientId, night: night.night, annotations });
  }
}
