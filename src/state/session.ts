import { proxy, subscribe } from 'valtio/vanilla';
import type { UserDetails } from '../../contract/answers';
import { STORAGE } from '../config';
import { clearAll, readItem, writeItem } from './storage';

/** Who is signed in. Both flags are needed for the /app area (spec 1 §6). */
export interface SessionState {
  token: string | null;
  user_id: number | string | null;
  user_details: UserDetails | null;
  /** A token was issued by the OTP step. */
  is_authenticated: boolean;
  /** The user's details were loaded with that token. */
  is_authorized: boolean;
}

const EMPTY: SessionState = {
  token: null,
  user_id: null,
  user_details: null,
  is_authenticated: false,
  is_authorized: false,
};

function load(): SessionState {
  const raw = readItem('localStorage', STORAGE.session);
  if (!raw) return { ...EMPTY };
  try {
    const saved = JSON.parse(raw) as Partial<SessionState>;
    if (typeof saved.token !== 'string' || !saved.token) return { ...EMPTY };
    return { ...EMPTY, ...saved };
  } catch {
    return { ...EMPTY };
  }
}

/** The session, persisted in localStorage so a reload stays signed in. */
export const session = proxy<SessionState>(load());

subscribe(session, () => {
  writeItem('localStorage', STORAGE.session, session.token ? JSON.stringify(session) : null);
});

/** Stores the token from a verified OTP; the user's details come next. */
export function signedIn(user_id: number | string, token: string): void {
  session.token = token;
  session.user_id = user_id;
  session.is_authenticated = true;
  session.is_authorized = false;
}

/** Stores the user's details; from now on the /app area is open. */
export function authorized(details: UserDetails): void {
  session.user_details = details;
  session.is_authorized = true;
}

/** Forgets the user (logout, idle): keeps preferences such as language and sidebar. */
export function signOut(): void {
  Object.assign(session, EMPTY);
  writeItem('localStorage', STORAGE.session, null);
  writeItem('sessionStorage', STORAGE.origin, null);
}

/** 'Invalid credentials': clears local and session storage entirely, as the spec says. */
export function clearEverything(): void {
  Object.assign(session, EMPTY);
  clearAll();
}

/** Another tab signed in or out: follow it, so a logout anywhere ends the session everywhere. */
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== STORAGE.session && event.key !== null) return;
    Object.assign(session, load());
  });
}

/** Why the last sign-out happened, for the sign-in page to say (kept for this tab only). */
const SIGN_OUT_REASON_KEY = 'nocturne.signOutReason';

/**
 * The reason of the sign-out that led to the sign-in page; it stays until the next sign-in
 * (the sign-in page may mount more than once on the way there).
 */
export function signOutReason(): 'idle' | null {
  return readItem('sessionStorage', SIGN_OUT_REASON_KEY) === 'idle' ? 'idle' : null;
}

/** Keeps why the session is being ended, for the sign-in page. */
export function rememberSignOutReason(reason: 'idle'): void {
  writeItem('sessionStorage', SIGN_OUT_REASON_KEY, reason);
}

/** Forgets the reason of the last sign-out (a new session has begun). */
export function clearSignOutReason(): void {
  writeItem('sessionStorage', SIGN_OUT_REASON_KEY, null);
}
