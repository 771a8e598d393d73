import { navigate } from 'wouter/use-browser-location';
import { configureClient } from '../../api/client';
import { api } from '../../api/endpoints';
import { actionForError } from '../../api/errors';
import { queryClient } from '../../api/queryClient';
import { clearChannelCache } from '../../cache/channelCache';
import { forgetPrefetched } from '../night/api';
import { forgetOverviewRequests } from '../night/preload';
import { LOGOUT_LANDING, PATHS } from '../../routes';
import { clearEverything, rememberSignOutReason, session, signOut } from '../../state/session';

function onSignInPage(): boolean {
  const p = window.location.pathname;
  return p === PATHS.signIn || p === PATHS.signInTop || p === `${PATHS.signIn}/` || p === `${PATHS.signInTop}/`;
}

/** Wires the API client to the session: token in, 'Invalid credentials' out (spec 1 §4). */
export function connectClientToSession(): void {
  configureClient({
    getToken: () => session.token,
    onError: (error) => {
      if (actionForError(error, { onSignInPage: onSignInPage() }) !== 'clear-session') return;
      if (!session.token) return;
      clearEverything();
      queryClient.clear();
      navigate(PATHS.root, { replace: true });
    },
  });
}

/**
 * Ends the session on the server and here, drops cached server data and lands on the
 * dashboard alias, which the guard turns into sign-in. Used by logout and idle sign-out
 * (`reason` 'idle': the sign-in page then says why).
 */
export async function logout(reason?: 'idle'): Promise<void> {
  if (reason) rememberSignOutReason(reason);
  try {
    await api.logout();
  } catch {
    // The token may already be gone on the server; signing out locally is what matters.
  }
  // Signed out and moved on in one step: navigating after the cache's emptying (which may be
  // slow) mounted the sign-in page twice, wiping what the user had begun to type.
  signOut();
  navigate(LOGOUT_LANDING, { replace: true });
  queryClient.clear();
  forgetPrefetched();
  forgetOverviewRequests();
  await clearChannelCache();
}
