import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { readConfig } from '../../server/config';
import { openDatabase, prepare } from '../../server/start';
import { simulateForPatient } from '../../server/simulator/simulated';
import { clinicDataDir, DEMO, launchChromium, newPage, signInThroughForm, startAppServer, type AppServer } from './harness';

// Issue 13 point 7: the built app under its Content-Security-Policy. Signing in and drawing
// a night (WebGL, the signal worker, its WebAssembly engine, fonts, styles) must raise no
// violation; the headers are on every answer.

let server: AppServer | null = null;
let dataDir = '';
let base = '';
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
const cspConsole: string[] = [];

beforeAll(async () => {
  // One simulated night of NCT1001, stored before the server starts (quicker than all demo nights).
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'nocturne-csp-'));
  // The run's migrated demo clinic: the start below finds it seeded and only adds the night.
  await clinicDataDir(dataDir);
  const config = { ...readConfig({ DATA_DIR: dataDir, SEED_NIGHTS: '0' }), webRoot: null };
  const opened = await openDatabase(config);
  const running = await prepare(config, opened.db, opened.release);
  const [patient] = await running.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1001'`);
  await simulateForPatient(running.db, { patientId: patient.id, patientCode: 'NCT1001', deviceId: 'NCT0001', timezone: 'Europe/Zurich', nights: 1, profile: 'moderate_osa' });
  await running.close();
  server = await startAppServer({ DATA_DIR: dataDir, SEED_NIGHTS: '0' });
  base = server.url;
  browser = await launchChromium();
  ({ context, page, errors } = await newPage(browser, base));
  // Injected by the browser's debugging protocol, so it runs whatever the page's CSP says.
  await context.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  });
  page.on('console', (m) => {
    if (/Content[- ]Security[- ]Policy/i.test(m.text())) cspConsole.push(m.text());
  });
  page.on('worker', (w) => w.evaluate(() => self.addEventListener('securitypolicyviolation', (e) => console.error(`Content Security Policy (worker): ${(e as SecurityPolicyViolationEvent).violatedDirective}`))).catch(() => undefined));
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const violations = () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);

describe('security headers and CSP', () => {
  it('sends the headers on the page and on the API', async () => {
    for (const url of ['/', '/api/v1/countries', '/assets/does-not-exist.js']) {
      const res = await fetch(`${base}${url}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, url).toContain("script-src 'self' 'wasm-unsafe-eval';");
      expect(csp, url).not.toContain("'unsafe-eval'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('signs in and draws a night with no CSP violation', async () => {
    await page.goto('/');
    await signInThroughForm(page, base, DEMO.physician);
    await page.getByTestId('dashboard').waitFor();
    await page.goto('/app/patients', { waitUntil: 'domcontentloaded' });
    await page.getByTestId('patient-link').filter({ hasText: 'NCT1001' }).click();
    await page.getByTestId('night-page').waitFor();
    await page.getByTestId('chart-stack').waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByTestId('channel-BR').isEnabled(), { timeout: 90_000 }).toBe(true);
    // Numbers computed by the WebAssembly engine in the worker, drawn by WebGL.
    await expect.poll(() => page.getByTestId('stats-BR').innerText(), { timeout: 60_000 }).toMatch(/min \d.*p90 \d/);
    await expect.poll(() => page.evaluate(() => (window as unknown as { __nocturneStats?: { drawCalls: number } }).__nocturneStats?.drawCalls ?? 0)).toBeGreaterThan(0);
    expect(await violations()).toEqual([]);
    expect(cspConsole).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('an inline script injected into the page does not run', async () => {
    const ran = await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inlineRan = true';
      document.body.appendChild(s);
      return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
    });
    expect(ran).toBe(false);
    expect((await violations()).some((v) => v.startsWith('script-src'))).toBe(true);
  });
});
