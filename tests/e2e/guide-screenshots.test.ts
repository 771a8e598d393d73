import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO, DEMO_PASSWORD, launchChromium, newPage, openPatient, signInThroughForm, startAppServer, type AppServer } from './harness';
import { patientDetailPath } from '../../src/routes';
import { DeviceClient } from '../../server/live/device-client';
import { shortSource } from '../server/live-helpers';
import { signInHttp } from '../server/live-processes';

// The user guide's screenshots (docs/guide/img), made from the real app by
// `npm run docs:screenshots` (the vitest project 'guide', not part of npm test, which would
// rewrite them on every run): the main screens of the demo clinic in English and Arabic. One
// server, one browser, one page; every shot waits on what the screen shows, never on a clock.

const IMG = 'docs/guide/img';
const LANGUAGES = ['en-US', 'ar-SA'] as const;
type Language = (typeof LANGUAGES)[number];

let server: AppServer | null = null;
let browser: Browser | null = null;
let context: BrowserContext | null = null;
let page: Page;
let errors: string[] = [];
let device: DeviceClient | null = null;

/** "Loading…" in each language: a chart still waiting for its samples shows it. */
const LOADING = Object.fromEntries(
  LANGUAGES.map((l) => [l, (JSON.parse(readFileSync(`locales/${l}.json`, 'utf8')) as { common: { loading: string } }).common.loading]),
) as Record<Language, string>;

beforeAll(async () => {
  await mkdir(IMG, { recursive: true });
  server = await startAppServer({ SEED_NIGHTS: '1' });
  browser = await launchChromium();
  ({ context, page, errors } = await newPage(browser, server.url));
});

afterAll(async () => {
  device?.stop();
  await context?.close();
  await browser?.close();
  await server?.close();
});

/** Nothing in view still says "Loading…": no page part, no chart. */
const settled = (lng: Language) =>
  page.waitForFunction(
    (loading) => {
      const inView = (e: Element) => e.getClientRects().length > 0 && e.getBoundingClientRect().top < window.innerHeight;
      return !Array.from(document.querySelectorAll('.loading')).some(inView) && !Array.from(document.querySelectorAll('.plot-empty')).some((e) => inView(e) && e.textContent === loading);
    },
    LOADING[lng],
    { timeout: 60_000 },
  );

/** The page in `lng` (the selector of the header or of the sign-in page), right to left in Arabic. */
async function switchLanguage(lng: Language): Promise<void> {
  await page.getByTestId('language-select').first().selectOption(lng);
  await page.waitForFunction((l) => document.documentElement.lang === l, lng);
}

/** A chart frame drawn since the page loaded (the renderer's counters), with every layer's data there. */
const chartsDrawn = () =>
  page.waitForFunction(() => (window.__nocturneStats?.frames ?? 0) > 0 && window.__nocturneStats!.lastFrameComplete, undefined, { timeout: 60_000 });

async function shot(name: string, lng: Language): Promise<void> {
  await settled(lng);
  await page.screenshot({ path: `${IMG}/${name}.${lng}.png` });
}

/** The screens of the guide, in the order a physician meets them; each ends with its shot. */
async function mainScreens(lng: Language): Promise<void> {
  await page.getByTestId('nav-dashboard').click();
  await page.getByTestId('dashboard-widgets').waitFor();
  await page.getByTestId('triage-table').waitFor();
  await shot('dashboard', lng);

  await page.getByTestId('nav-patients').click();
  await page.getByTestId('patient-link').filter({ hasText: 'NCT1001' }).waitFor();
  await shot('patients', lng);

  await openPatient(page, 'NCT1001');
  // The demo's whole night, also once NCT0001's live stream has begun a night of today's.
  await page.goto((await wholeNight()).path);
  await page.getByTestId('chart-stack').waitFor();
  await chartsDrawn();
  await shot('night', lng);

  await page.getByTestId('annotation-add').click();
  await page.getByTestId('annotation-popup').waitFor();
  await shot('annotations', lng);
  await page.keyboard.press('Escape');
  await page.getByTestId('annotation-popup').waitFor({ state: 'detached' });

  await page.getByTestId('mode-trend').click();
  await page.getByTestId('trend-view').waitFor();
  await page.getByTestId('trend-chart-BR').getByTestId('trend-box').first().waitFor({ timeout: 60_000 });
  await shot('trend', lng);
  await page.getByTestId('mode-single').click();

  await page.getByTestId('nav-reports').click();
  await page.locator('[data-testid="reports-table"], [data-testid="reports-empty"]').first().waitFor();
  await shot('reports', lng);

  await page.getByTestId('nav-device-config').click();
  await page.getByTestId('device-config-card').first().waitFor();
  await shot('device-config', lng);
}

/** A device key issued in Device Config, and the demo device NCT0001 streaming with it. */
async function streamDevice(): Promise<DeviceClient> {
  const card = page.getByTestId('device-config-card').filter({ has: page.locator('h3', { hasText: 'NCT0001' }) });
  await card.getByTestId('device-key-issue').click();
  const key = (await card.getByTestId('device-key-once').textContent())!;
  const client = new DeviceClient({ server: server!.url, deviceId: 'NCT0001', key, source: shortSource('guide'), speed: SPEED });
  client.start();
  return client;
}

/** The device's data speed: each 200-ms frame carries 2 s of its night. */
const SPEED = 10;
/** Frames a tile's strip (the last minute) needs to be half drawn at that speed. */
const HALF_STRIP_FRAMES = 15;

