import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/**
 * The Content-Security-Policy the built app runs under (verified in Chromium by
 * tests/e2e/csp.test.ts: sign-in and a drawn night with no violation):
 * - scripts only from this origin, no inline script and no eval (Function(), eval and
 *   string timers are refused); 'wasm-unsafe-eval' lets the signal engine compile its
 *   WebAssembly;
 * - workers from this origin (Vite emits the signal worker as a file; blob: for browsers
 *   that wrap module workers);
 * - styles from this origin; React sets element styles through the CSSOM, which CSP does not govern;
 * - images and fonts from this origin or data:/blob: URLs (chart exports, inline SVG icons);
 * - the page cannot be framed (frame-ancestors 'none'), forms post only here, no plugins.
 * No upgrade-insecure-requests: an installation reached over plain HTTP on a LAN would break.
 */
const CSP_DIRECTIVES = {
  'default-src': ["'self'"],
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  'worker-src': ["'self'", 'blob:'],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
} as const;

/**
 * Security headers on every answer (issue 13 point 7): the CSP above, X-Content-Type-Options
 * nosniff, Referrer-Policy no-referrer (night links carry signatures in their query),
 * X-Frame-Options for old browsers, and helmet's other defaults. The session token lives in
 * localStorage, so a script that should not run must not run.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES as unknown as Record<string, string[]> },
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    // Served over plain HTTP on loopback by default; HSTS belongs to the TLS proxy in front.
    strictTransportSecurity: false,
  });
}
