/**
 * The access matrix: every API route × every role, one row per route (issue 13 point 2).
 * tests/server/access-matrix.test.ts calls each route as each role with real ids of the demo
 * practice (the "right" practice for its members, the "wrong" one for the other practice's
 * physician and the admin) and compares the status with this table. A registered route
 * without a row fails the test, so a new route cannot ship unchecked.
 *
 * To add a route: add one `row('METHOD /api/v1/path', policy, (f) => request)` below, with
 * the policy saying what each role gets. Requests may use fresh objects (`f.fresh.comment()`…)
 * when the call changes or deletes what it touches.
 */

/** Who calls. All but otherPhysician, admin and anonymous belong to the demo practice. */
import { NEW_PATIENT_VITALS } from '../../server/seed';

export const ROLES = ['anonymous', 'otherPhysician', 'admin', 'annotator', 'paid', 'tertiary', 'secondary', 'physician'] as const;
export type Role = (typeof ROLES)[number];

/** Roles that belong to the practice whose ids the requests carry. */
export const MEMBERS: readonly Role[] = ['annotator', 'paid', 'tertiary', 'secondary', 'physician'];

/**
 * What a role gets: 'ok' any 2xx; 'deny' 403 or 404 (404 where the object's existence must
 * not be told); 'unauth' 401; or one exact status for routes whose answer does not depend on the caller.
 */
export type Expect = 'ok' | 'deny' | 'unauth' | number;
type Policy = Record<Role, Expect>;

/** Real ids of the demo practice (and one object of the other practice), made by the test. */
export interface Fixture {
  patientId: number;
  /** A second patient whose status and devices calls may change. */
  spareId: number;
  recordingId: number;
  /** The recording's night key (Unix seconds of its evening) and date. */
  night: number;
  nightDate: string;
  deviceId: string;
  deviceMasterId: number;
  /** A device of the other practice. */
  foreignDeviceId: string;
  foreignDeviceMasterId: number;
  notificationId: number;
  /** Start of the recording (ms). */
  startMs: number;
  /** The night double-scoring rounds are made on (another patient's, so no round blinds the annotator on the fixture night). */
  scoring: { patientId: number; night: number; annotatorId: number; annotator2Id: number };
  /** Distinct per call, for calls that book date ranges. */
  seq(): number;
  fresh: {
    comment(): Promise<number>;
    annotation(): Promise<{ id: number; version: number }>;
    label(): Promise<number>;
    checkup(): Promise<number>;
    /** A check-up marked complete (its questionnaire may be answered). */
    completedCheckup(): Promise<number>;
    /** A symptom entry of the patient's history. */
    historyEntry(): Promise<number>;
    deployRequest(): Promise<number>;
    resetPasswordBody(): Promise<Record<string, unknown>>;
    /** A signed-up account waiting for an admin. */
    pendingSignup(): Promise<number>;
    /** A manual correction (invalid span) of the recording, active, to undo. */
    correction(): Promise<number>;
    /** A report job of the practice: done (with its file) or failed (to retry). */
    report(status: 'done' | 'failed'): Promise<number>;
    /** A double-scoring round of the scoring night (any open one cancelled first); 'agreement' with every scorer submitted, `marked`: one disagreement. */
    round(status: 'scoring' | 'agreement' | 'none', marked?: boolean): Promise<{ roundId: number; item: string | null }>;
  };
}

