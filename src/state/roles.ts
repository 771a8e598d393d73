import { PATHS } from '../routes';

/** The parts of user details that decide what a user may see. */
export interface RoleFlags {
  is_annotator?: boolean;
  is_admin?: boolean;
  membership_type?: 'paid' | 'non-paid';
}

/** What the shell offers a user; every role check in the UI reads from here (spec 1 §6). */
export interface Capabilities {
  /** Dashboard menu entry and page. */
  dashboard: boolean;
  /** Device Config menu entry. */
  deviceConfig: boolean;
  /** Real Time menu entry, the real-time dashboard and the Real Time view (spec 2: annotators get no real-time link). */
  realtime: boolean;
  /** /app/new_patient and /app/add-patient exist (not for annotators; an admin is told patients are added by their physician). */
  addPatient: boolean;
  /** The admin screens: past-date requests and signup approval. */
  admin: boolean;
  /** Reports menu entry and /app/reports: the practice's PDF reports (not annotators, not admins). */
  reports: boolean;
  /** Sample patients menu entry and /app/sample-patients: the practice's de-identified teaching nights (physicians and annotators, not admins). */
  samplePatients: boolean;
  /** Scoring menu entry and /app/scoring: an annotator's nights to score blind and their agreement with consensus; a physician's double scorings and where each stands (issue 36). */
  scoring: boolean;
  /** Settings menu entry and /app/settings: the practice's analytics settings, label map and categories (not annotators, not admins). */
  settings: boolean;
  /** Calendar menu entry and /app/calender: the practice's check-ups, device returns and bookings (members and annotators, not admins). */
  calendar: boolean;
  /** Appointments menu entry and /app/appointments: the practice's check-ups as a list. */
  appointments: boolean;
  /** Billing menu entry and /app/billing: the membership and what it includes (the practice's business, not annotators', not admins'). */
  billing: boolean;
  /** Where "the app root" is for this user. */
  appRoot: string;
}

/** Annotators act read-only for their physician: no dashboard, no real time, no device config, no new patients; administrators have no devices. */
export function capabilitiesOf(user: RoleFlags | null | undefined): Capabilities {
  const annotator = user?.is_annotator === true;
  // Devices are a practice's: an administrator has none to watch or configure (the live routes refuse them).
  const practice = !annotator && user?.is_admin !== true;
  return {
    dashboard: !annotator,
    deviceConfig: practice,
    realtime: practice,
    addPatient: practice,
    admin: user?.is_admin === true,
    reports: practice,
    samplePatients: user?.is_admin !== true,
    scoring: user?.is_admin !== true,
    settings: practice,
    calendar: user?.is_admin !== true,
    appointments: user?.is_admin !== true,
    billing: practice,
    appRoot: annotator ? PATHS.patients : PATHS.dashboard,
  };
}
