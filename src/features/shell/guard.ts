import { PATHS } from '../../routes';
import type { Capabilities } from '../../state/roles';

/** What the guard knows about the visitor. */
export interface Access {
  /** A token is held. */
  authenticated: boolean;
  /** The user's details were loaded for that token. */
  authorized: boolean;
  caps: Capabilities;
}

export type GuardDecision =
  | { kind: 'render' }
  /** `remember` is the path + query to come back to after sign-in. */
  | { kind: 'redirect'; to: string; remember?: string };

/** Pages for signing in or up: a signed-in visitor has no business there. */
const AUTH_PAGES = new Set<string>([
  PATHS.root,
  PATHS.signIn,
  PATHS.signInTop,
  PATHS.signUp,
  PATHS.forgotPassword,
]);

/** Under /app but readable without an account: the consent line links to them. */
const PUBLIC_APP_PAGES = new Set<string>([PATHS.privacy, PATHS.terms, PATHS.faq]);

/** Drops one trailing slash so /app/patients/ and /app/patients agree. */
export function normalisePath(path: string): string {
  if (path.length > 1 && path.endsWith('/')) return path.slice(0, -1);
  return path;
}

/** True for /app and everything under it. */
export function isAppPath(path: string): boolean {
  return path === '/app' || path.startsWith('/app/');
}

/** True for the pages readable without signing in, whether or not one is signed in. */
export function isPublicAppPage(path: string): boolean {
  return PUBLIC_APP_PAGES.has(normalisePath(path));
}

/**
 * Decides, from the location alone, whether to render or redirect (spec 1 §2, §6).
 * Pure, so the rules can be tested without a browser.
 */
export function decideRoute(path: string, search: string, access: Access): GuardDecision {
  const p = normalisePath(path);
  const signedIn = access.authenticated && access.authorized;
  const isAuthPage = AUTH_PAGES.has(p);

  if (isAuthPage) {
    if (signedIn) return { kind: 'redirect', to: access.caps.appRoot };
    if (p === PATHS.root) return { kind: 'redirect', to: PATHS.signIn };
    return { kind: 'render' };
  }
  if (!isAppPath(p) || PUBLIC_APP_PAGES.has(p)) return { kind: 'render' };

  if (!signedIn) {
    const query = search ? (search.startsWith('?') ? search : `?${search}`) : '';
    return { kind: 'redirect', to: PATHS.signIn, remember: `${path}${query}` };
  }
  const isDashboard = p === '/app' || p === PATHS.dashboardAlias;
  if (isDashboard && !access.caps.dashboard) return { kind: 'redirect', to: access.caps.appRoot };
  return { kind: 'render' };
}

/**
 * Where to go after the OTP: the remembered origin if it is a path inside this app,
 * else the root. Anything else (another origin, `//evil`) is ignored.
 */
export function afterSignIn(remembered: string | null | undefined): string {
  if (remembered && remembered.startsWith('/') && !remembered.startsWith('//')) return remembered;
  return PATHS.root;
}
