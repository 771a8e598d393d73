/** Every path the app knows, so links, guards and titles agree on spelling. */
export const PATHS = {
  root: '/',
  signIn: '/app/signin',
  signInTop: '/signin',
  signUp: '/signup',
  forgotPassword: '/forgot_password',
  dashboard: '/app/',
  dashboardAlias: '/app/dashboard/default',
  patients: '/app/patients',
  realtime: '/app/realtimeDashboard',
  deviceTesting: '/app/device_testing',
  deviceConfig: '/app/device_config',
  dataCenter: '/app/datacenter',
  reports: '/app/reports',
  samplePatients: '/app/sample-patients',
  scoring: '/app/scoring',
  settings: '/app/settings',
  /** The spec's spelling. */
  calendar: '/app/calender',
  appointments: '/app/appointments',
  billing: '/app/billing',
  newPatient: '/app/new_patient',
  addPatient: '/app/add-patient',
  privacy: '/app/privacy-policy',
  terms: '/app/terms-of-use',
  faq: '/app/faq',
  documents: '/app/documents',
  deviceInstructions: '/app/documents/device-instructions',
  userManual: '/app/documents/user-manual',
  patientSheet: '/app/documents/patient-information-sheet',
  bench: '/app/bench',
} as const;

/** /app/patients/id={id}: the patient detail screen (spec 2 §2); the id is captured as `id`. */
export const PATIENT_DETAIL_PATTERN = /^\/app\/patients\/id=(?<id>\d+)\/?$/;

/** Link to a patient's detail screen, optionally on one night (Unix seconds). */
export function patientDetailPath(id: number | string, night?: number): string {
  return `/app/patients/id=${id}${night === undefined ? '' : `?night=${night}`}`;
}

/** /app/patient/id={id}/edit: the edit patient screen (spec 1 §2). */
export const EDIT_PATIENT_PATTERN = /^\/app\/patient\/id=(?<id>\d+)\/edit\/?$/;
/** /app/view_patient_info/id={id}: the patient information view. */
export const VIEW_PATIENT_INFO_PATTERN = /^\/app\/view_patient_info\/id=(?<id>\d+)\/?$/;
/** Past-date deployment requests, for admins. */
export const ADMIN_REQUESTS_PATH = '/app/admin/requests';
/** Signed-up accounts waiting for an admin's approval. */
export const ADMIN_SIGNUPS_PATH = '/app/admin/signups';
/** The access trail: who read or changed what, for admins. */
export const ADMIN_TRAIL_PATH = '/app/admin/trail';

/** Link to a patient's edit screen; `deployDevice` opens the device section. */
export function editPatientPath(id: number | string, deployDevice = false): string {
  return `/app/patient/id=${id}/edit${deployDevice ? '?deploy_device=true' : ''}`;
}

/** Link to a patient's information view. */
export function viewPatientInfoPath(id: number | string): string {
  return `/app/view_patient_info/id=${id}`;
}

/** Link to the Real Time view of a device (spec: an encoded query with id, did and back). */
export function deviceTestingPath(patientId: number | null, deviceId: string, back: string): string {
  const q = new URLSearchParams({ ...(patientId === null ? {} : { id: String(patientId) }), did: deviceId, back });
  return `${PATHS.deviceTesting}?${q.toString()}`;
}

/** After logout the app lands here (spec 1 §2); the guard then shows sign-in. */
export const LOGOUT_LANDING = PATHS.dashboardAlias;