/** The real-time dashboard with NCT0001's tile streaming and half of its strip drawn. */
async function liveScreen(lng: Language, client: DeviceClient): Promise<void> {
  await page.getByTestId('nav-realtime').click();
  // A tile draws what arrives while it is open.
  const acked = client.ackMs.length;
  const tile = page.locator('[data-testid="live-tile"][data-device="NCT0001"]');
  await tile.waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => {
    const t = document.querySelector('[data-testid="live-tile"][data-device="NCT0001"]');
    return t?.getAttribute('data-state') === 'streaming' && /^\d+$/.test(t.querySelector('[data-testid="tile-br"]')?.textContent ?? '');
  }, undefined, { timeout: 30_000 });
  await expect.poll(() => client.ackMs.length - acked, { timeout: 30_000 }).toBeGreaterThanOrEqual(HALF_STRIP_FRAMES);
  await shot('live', lng);
}

/** Calls the API with the page's session, as the browser's client does. */
function asPage<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const key = Object.keys(localStorage).find((k) => k.includes('session'))!;
      const { token } = JSON.parse(localStorage.getItem(key)!) as { token: string };
      const res = await fetch(`/api/v1${path}`, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status}`);
      return ((await res.json()) as { data: T }).data;
    },
    { method, path, body },
  );
}

/** Calls the API as another user (an annotator scoring in their own browser). */
async function asUser(token: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${server!.url}/api/v1${path}`, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = (await res.json()) as { data: unknown };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer.data;
}

/**
 * The open patient's latest whole night (not NCT0001's live stream: from noon, the nights'
 * date line, a stream begins a night of today's) and the path of its screen.
 */
async function wholeNight(): Promise<{ patientId: number; night: number; recording_start_time: number; path: string }> {
  const patientId = Number(/id=(\d+)/.exec(new URL(page.url()).pathname)![1]);
  const { nights } = await asPage<{ nights: Array<{ night: number; recording_start_time: number; recording_stop_time: number; live: boolean }> }>('GET', `/patient/available-nights?patient_id=${patientId}`);
  const night = nights.filter((n) => !n.live && n.recording_stop_time - n.recording_start_time > 6 * 3_600_000).reduce((a, b) => (b.night > a.night ? b : a));
  return { patientId, night: night.night, recording_start_time: night.recording_start_time, path: patientDetailPath(patientId, night.night) };
}

/** The night scored twice: NCT1001's latest whole demo night, and where its screen is. */
let scored: { night: number; path: string } | null = null;

/** NCT1001's latest whole night given to both demo annotators, who score it (apneas, hypopneas) and submit. */
async function doubleScoredNight(): Promise<void> {
  const night = await wholeNight();
  const patientId = night.patientId;
  scored = night;
  const { annotators } = await asPage<{ annotators: Array<{ id: number }> }>('GET', `/scoring/annotators?patient_id=${patientId}`);
  await asPage('POST', '/scoring/rounds', { patient_id: patientId, night: night.night, scorer_ids: annotators.map((a) => a.id), show_automatic: true });
  const epochs = [[100, 300, 500, 650], [100, 320, 500, 600, 700]];
  for (const [i, email] of [DEMO.annotator, 'annotator2@demo.nocturne.test'].entries()) {
    const token = await signInHttp(server!.url, email, DEMO_PASSWORD);
    for (const [j, e] of epochs[i]!.entries()) {
      const label = j % 2 === 0 ? 1 : 3;
      await asUser(token, 'POST', '/analytics/patient/new-annotations', { patient_id: patientId, night: night.night, kpi: ['BR'], start_time: night.recording_start_time + e * 30_000, duration: '00:00:20', label, color_code: '#DA7171', comment: '' });
    }
    const { round } = (await asUser(token, 'GET', `/scoring/rounds?patient_id=${patientId}&night=${night.night}`)) as { round: { round_id: number } };
    await asUser(token, 'POST', '/scoring/rounds/submit', { round_id: round.round_id });
  }
}

/** The night's Double scoring panel: the agreement of the two annotators and the adjudication. */
async function doubleScoringScreen(lng: Language): Promise<void> {
  await page.goto(scored!.path);
  await page.getByTestId('night-page').waitFor();
  await page.getByTestId('agreement').waitFor({ timeout: 30_000 });
  await page.getByTestId('adjudication-item').waitFor();
  // The panel just under the app's header.
  await page.getByTestId('double-scoring').evaluate((e) => window.scrollBy(0, e.getBoundingClientRect().top - (document.querySelector('header')?.getBoundingClientRect().bottom ?? 0) - 8));
  await shot('double-scoring', lng);
  await page.evaluate(() => window.scrollTo(0, 0));
}

describe('the guide screenshots', () => {
  it('captures every main screen in English and Arabic', async () => {
    await page.goto('/');
    await page.getByTestId('signin-email').waitFor();
    for (const lng of [...LANGUAGES].reverse()) {
      await switchLanguage(lng);
      await shot('signin', lng);
    }
    await signInThroughForm(page, server!.url, DEMO.physician);
    for (const lng of LANGUAGES) {
      if (lng !== LANGUAGES[0]) await switchLanguage(lng);
      await mainScreens(lng);
      device ??= await streamDevice();
      await liveScreen(lng, device);
      if (lng === LANGUAGES[0]) {
        await openPatient(page, 'NCT1001');
        await doubleScoredNight();
      }
      await doubleScoringScreen(lng);
    }
    expect(errors).toEqual([]);
  });
});