interface Request {
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Row {
  /** "METHOD /api/v1/path" exactly as Fastify registered it. */
  route: string;
  policy: Policy;
  request(f: Fixture): Request | Promise<Request>;
  /** The body of an allowed answer may name the practice's data to non-members (admin's request queue). */
  showsPracticeToNonMembers?: boolean;
}

const base = (over: Partial<Policy>): Policy => ({
  anonymous: 'unauth',
  otherPhysician: 'ok',
  admin: 'ok',
  annotator: 'ok',
  paid: 'ok',
  tertiary: 'ok',
  secondary: 'ok',
  physician: 'ok',
  ...over,
});
/** Same answer for everyone: public routes. */
const same = (status: Expect): Policy => ({ anonymous: status, otherPhysician: status, admin: status, annotator: status, paid: status, tertiary: status, secondary: status, physician: status });

/** Any signed-in user; each sees only their own practice's data. */
const SIGNED_IN = base({});
/** The practice's patients, read: members only. */
const PRACTICE_READ = base({ otherPhysician: 'deny', admin: 'deny' });
/** The practice's patients, changed: members but not annotators. */
const PRACTICE_WRITE = base({ otherPhysician: 'deny', admin: 'deny', annotator: 'deny' });
/** Downloads of recorded data: members but not annotators. */
const DATA_DOWNLOAD = PRACTICE_WRITE;
/** Annotation work: members including annotators. */
const ANNOTATE = PRACTICE_READ;
/** Comments are changed by their author only (the physician made the fixtures). */
const AUTHOR_ONLY = base({ otherPhysician: 'deny', admin: 'deny', annotator: 'deny', paid: 'deny', tertiary: 'deny', secondary: 'deny' });
/** Settings of the caller's practice: its physician only (not secondary, tertiary or other members); the other practice's physician changes their own. */
const PRACTICE_OWNER = base({ admin: 'deny', annotator: 'deny', paid: 'deny', tertiary: 'deny', secondary: 'deny' });
/** Not part of a paid membership (spec 2 §1). */
const NON_PAID_READ = base({ otherPhysician: 'deny', admin: 'deny', paid: 'deny' });
/** A scorer's own call: the round's annotator only (the demo annotator scores every fixture round). */
const SCORER_ONLY = base({ otherPhysician: 'deny', admin: 'deny', paid: 'deny', tertiary: 'deny', secondary: 'deny', physician: 'deny' });
/** Dashboard and device screens: physicians' own lists, not annotators or admins. */
const PHYSICIAN_SCREEN = base({ annotator: 'deny', admin: 'deny' });
/** The caller's own practice (another physician sees their own, empty here); administrators have none. */
const OWN_PRACTICE = base({ admin: 'deny' });
const ADMIN_ONLY = base({ otherPhysician: 'deny', annotator: 'deny', paid: 'deny', tertiary: 'deny', secondary: 'deny', physician: 'deny' });

const row = (route: string, policy: Policy, request: Row['request'], extra: Partial<Row> = {}): Row => ({ route, policy, request, ...extra });
const A = '/api/v1';
const VITALS = JSON.stringify(NEW_PATIENT_VITALS);

const DAY = 86_400_000;
/** A far-future fortnight, distinct per call, so bookings by several roles do not collide. */
let ranges = 0;
const futureRange = (_f: Fixture) => {
  const from = Math.floor(Date.now() / DAY) * DAY + (20 + ++ranges * 6) * DAY;
  return { from, to: from + 5 * DAY };
};

export const ACCESS_MATRIX: Row[] = [
  // Sign-in and accounts: public, answers do not depend on who asks.
  row(`POST ${A}/login`, same(401), (f) => ({ url: '/login', body: { email: `nobody${f.seq()}@nowhere.test`, password: 'wrong-password' } })),
  row(`POST ${A}/verify-otp`, same(401), (f) => ({ url: '/verify-otp', body: { email: `nobody${f.seq()}@nowhere.test`, otp: '123456' } })),
  row(`POST ${A}/forgot-password`, same(200), (f) => ({ url: '/forgot-password', body: { email: `nobody${f.seq()}@nowhere.test` } })),
  row(`POST ${A}/forgot-password-verify-otp`, same(401), (f) => ({ url: '/forgot-password-verify-otp', body: { email: `nobody${f.seq()}@nowhere.test`, otp: '123456' } })),
  row(`PATCH ${A}/reset-password`, same(200), async (f) => ({ url: '/reset-password', body: await f.fresh.resetPasswordBody() })),
  row(`GET ${A}/countries`, same(200), () => ({ url: '/countries' })),
  row(`POST ${A}/signup`, same('ok'), (f) => ({ url: '/signup', body: { first_name: 'New', last_name: 'User', email: `new${f.seq()}@signup.test`, password: 'a-long-password-1', country: 'Switzerland', organisation_name: '' } })),
  row(`GET ${A}/dev/outbox`, same(200), () => ({ url: '/dev/outbox?email=nobody@nowhere.test' })),
  // Signed night links: the signature is the credential, a bad one is refused for everyone.
  row(`GET ${A}/s3/analytics/night-file/:id`, same(403), (f) => ({ url: `/s3/analytics/night-file/${f.recordingId}?exp=${Date.now() + 60_000}&sig=forged` })),

  row(`GET ${A}/logout`, SIGNED_IN, () => ({ url: '/logout' })),
  row(`GET ${A}/user`, SIGNED_IN, () => ({ url: '/user' })),
  row(`GET ${A}/physician/preferences`, SIGNED_IN, () => ({ url: '/physician/preferences' })),
  row(`POST ${A}/patient/update-kpi-preferences`, SIGNED_IN, () => ({ url: '/patient/update-kpi-preferences', body: { new_sorted_array_kpis: { SPO2: true } } })),
  row(`POST ${A}/patient/update-trendview-kpi-preference`, SIGNED_IN, () => ({ url: '/patient/update-trendview-kpi-preference', body: { new_sorted_array_trendview_kpis: { SPO2: true } } })),
  row(`POST ${A}/physician/update-analytics-settings`, PRACTICE_OWNER, () => ({ url: '/physician/update-analytics-settings', body: { desaturation_rule: 3 } })),
  row(`GET ${A}/recordings/label-map`, SIGNED_IN, () => ({ url: '/recordings/label-map' })),
  row(`GET ${A}/recordings/upload-limits`, SIGNED_IN, () => ({ url: '/recordings/upload-limits' })),
  row(`POST ${A}/recordings/label-map`, base({ annotator: 'deny' }), () => ({ url: '/recordings/label-map', body: { label_map: {} } })),

  // Patient list and patient administration.
  row(`GET ${A}/physician/patients`, SIGNED_IN, () => ({ url: '/physician/patients' })),
  row(`GET ${A}/physician/patients/unseen-recordings`, SIGNED_IN, () => ({ url: '/physician/patients/unseen-recordings' })),
  row(`GET ${A}/patient/generate-code`, SIGNED_IN, () => ({ url: '/patient/generate-code' })),
  row(`POST ${A}/patient/get-disease-list`, SIGNED_IN, () => ({ url: '/patient/get-disease-list', body: {} })),
  row(`POST ${A}/physician/new-patient`, base({ annotator: 'deny', admin: 'deny' }), (f) => ({
    url: '/physician/new-patient',
    body: { patient_code: `MX${f.seq()}`, first_name: 'Matrix', last_name: 'Patient', gender: 'F', date_of_birth: '1970', height: '170', weight: '70', diseaseIds: '2', vital_parameters: VITALS, country: 'Switzerland' },
  })),
  row(`POST ${A}/physician/update-patient-info`, PRACTICE_WRITE, (f) => ({ url: '/physician/update-patient-info', body: { patient_id: f.patientId, weight: 71 } })),
  row(`POST ${A}/physician/update-patient-details/id=:id`, PRACTICE_WRITE, (f) => ({ url: `/physician/update-patient-details/id=${f.patientId}`, body: { weight: 71 } })),
  row(`POST ${A}/physician/update-patient-status`, PRACTICE_WRITE, (f) => ({ url: '/physician/update-patient-status', body: { patient_id: f.spareId, active_flag: true } })),
  row(`POST ${A}/physician/reset-patient-password`, PRACTICE_WRITE, (f) => ({ url: '/physician/reset-patient-password', body: { patient_id: f.patientId, password: '0123456789abcdef0123456789abcdef' } })),
  row(`POST ${A}/patient/disease-operation`, PRACTICE_WRITE, (f) => ({ url: '/patient/disease-operation', body: { patient_id: f.patientId, type: 'update', disease_id: 2 } })),
  row(`GET ${A}/patient/details`, PRACTICE_READ, (f) => ({ url: `/patient/details?patient_id=${f.patientId}` })),
  // Without files every caller allowed past the access check gets 400 (the patient is named inside the upload).
  row(`POST ${A}/patient/upload-recording`, { ...same(400), anonymous: 'unauth', annotator: 'deny' }, () => ({ url: '/patient/upload-recording', body: {} })),

  // Comments and check-ups.
  row(`POST ${A}/patient/get-comment`, PRACTICE_READ, (f) => ({ url: '/patient/get-comment', body: { id: f.patientId } })),
  row(`POST ${A}/patient/add-comment`, PRACTICE_WRITE, (f) => ({ url: '/patient/add-comment', body: { user_id: f.patientId, comment: 'Matrix comment' } })),
  row(`POST ${A}/patient/update-comment`, AUTHOR_ONLY, async (f) => ({ url: '/patient/update-comment', body: { user_id: f.patientId, id: await f.fresh.comment(), comment: 'Edited' } })),
  row(`POST ${A}/patient/delete-comment`, AUTHOR_ONLY, async (f) => ({ url: '/patient/delete-comment', body: { user_id: f.patientId, id: await f.fresh.comment() } })),
  row(`POST ${A}/patient/get-checkup-list`, PRACTICE_READ, (f) => ({ url: '/patient/get-checkup-list', body: { patient_id: f.patientId } })),
  row(`POST ${A}/patient/add-checkup`, PRACTICE_WRITE, (f) => ({
    url: '/patient/add-checkup',
    body: { patient_id: f.patientId, checkup_date: new Date(Date.now() + (30 + f.seq()) * DAY).toISOString().slice(0, 10) },
  })),
  row(`POST ${A}/patient/mark-as-complete`, PRACTICE_WRITE, async (f) => ({ url: '/patient/mark-as-complete', body: { patient_id: f.patientId, checkup_date_id: await f.fresh.checkup() } })),

  // Histories (symptoms, medication, diet plan) and questionnaire answers.
  row(`GET ${A}/patient/fetch-symptoms`, PRACTICE_READ, (f) => ({ url: `/patient/fetch-symptoms?patient_id=${f.patientId}` })),
  row(`GET ${A}/patient/fetch-medications`, PRACTICE_READ, (f) => ({ url: `/patient/fetch-medications?patient_id=${f.patientId}` })),
  row(`GET ${A}/patient/fetch-diet-plan`, PRACTICE_READ, (f) => ({ url: `/patient/fetch-diet-plan?patient_id=${f.patientId}` })),
  row(`POST ${A}/patient/add-history-entry`, PRACTICE_WRITE, (f) => ({
    url: '/patient/add-history-entry',
    body: { patient_id: f.patientId, kind: 'medication', timestamp: f.startMs, symptom_medication_value: `Matrix ${f.seq()}` },
  })),
  row(`POST ${A}/patient/update-history-entry`, PRACTICE_WRITE, async (f) => ({
    url: '/patient/update-history-entry',
    body: { patient_id: f.patientId, id: await f.fresh.historyEntry(), timestamp: f.startMs, symptom_medication_value: 'Edited' },
  })),
  row(`POST ${A}/patient/delete-history-entry`, PRACTICE_WRITE, async (f) => ({ url: '/patient/delete-history-entry', body: { patient_id: f.patientId, id: await f.fresh.historyEntry() } })),
  row(`GET ${A}/device/qna`, PRACTICE_READ, (f) => ({ url: `/device/qna?patient_id=${f.patientId}` })),
  row(`POST ${A}/patient/checkup-questionnaire`, PRACTICE_WRITE, async (f) => ({
    url: '/patient/checkup-questionnaire',
    body: { patient_id: f.patientId, checkup_date_id: await f.fresh.completedCheckup(), answers: { sleepQuality: 'fair', daytimeSleepiness: 'no', medicationChanged: 'no', deviceProblems: 'no' } },
  })),

  // Nights, series and downloads.
  row(`GET ${A}/patient/available-nights`, PRACTICE_READ, (f) => ({ url: `/patient/available-nights?patient_id=${f.patientId}` })),
  row(`GET ${A}/analytics/patient/channel-data`, PRACTICE_READ, (f) => ({ url: `/analytics/patient/channel-data?patient_id=${f.patientId}&recording_id=${f.recordingId}&code=SPO2` })),
  row(`GET ${A}/analytics/patient/channel-overview`, PRACTICE_READ, (f) => ({ url: `/analytics/patient/channel-overview?patient_id=${f.patientId}&recording_id=${f.recordingId}&code=SPO2&t0=${f.startMs}&t1=${f.startMs + 3_600_000}&pixels=100` })),
  row(`GET ${A}/analytics/patient/type=:type`, PRACTICE_READ, (f) => ({ url: `/analytics/patient/type=SPO2?patient_id=${f.patientId}&recording_date=${f.night}` })),
  row(`GET ${A}/analytics/patient-trendview/type=:type`, PRACTICE_READ, (f) => ({ url: `/analytics/patient-trendview/type=SPO2?patient_id=${f.patientId}&device_start_time=${f.night - 86_400 * 7}&device_stop_time=${f.night + 86_400}` })),
  row(`GET ${A}/s3/analytics/patient`, PRACTICE_READ, (f) => ({ url: `/s3/analytics/patient?patient_id=${f.patientId}&recording_date=${f.nightDate.replaceAll('-', '')}` })),
  row(`GET ${A}/s3/analytics/patient/range`, PRACTICE_READ, (f) => ({ url: `/s3/analytics/patient/range?patient_id=${f.patientId}&start_date=${f.nightDate.replaceAll('-', '')}&end_date=${f.nightDate.replaceAll('-', '')}` })),
  row(`GET ${A}/analytics/patient/export-edf`, DATA_DOWNLOAD, (f) => ({ url: `/analytics/patient/export-edf?patient_id=${f.patientId}&recording_id=${f.recordingId}` })),
  row(`GET ${A}/analytics/patient/data-points`, DATA_DOWNLOAD, (f) => ({ url: `/analytics/patient/data-points?patient_id=${f.patientId}&recording_id=${f.recordingId}&code=SPO2` })),
  row(`GET ${A}/analytics/patient/annotations-csv`, PRACTICE_READ, (f) => ({ url: `/analytics/patient/annotations-csv?patient_id=${f.patientId}&recording_id=${f.recordingId}` })),
  row(`GET ${A}/analytics/patient/export-nsrr-xml`, PRACTICE_READ, (f) => ({ url: `/analytics/patient/export-nsrr-xml?patient_id=${f.patientId}&recording_id=${f.recordingId}` })),
  row(`GET ${A}/analytics/patient/export-edf-annotations`, PRACTICE_READ, (f) => ({ url: `/analytics/patient/export-edf-annotations?patient_id=${f.patientId}&recording_id=${f.recordingId}&source=human` })),
  row(`POST ${A}/analytics/patient/import-scoring`, ANNOTATE, (f) => ({
    url: '/analytics/patient/import-scoring',
    body: {
      patient_id: f.patientId,
      recording_id: f.recordingId,
      file_name: 'matrix-nsrr.xml',
      content_base64: Buffer.from(`<PSGAnnotation><ScoredEvents><ScoredEvent><EventConcept>Hypopnea|Hypopnea</EventConcept><Start>${3600 + f.seq() * 60}</Start><Duration>12</Duration></ScoredEvent></ScoredEvents></PSGAnnotation>`).toString('base64'),
    },
  })),
  row(`GET ${A}/analytics/patient/actigraph`, PRACTICE_READ, (f) => ({ url: `/analytics/patient/actigraph?patient_id=${f.patientId}&start_date=${f.nightDate}&end_date=${f.nightDate}` })),

  // Analytics.
  row(`POST ${A}/analytics/patient/all-kpi-summary`, PRACTICE_READ, (f) => ({ url: '/analytics/patient/all-kpi-summary', body: { patient_id: f.patientId, night: f.night } })),
  row(`GET ${A}/analytics/patient/summary/kpi=:kpi`, NON_PAID_READ, (f) => ({ url: `/analytics/patient/summary/kpi=AHI?patient_id=${f.patientId}&night=${f.night}` })),
  row(`GET ${A}/patient/rii_odi_value`, PRACTICE_READ, (f) => ({ url: `/patient/rii_odi_value?patient_id=${f.patientId}&night=${f.night}` })),
  row(`GET ${A}/analytics/patient/agreement`, PRACTICE_READ, (f) => ({ url: `/analytics/patient/agreement?patient_id=${f.patientId}&night=${f.night}` })),
  // Manual corrections: read by members, made and undone by members but not annotators.
  row(`GET ${A}/analytics/patient/corrections`, PRACTICE_READ, (f) => ({ url: `/analytics/patient/corrections?patient_id=${f.patientId}&night=${f.night}` })),
  row(`POST ${A}/analytics/patient/corrections`, PRACTICE_WRITE, (f) => ({
    url: '/analytics/patient/corrections',
    body: { patient_id: f.patientId, night: f.night, kind: 'invalid_span', start_ms: f.startMs + 3_600_000, end_ms: f.startMs + 3_660_000 + f.seq() * 1000, reason: 'Matrix' },
  })),
  row(`POST ${A}/analytics/patient/corrections/undo`, PRACTICE_WRITE, async (f) => ({ url: '/analytics/patient/corrections/undo', body: { patient_id: f.patientId, night: f.night, id: await f.fresh.correction() } })),
  row(`POST ${A}/analytics/patient/generate-system-annotations`, NON_PAID_READ, (f) => ({ url: '/analytics/patient/generate-system-annotations', body: { patient_id: f.patientId, night: f.night, type: 'desaturation' } })),

  // Annotations and categories.
  row(`POST ${A}/analytics/patient/get-annotations`, ANNOTATE, (f) => ({ url: '/analytics/patient/get-annotations', body: { patient_id: f.patientId, night: f.night } })),
  row(`POST ${A}/analytics/patient/get-annotation-columns`, ANNOTATE, (f) => ({ url: '/analytics/patient/get-annotation-columns', body: { patient_id: f.patientId, night: f.night } })),
  row(`POST ${A}/analytics/patient/new-annotations`, ANNOTATE, (f) => ({ url: '/analytics/patient/new-annotations', body: { patient_id: f.patientId, night: f.night, kpi: 'SPO2', start_time: f.startMs + 3_600_000 + f.seq() * 60_000, duration: '20', label: 1 } })),
  row(`POST ${A}/analytics/patient/update-annotations`, ANNOTATE, async (f) => {
    const a = await f.fresh.annotation();
    return { url: '/analytics/patient/update-annotations', body: { annotation_map_id: a.id, version: a.version, comment: 'checked' } };
  }),
  row(`POST ${A}/analytics/patient/delete-annotations`, ANNOTATE, async (f) => ({ url: '/analytics/patient/delete-annotations', body: { ids: [(await f.fresh.annotation()).id] } })),
  row(`POST ${A}/patient/get-label-list`, ANNOTATE, (f) => ({ url: '/patient/get-label-list', body: { patient_id: f.patientId } })),
  row(`POST ${A}/patient/add-label`, ANNOTATE, async (f) => {
    // Frees a slot first (a patient has at most 12 categories).
    await f.fresh.label();
    const n = f.seq();
    return { url: '/patient/add-label', body: { patient_id: f.patientId, label: `Added ${n}`, color_code: `#0${(n % 10).toString()}${(n * 7 % 100).toString().padStart(2, '0')}F0` } };
  }),
  row(`POST ${A}/patient/update-label`, ANNOTATE, async (f) => ({ url: '/patient/update-label', body: { label_id: await f.fresh.label(), label: `Renamed ${f.seq()}`, color_code: '#123456' } })),
  row(`POST ${A}/patient/delete-label`, ANNOTATE, async (f) => ({ url: '/patient/delete-label', body: { label_id: await f.fresh.label() } })),

  // Dashboard and notifications.
  row(`GET ${A}/physician/widgets`, PHYSICIAN_SCREEN, () => ({ url: '/physician/widgets' })),
  row(`POST ${A}/physician/generate-notifications`, PHYSICIAN_SCREEN, () => ({ url: '/physician/generate-notifications', body: {} })),
  row(`GET ${A}/physician/triage`, PHYSICIAN_SCREEN, () => ({ url: '/physician/triage' })),
  row(`POST ${A}/physician/triage/prepare`, PHYSICIAN_SCREEN, () => ({ url: '/physician/triage/prepare', body: {} })),
  row(`GET ${A}/physician/get-notifications`, PHYSICIAN_SCREEN, () => ({ url: '/physician/get-notifications' })),
  row(`POST ${A}/physician/update-notification/id=:id`, base({ otherPhysician: 'deny', admin: 'deny', annotator: 'deny' }), (f) => ({ url: `/physician/update-notification/id=${f.notificationId}`, body: {} })),
  row(`POST ${A}/physician/night-seen`, base({ otherPhysician: 'deny', admin: 'deny', annotator: 'deny' }), (f) => ({ url: '/physician/night-seen', body: { patient_id: f.patientId, recording_id: f.recordingId } })),
  row(`GET ${A}/physician/deallocation-notifications`, PHYSICIAN_SCREEN, () => ({ url: '/physician/deallocation-notifications' })),

  // Devices.
  row(`GET ${A}/physician/available-devices`, SIGNED_IN, (f) => {
    const r = futureRange(f);
    return { url: `/physician/available-devices?allocation_time=${r.from}&deallocation_time=${r.to}` };
  }),
  row(`GET ${A}/physician/available-devices-dates`, SIGNED_IN, () => ({ url: '/physician/available-devices-dates' })),
  row(`GET ${A}/datacenter/getAllRecordingDevicesOfPatients`, SIGNED_IN, () => ({ url: '/datacenter/getAllRecordingDevicesOfPatients' })),
  row(`POST ${A}/device/device-operation`, PRACTICE_WRITE, (f) => {
    const r = futureRange(f);
    return { url: '/device/device-operation', body: { patient_id: f.spareId, allocate_device: true, device_master_id: f.deviceMasterId, device_allocation_date: r.from, device_deallocation_date: r.to } };
  }),
  // Live devices (issue 15): keys and real-time calls are the practice's, never an annotator's.
  row(`POST ${A}/device/keys/issue`, PRACTICE_WRITE, (f) => ({ url: '/device/keys/issue', body: { device_master_id: f.deviceMasterId } })),
  row(`POST ${A}/device/keys/revoke`, PRACTICE_WRITE, (f) => ({ url: '/device/keys/revoke', body: { device_master_id: f.deviceMasterId } })),
  row(`POST ${A}/device/keys`, PRACTICE_WRITE, (f) => ({ url: '/device/keys', body: { device_master_id: f.deviceMasterId } })),
  row(`GET ${A}/device/real-time/did=:did`, PRACTICE_WRITE, (f) => ({ url: `/device/real-time/did=${f.deviceId}` })),
  row(`GET ${A}/device/real-time-validation/did=:did`, PRACTICE_WRITE, (f) => ({ url: `/device/real-time-validation/did=${f.deviceId}` })),
  // Device Config and the real-time dashboard layout (issue 15 screens): physicians' own, never an annotator's or admin's.
  row(`GET ${A}/datahub/get_physician_devices_config`, PHYSICIAN_SCREEN, () => ({ url: '/datahub/get_physician_devices_config' })),
  row(`POST ${A}/datahub/update_device_config`, PRACTICE_WRITE, (f) => ({
    url: '/datahub/update_device_config',
    // A distinct range per call: an unchanged configuration is refused as "nothing to send".
    body: { device_master_id: f.deviceMasterId, config: { recording_window: { start: '21:00', stop: '07:00', timezone: 'Europe/Zurich' }, channels: { BR: 1, HR: 1 }, radar: { range_m: 0.5 + (f.seq() % 500) / 100, sensitivity: 5 }, live_streaming: true } },
  })),
  row(`GET ${A}/physician/realtime-layout`, PHYSICIAN_SCREEN, () => ({ url: '/physician/realtime-layout' })),
  row(`POST ${A}/physician/realtime-layout`, PHYSICIAN_SCREEN, () => ({ url: '/physician/realtime-layout', body: { layout: [{ i: 'TILE1', x: 0, y: 0, w: 4, h: 3 }] } })),
  // The sockets authenticate in their first message (tests/server/live.test.ts); a plain GET is no upgrade.
  row(`GET ${A}/device/live`, same(404), () => ({ url: '/device/live' })),
  row(`GET ${A}/stream`, same(404), () => ({ url: '/stream' })),
  row(`POST ${A}/device/device-history`, PRACTICE_READ, (f) => ({ url: '/device/device-history', body: { patient_id: f.patientId } })),
  row(`POST ${A}/device/future-allocations`, SIGNED_IN, (f) => ({ url: '/device/future-allocations', body: { device_id: f.deviceId } })),
  row(`POST ${A}/device/cancel-future-allocations`, base({ annotator: 'deny', admin: 'deny' }), () => ({ url: '/device/cancel-future-allocations', body: { device_id: 'NO-SUCH-DEVICE' } })),
  row(`POST ${A}/device/deploy-device-in-past-date`, PRACTICE_WRITE, (f) => ({
    url: '/device/deploy-device-in-past-date',
    body: { patient_id: f.patientId, device_master_id: f.deviceMasterId, allocation_date: Date.now() - 30 * DAY, deallocation_date: Date.now() - 25 * DAY },
  })),
  row(`GET ${A}/device/deploy-requests`, PRACTICE_READ, (f) => ({ url: `/device/deploy-requests?patient_id=${f.patientId}` })),
  // Reports (issue 17): the practice's documents; members make and read them, annotators do not.
  row(`POST ${A}/reports`, PRACTICE_WRITE, (f) => ({ url: '/reports', body: { patient_id: f.patientId, order_id: 'NCT1001', language: 'en', report_type: 'en-pyn', dates: [{ numDate: f.night, checked: true }] } })),
  row(`GET ${A}/reports`, base({ annotator: 'deny', admin: 'deny' }), () => ({ url: '/reports' })),
  row(`GET ${A}/reports/:id`, PRACTICE_WRITE, async (f) => ({ url: `/reports/${await f.fresh.report('done')}` })),
  row(`GET ${A}/reports/:id/file`, PRACTICE_WRITE, async (f) => ({ url: `/reports/${await f.fresh.report('done')}/file` })),
  row(`POST ${A}/reports/:id/retry`, PRACTICE_WRITE, async (f) => ({ url: `/reports/${await f.fresh.report('failed')}/retry`, body: {} })),
  // Sample patients (spec 2 §2): the practice's members list them (another practice sees its own, empty list); only annotators add a night.
  row(`GET ${A}/patient/samplePatients`, base({ admin: 'deny' }), () => ({ url: '/patient/samplePatients' })),
  row(`POST ${A}/patient/samplePatient`, base({ otherPhysician: 'deny', admin: 'deny', paid: 'deny', tertiary: 'deny', secondary: 'deny', physician: 'deny' }), (f) => ({
    url: '/patient/samplePatient',
    body: { patient_id: f.patientId, recording_id: f.recordingId, name: `Matrix sample ${f.seq()}` },
  })),
  // The practice's calendar, appointments and settings screens (issue 17 point 5): every signed-in user reads their own practice's; administrators have no practice.
  row(`GET ${A}/practice/calendar`, OWN_PRACTICE, () => {
    const from = new Date().toISOString().slice(0, 10);
    return { url: `/practice/calendar?from=${from}&to=${new Date(Date.now() + 40 * DAY).toISOString().slice(0, 10)}` };
  }),
  row(`GET ${A}/practice/appointments`, OWN_PRACTICE, () => ({ url: '/practice/appointments?when=upcoming' })),
  row(`GET ${A}/practice/settings`, OWN_PRACTICE, () => ({ url: '/practice/settings' })),
  row(`GET ${A}/admin/deploy-requests`, ADMIN_ONLY, () => ({ url: '/admin/deploy-requests' }), { showsPracticeToNonMembers: true }),
  row(`POST ${A}/admin/deploy-requests/:id/:decision`, ADMIN_ONLY, async (f) => ({ url: `/admin/deploy-requests/${await f.fresh.deployRequest()}/deny`, body: { note: 'matrix' } })),
  // The profile popup (issue 16 point 2): everyone signed in, each their own profile and practice's images.
  row(`GET ${A}/user/profile`, SIGNED_IN, () => ({ url: '/user/profile' })),
  row(`POST ${A}/update-user-info`, SIGNED_IN, () => ({ url: '/update-user-info', body: { phone: '0441234567', secondary_emails: 'second@matrix.test', ternary_email: 'third@matrix.test' } })),
  row(`GET ${A}/get-avatar/:name`, SIGNED_IN, () => ({ url: '/get-avatar/profile_image.jpg' })),
  row(`GET ${A}/physician/specialisations`, SIGNED_IN, () => ({ url: '/physician/specialisations' })),
  // Signup approval (issue 16 point 3): admins only.
  row(`GET ${A}/admin/signups`, ADMIN_ONLY, () => ({ url: '/admin/signups' })),
  // The access trail names every practice's patients and users: administrators only.
  row(`GET ${A}/admin/access-trail`, ADMIN_ONLY, () => ({ url: '/admin/access-trail?limit=5' }), { showsPracticeToNonMembers: true }),
  row(`GET ${A}/admin/access-trail.csv`, ADMIN_ONLY, () => ({ url: '/admin/access-trail.csv?limit=5' }), { showsPracticeToNonMembers: true }),
  // Who opened a patient: the practice's physicians, not its annotators.
  row(`GET ${A}/patient/access-log`, PRACTICE_WRITE, (f) => ({ url: `/patient/access-log?patient_id=${f.patientId}` })),
  // Double scoring (decision 0989): members read rounds; physicians (not annotators) assign, decide, finish and cancel; the scorer submits.
  row(`GET ${A}/scoring/rounds`, PRACTICE_READ, (f) => ({ url: `/scoring/rounds?patient_id=${f.scoring.patientId}&night=${f.scoring.night}` })),
  row(`GET ${A}/scoring/annotators`, PRACTICE_READ, (f) => ({ url: `/scoring/annotators?patient_id=${f.scoring.patientId}` })),
  row(`POST ${A}/scoring/rounds`, PRACTICE_WRITE, async (f) => {
    await f.fresh.round('none');
    return { url: '/scoring/rounds', body: { patient_id: f.scoring.patientId, night: f.scoring.night, scorer_ids: [f.scoring.annotatorId, f.scoring.annotator2Id], show_automatic: false } };
  }),
  row(`GET ${A}/scoring/assignments`, SIGNED_IN, () => ({ url: '/scoring/assignments' })),
  row(`POST ${A}/scoring/rounds/submit`, SCORER_ONLY, async (f) => ({ url: '/scoring/rounds/submit', body: { round_id: (await f.fresh.round('scoring')).roundId } })),
  row(`POST ${A}/scoring/rounds/cancel`, PRACTICE_WRITE, async (f) => ({ url: '/scoring/rounds/cancel', body: { round_id: (await f.fresh.round('scoring')).roundId } })),
  row(`GET ${A}/scoring/rounds/agreement`, PRACTICE_READ, async (f) => ({ url: `/scoring/rounds/agreement?round_id=${(await f.fresh.round('agreement', true)).roundId}` })),
  row(`GET ${A}/scoring/rounds/disagreements`, PRACTICE_READ, async (f) => ({ url: `/scoring/rounds/disagreements?round_id=${(await f.fresh.round('agreement', true)).roundId}` })),
  row(`POST ${A}/scoring/rounds/decide`, PRACTICE_WRITE, async (f) => {
    const { roundId, item } = await f.fresh.round('agreement', true);
    return { url: '/scoring/rounds/decide', body: { round_id: roundId, item, decision: { kind: 'none' } } };
  }),
  row(`POST ${A}/scoring/rounds/finish`, PRACTICE_WRITE, async (f) => ({ url: '/scoring/rounds/finish', body: { round_id: (await f.fresh.round('agreement')).roundId } })),
  row(`GET ${A}/scoring/quality`, PRACTICE_READ, (f) => ({ url: `/scoring/quality?user_id=${f.scoring.annotatorId}` })),
  row(`POST ${A}/admin/signups/:id/:decision`, ADMIN_ONLY, async (f) => ({ url: `/admin/signups/${await f.fresh.pendingSignup()}/refuse`, body: { reason: 'matrix' } })),
];
