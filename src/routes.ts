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
  deviceConfig: '/app/device_config',
  dataCenter: '/app/datacenter',
  newPatient: '/app/new_patient',
  addPatient: '/app/add-patient',
  privacy: '/app/privacy-policy',
  terms: '/app/terms-of-use',
  faq: '/app/faq',
  documents: '/app/documents',
  deviceInstructions: '/app/documents/device-instructions',
  userManual: '/app/documents/user-manual',
  patientSheet: '/app/documents/patient-information-sheet',
} as const;

/** After logout the app lands here (spec 1 §2); the guard then shows sign-in. */
export const LOGOUT_LANDING = PATHS.dashboardAlias;
