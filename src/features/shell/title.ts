import type { Capabilities } from '../../state/roles';

/**
 * Page title from the path (spec 1 §2): My Patients, Dashboard, Patient Information,
 * Patient Detail, otherwise the path segment's screen. Every title is a translation key:
 * the URL spelling ("device_config") is never shown; a path the app does not know is
 * titled "Page not found", and so is one the user's role may not open (it shows the 404 page).
 */

type TitleKey =
  | 'titles.trail'
  | 'titles.patients'
  | 'titles.dashboard'
  | 'titles.patientInformation'
  | 'titles.patientDetail'
  | 'titles.editPatient'
  | 'titles.newPatient'
  | 'titles.addPatient'
  | 'titles.realTime'
  | 'titles.realtimeDashboard'
  | 'titles.deviceConfig'
  | 'titles.dataCenter'
  | 'titles.privacy'
  | 'titles.terms'
  | 'titles.faq'
  | 'titles.documents'
  | 'titles.deviceInstructions'
  | 'titles.userManual'
  | 'titles.patientSheet'
  | 'titles.requests'
  | 'titles.signups'
  | 'titles.reports'
  | 'titles.samplePatients'
  | 'titles.scoring'
  | 'titles.settings'
  | 'titles.calendar'
  | 'titles.appointments'
  | 'titles.billing'
  | 'titles.bench'
  | 'titles.signIn'
  | 'titles.signUp'
  | 'titles.forgotPassword'
  | 'titles.notFound';

export interface PageTitle {
  kind: 'key';
  key: TitleKey;
}

const key = (k: TitleKey): PageTitle => ({ kind: 'key', key: k });

/** First path segment after /app → title key. */
const BY_SEGMENT: Record<string, TitleKey> = {
  '': 'titles.dashboard',
  dashboard: 'titles.dashboard',
  view_patient_info: 'titles.patientInformation',
  patient: 'titles.editPatient',
  new_patient: 'titles.newPatient',
  'add-patient': 'titles.addPatient',
  device_testing: 'titles.realTime',
  realtimeDashboard: 'titles.realtimeDashboard',
  device_config: 'titles.deviceConfig',
  datacenter: 'titles.dataCenter',
  reports: 'titles.reports',
  'sample-patients': 'titles.samplePatients',
  scoring: 'titles.scoring',
  settings: 'titles.settings',
  calender: 'titles.calendar',
  appointments: 'titles.appointments',
  billing: 'titles.billing',
  'privacy-policy': 'titles.privacy',
  'terms-of-use': 'titles.terms',
  faq: 'titles.faq',
  admin: 'titles.requests',
  bench: 'titles.bench',
  signin: 'titles.signIn',
};

/** Documents sub-pages under /app/documents/…. */
const DOCUMENTS: Record<string, TitleKey> = {
  'device-instructions': 'titles.deviceInstructions',
  'user-manual': 'titles.userManual',
  'patient-information-sheet': 'titles.patientSheet',
};

/** Top-level paths outside /app. */
const TOP_LEVEL: Record<string, TitleKey> = {
  '': 'titles.dashboard',
  signin: 'titles.signIn',
  signup: 'titles.signUp',
  forgot_password: 'titles.forgotPassword',
};

/** Splits a path into its non-empty segments, ignoring query and hash. */
function segmentsOf(path: string): string[] {
  const bare = path.split(/[?#]/, 1)[0] ?? '';
  return bare.split('/').filter((s) => s.length > 0);
}

/**
 * Screens only some roles have (AppRoutes leaves them out for the others): the capabilities any
 * of which opens one, whether the screen itself or a note saying whose screen it is (the admins'
 * signups and trail explain themselves to everyone; an admin is told the wizard is not theirs).
 */
type Capability = keyof Omit<Capabilities, 'appRoot'>;
const GATED: Partial<Record<TitleKey, readonly Capability[]>> = {
  'titles.realTime': ['realtime'],
  'titles.realtimeDashboard': ['realtime'],
  'titles.deviceConfig': ['deviceConfig'],
  'titles.reports': ['reports'],
  'titles.samplePatients': ['samplePatients'],
  'titles.scoring': ['scoring'],
  'titles.settings': ['settings'],
  'titles.calendar': ['calendar'],
  'titles.appointments': ['appointments'],
  'titles.billing': ['billing'],
  'titles.newPatient': ['addPatient', 'admin'],
  'titles.addPatient': ['addPatient', 'admin'],
};

/** The title of the page at `path`; with `caps`, a screen the role may not open (the 404 page) is "Page not found". */
export function titleFromPath(path: string, caps?: Capabilities): PageTitle {
  const title = titleOfPath(path);
  const needs = GATED[title.key];
  return caps && needs && !needs.some((c) => caps[c]) ? key('titles.notFound') : title;
}

function titleOfPath(path: string): PageTitle {
  const segments = segmentsOf(path);
  const inApp = segments[0]?.toLowerCase() === 'app';
  if (!inApp) return key(segments.length <= 1 ? (TOP_LEVEL[segments[0] ?? ''] ?? 'titles.notFound') : 'titles.notFound');
  const rest = segments.slice(1);
  const first = rest[0] ?? '';

  if (first === 'patients') {
    // /app/patients/id=7?night=… is one patient's detail; the bare list is My Patients.
    return rest.length > 1 ? key('titles.patientDetail') : key('titles.patients');
  }
  if (first === 'admin' && rest[1] === 'signups') return key('titles.signups');
  if (first === 'admin' && rest[1] === 'trail') return key('titles.trail');
  if (first === 'documents') {
    if (rest.length === 1) return key('titles.documents');
    return key(DOCUMENTS[rest[1] ?? ''] ?? 'titles.notFound');
  }
  return key(BY_SEGMENT[first] ?? 'titles.notFound');
}
