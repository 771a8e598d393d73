import type { ReactNode } from 'react';
import { SUPPORT_EMAIL } from '../../config';
import { ADMIN_REQUESTS_PATH, ADMIN_SIGNUPS_PATH, ADMIN_TRAIL_PATH, PATHS } from '../../routes';
import type { Capabilities } from '../../state/roles';
import { CalendarIcon, CardIcon, ClipboardIcon, DatabaseIcon, GearIcon, HomeIcon, PatientsIcon, PulseIcon, SlidersIcon } from './icons';

export interface MainEntry {
  id: string;
  href: string;
  labelKey: 'nav.dashboard' | 'nav.patients' | 'nav.realtime' | 'nav.deviceConfig' | 'nav.dataCenter' | 'nav.adminRequests' | 'nav.adminSignups' | 'nav.adminTrail' | 'nav.reports' | 'nav.samplePatients' | 'nav.scoring' | 'nav.calendar' | 'nav.appointments' | 'nav.settings' | 'nav.billing';
  icon: () => ReactNode;
  testId: string;
  /** Also active on these paths (aliases). */
  alsoActive?: readonly string[];
  visible: (caps: Capabilities) => boolean;
}

/** The sidebar's main menu (spec 1 §2); annotators see no Dashboard, Real Time or Device Config. */
export const MAIN_MENU: readonly MainEntry[] = [
  { id: 'dashboard', href: PATHS.dashboard, labelKey: 'nav.dashboard', icon: HomeIcon, testId: 'nav-dashboard', alsoActive: ['/app', PATHS.dashboardAlias], visible: (c) => c.dashboard },
  { id: 'patients', href: PATHS.patients, labelKey: 'nav.patients', icon: PatientsIcon, testId: 'nav-patients', visible: () => true },
  { id: 'sample-patients', href: PATHS.samplePatients, labelKey: 'nav.samplePatients', icon: PatientsIcon, testId: 'nav-sample-patients', visible: (c) => c.samplePatients },
  { id: 'scoring', href: PATHS.scoring, labelKey: 'nav.scoring', icon: ClipboardIcon, testId: 'nav-scoring', visible: (c) => c.scoring },
  { id: 'realtime', href: PATHS.realtime, labelKey: 'nav.realtime', icon: PulseIcon, testId: 'nav-realtime', visible: (c) => c.realtime },
  { id: 'device-config', href: PATHS.deviceConfig, labelKey: 'nav.deviceConfig', icon: SlidersIcon, testId: 'nav-device-config', visible: (c) => c.deviceConfig },
  { id: 'datacenter', href: PATHS.dataCenter, labelKey: 'nav.dataCenter', icon: DatabaseIcon, testId: 'nav-datacenter', visible: () => true },
  { id: 'reports', href: PATHS.reports, labelKey: 'nav.reports', icon: DatabaseIcon, testId: 'nav-reports', visible: (c) => c.reports },
  // The spec's other menu groups (issue 17 point 5).
  { id: 'calendar', href: PATHS.calendar, labelKey: 'nav.calendar', icon: CalendarIcon, testId: 'nav-calendar', visible: (c) => c.calendar },
  { id: 'appointments', href: PATHS.appointments, labelKey: 'nav.appointments', icon: ClipboardIcon, testId: 'nav-appointments', visible: (c) => c.appointments },
  { id: 'settings', href: PATHS.settings, labelKey: 'nav.settings', icon: GearIcon, testId: 'nav-settings', visible: (c) => c.settings },
  { id: 'billing', href: PATHS.billing, labelKey: 'nav.billing', icon: CardIcon, testId: 'nav-billing', visible: (c) => c.billing },
  // Admins' own screens (issue 16 point 3).
  { id: 'admin-requests', href: ADMIN_REQUESTS_PATH, labelKey: 'nav.adminRequests', icon: SlidersIcon, testId: 'nav-admin-requests', visible: (c) => c.admin },
  { id: 'admin-signups', href: ADMIN_SIGNUPS_PATH, labelKey: 'nav.adminSignups', icon: PatientsIcon, testId: 'nav-admin-signups', visible: (c) => c.admin },
  { id: 'admin-trail', href: ADMIN_TRAIL_PATH, labelKey: 'nav.adminTrail', icon: DatabaseIcon, testId: 'nav-admin-trail', visible: (c) => c.admin },
];

export interface MoreEntry {
  id: string;
  href: string;
  labelKey:
    | 'nav.documents'
    | 'nav.support'
    | 'nav.privacy'
    | 'nav.terms'
    | 'nav.deviceInstructions'
    | 'nav.userManual'
    | 'nav.patientSheet'
    | 'nav.faq';
  /** Leaves the app (mail client) instead of routing. */
  external?: boolean;
}

/** The bottom 'More' menu, in the spec's order. */
export const MORE_MENU: readonly MoreEntry[] = [
  { id: 'documents', href: PATHS.documents, labelKey: 'nav.documents' },
  { id: 'support', href: `mailto:${SUPPORT_EMAIL}`, labelKey: 'nav.support', external: true },
  { id: 'privacy', href: PATHS.privacy, labelKey: 'nav.privacy' },
  { id: 'terms', href: PATHS.terms, labelKey: 'nav.terms' },
  { id: 'device-instructions', href: PATHS.deviceInstructions, labelKey: 'nav.deviceInstructions' },
  { id: 'user-manual', href: PATHS.userManual, labelKey: 'nav.userManual' },
  { id: 'patient-sheet', href: PATHS.patientSheet, labelKey: 'nav.patientSheet' },
  { id: 'faq', href: PATHS.faq, labelKey: 'nav.faq' },
];
