/** Constants shared by the app, in one place, with units in their names. */

/** Signed out after this long without mouse, key, scroll, click or load activity (spec 1 §9). */
export const IDLE_SIGN_OUT_MS = 28_800_000;

/** Base of every API call: the page's origin plus the version path. */
export const API_BASE = '/api/v1';

/** Where support mail goes; a deployment overrides it with VITE_SUPPORT_EMAIL. */
export const SUPPORT_EMAIL: string = import.meta.env?.VITE_SUPPORT_EMAIL ?? 'support@nocturne.test';

/** A one-time password is exactly this many digits. */
export const OTP_LENGTH = 6;

/** The server refuses shorter passwords; the forms say so before sending. */
export const PASSWORD_MIN_LENGTH = 8;

/** Storage keys; the `nocturne.` prefix keeps them apart from anything else on the origin. */
export const STORAGE = {
  session: 'nocturne.session',
  language: 'nocturne.language',
  sidebarOpen: 'nocturne.sidebarOpen',
  /** In sessionStorage: path + query a signed-out visitor wanted, restored after the OTP. */
  origin: 'nocturne.origin',
  /** Whether this browser's WebGL draws on the CPU ('1') or a GPU ('0'), decision 0998. */
  webglSoftware: 'nocturne.webglSoftware',
} as const;
