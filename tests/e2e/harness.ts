import { afterAll, beforeAll, inject } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Download, type Page } from 'playwright-core';
import { chromiumOptions } from './chromium';
import { withNewCluster } from '../pglite-cluster';
import { nodeEntry } from '../server-bundle';
import { inflateSync } from 'node:zlib';
import { DateTime } from 'luxon';
import { KEY_DEBOUNCE_MS } from '../../src/time/epochs';

export const DEMO_PASSWORD = 'nocturne-demo';
export const DEMO = {
  physician: 'physician@demo.nocturne.test',
  annotator: 'annotator@demo.nocturne.test',
  admin: 'admin@demo.nocturne.test',
  secondary: 'secondary@demo.nocturne.test',
  paid: 'paid@demo.nocturne.test',
} as const;

/** The real server (`npm start`'s entry, compiled in a vitest run) on a fresh data directory and a free port, serving dist/. */
export interface AppServer {
  url: string;
  /** What the server printed so far (stdout and stderr). */
  output(): string;
  close(): Promise<void>;
}

/**
 * `startMs`: how long the server may take to come up (seeding simulated nights on a busy machine takes a while).
 * `keepDataDir`: a data directory to use and keep on close (a restart test starts a second server on it).
 */
export async function startAppServer(env: Record<string, string> = {}, startMs = 60_000, keepDataDir?: string): Promise<AppServer> {
  const dataDir = keepDataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'nocturne-e2e-')));
  // A suite with the demo nights starts from a copy of the run's one seeded directory: the
  // server finds them simulated and analysed, as on any second start, and goes on at once.
  // Outside vitest (the benchmarks use this harness too) the server seeds them itself.
  // A directory to keep starts from one too while it is empty (its first server).
  if (process.env.VITEST && !env.DATA_DIR && (!keepDataDir || (await readdir(keepDataDir)).length === 0)) {
    const template = env.SEED_NIGHTS === '1' ? 'seeded' : (env.SEED_NIGHTS ?? '0') === '0' && !env.NODE_ENV && !env.SEED_DEMO && !env.DATABASE_URL ? 'clinic' : null;
    if (template) await cp(await seededTemplate(template), dataDir, { recursive: true });
  }
  // Any other new embedded database starts from the run's new cluster (no initdb of its own).
  if (process.env.VITEST && !env.DATABASE_URL) await withNewCluster(inject('e2eClusterDir'), env.DATA_DIR ?? dataDir);
  // In a vitest run, the run's compiled server (tests/server-bundle.ts: the same code, 3 CPU-s a start less).
  const child: ChildProcess = spawn(process.execPath, nodeEntry('main'), {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_ROOT: path.resolve('dist'), DATABASE_URL: '', SMTP_URL: '', SEED_NIGHTS: '0', CHECK_ANSWERS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), startMs);
    child.stdout!.on('data', (c: Buffer) => {
      output += c.toString();
      const m = /running at (http:\/\/localhost:\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1].replace('localhost', '127.0.0.1'));
      }
    });
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return {
    url,
    output: () => output,
    async close() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      if (!keepDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The migrated demo clinic ('clinic'), or the clinic with its simulated nights and their
 * dashboard rows ('seeded'), made once per `vitest run` (in the scratch directory of
 * tests/e2e/global-setup.ts) by the first suite that needs it: simulating the nights is most
 * of a start's time, and eight suites need them; creating, migrating and seeding a database is
 * most of the rest (about 60 % of a start on this machine), and seven more suites start from
 * the clinic alone.
 */
/** Resolves when another file's build of a template is renamed into place (`dir` appears). */
function builtElsewhere(dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(path.dirname(dir));
    const timer = setTimeout(() => done(new Error(`${path.basename(dir)}: the template was not built within 9 minutes`)), 540_000);
    const done = (err?: Error) => {
      clearTimeout(timer);
      watcher.close();
      if (err) reject(err);
      else resolve();
    };
    watcher.on('change', () => existsSync(dir) && done());
    watcher.on('error', done);
    if (existsSync(dir)) done();
  });
}

/**
 * Fills the empty directory `dir` with the run's migrated demo clinic (no nights), as a
 * server's first start on it would leave it: for a suite that adds its own data before the
 * server starts.
 */
export async function clinicDataDir(dir: string): Promise<void> {
  await cp(await seededTemplate('clinic'), dir, { recursive: true });
}

async function seededTemplate(kind: 'clinic' | 'seeded'): Promise<string> {
  const dir = path.join(inject('e2eScratch'), kind);
  if (existsSync(dir)) return dir;
  // Files run two at a time: the first to take the lock builds, the other waits for the directory.
  try {
    await mkdir(`${dir}.lock`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    await builtElsewhere(dir);
    return dir;
  }
  const building = await mkdtemp(path.join(inject('e2eScratch'), `${kind}-`));
  await withNewCluster(inject('e2eClusterDir'), building);
  // The demo nights end on the evening before today at any hour the suite runs: seeded as at
  // 13:00 today in the patients' zone, whose calendar the trend's presets follow (they end
  // yesterday there). Today is Zurich's: between its midnight and UTC's, the machine's date was
  // a day behind, the seed's last night the day before yesterday, and the trend one night short.
  const seedAt = DateTime.now().setZone('Europe/Zurich').set({ hour: 13, minute: 0, second: 0, millisecond: 0 }).toISO()!;
  // The server's modules are loaded here, once a run, not by every file's import of this
  // harness: importing server/start took each e2e file 12 s (more on a loaded machine).
  const [{ readConfig }, { openDatabase, prepare }] = await Promise.all([import('../../server/config'), import('../../server/start')]);
  const config = { ...readConfig({ DATA_DIR: building, SEED_NIGHTS: kind === 'seeded' ? '1' : '0', SEED_NIGHTS_AT: seedAt }), webRoot: null };
  const opened = await openDatabase(config);
  const running = await prepare(config, opened.db, opened.release);
  await running.triagePrepared;
  await running.close();
  await rename(building, dir);
  return dir;
}

/**
 * Debian's Chromium with WebGL through SwiftShader; never a downloaded browser.
 * `compositing`: 'software' (the tests) composites the page on the CPU, as Chromium does on a
 * machine without a usable GPU, while WebGL still draws through SwiftShader; 'gpu'
 * (`BENCH_COMPOSITING=gpu` in the benchmarks) composites through SwiftShader too, whose every
 * presented frame costs a full-viewport composite and swap (20–100 ms: decision 0997). The e2e suite used 17–26 % less CPU in software
 * (night-speed and trend: 179–204 → 149–150 CPU-s), on a machine every test file saturates.
 */
export function launchChromium(compositing: 'software' | 'gpu' = 'software'): Promise<Browser> {
  // In a vitest run the files share the run's one Chromium (tests/e2e/global-setup.ts): each
  // connects and, closing, closes only the contexts it made. A new browser per file cost each
  // file its start-up (seconds on a loaded machine).
  const shared = process.env.VITEST && compositing === 'software' ? inject('e2eBrowserWs') : '';
  if (shared) return chromium.connect(shared);
  return chromium.launch(chromiumOptions(compositing));
}

/**
 * A download's bytes, read through Playwright's stream: the run's shared Chromium keeps its
 * downloads where a connected client has no path to them.
 */
export async function downloadBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A fresh browser context whose page fails the test on an uncaught page error. */
export async function newPage(browser: Browser, base: string): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return { context, page, errors };
}

/** Every page of `context` refused WebGL, as a browser with it disabled does; 2D canvases still work. */
export async function refuseWebGl(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const getContext = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, kind: string, ...rest: unknown[]) {
      return kind.startsWith('webgl') ? null : (getContext as (...a: unknown[]) => RenderingContext | null).call(this, kind, ...rest);
    } as typeof getContext;
  });
}

/** The newest one-time code mailed to an address, read from the dev outbox. */
export async function outboxCode(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/dev/outbox?email=${encodeURIComponent(email)}`);
  const body = (await res.json()) as { data: { messages: Array<{ code: string | null }> } };
  const code = body.data.messages.find((m) => m.code)?.code;
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

/** Signs in through the sign-in form as a person would: password, then the mailed code. */
export async function signInThroughForm(page: Page, base: string, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.getByTestId('signin-email').fill(email);
  await page.getByTestId('signin-password').fill(password);
  await page.getByTestId('signin-submit').click();
  await page.getByTestId('otp-input').waitFor();
  const code = await outboxCode(base, email);
  await page.getByTestId('otp-input').fill(code);
  await page.getByTestId('otp-submit').click();
  // Signed in once the app shell is there: a test that navigates on must not race the token.
  await page.getByTestId('sidebar').waitFor();
}

/** A new page signed in as the demo physician through the form, on a patient with no night yet (where an import starts). */
export async function physicianOnPatientWithoutNights(browser: Browser, base: string, patientCode: string): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const opened = await newPage(browser, base);
  await opened.page.goto('/app/signin');
  await signInThroughForm(opened.page, base, DEMO.physician);
  await openPatient(opened.page, patientCode);
  await opened.page.getByTestId('no-nights').waitFor();
  return opened;
}

/** What a signed-in suite shares with its tests (filled in before the first test). */
export interface SignedInSuite {
  base: string;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  errors: string[];
}

/**
 * Registers the usual suite set-up: the real server (or NOCTURNE_E2E_URL, development
 * only) with `env`, Chromium, and one page signed in as `email` through the form, waiting
 * for `landing` (a test id); closes them all after the suite.
 */
export function signedInSuite(email: string, landing: string, env: Record<string, string> = {}, startMs = 60_000): SignedInSuite {
  const suite = {} as SignedInSuite;
  let server: AppServer | null = null;
  beforeAll(async () => {
    if (process.env.NOCTURNE_E2E_URL) suite.base = process.env.NOCTURNE_E2E_URL;
    else {
      server = await startAppServer(env, startMs);
      suite.base = server.url;
    }
    suite.browser = await launchChromium();
    Object.assign(suite, await newPage(suite.browser, suite.base));
    await suite.page.goto('/');
    await signInThroughForm(suite.page, suite.base, email);
    await suite.page.getByTestId(landing).waitFor();
  }, startMs + 120_000);
  afterAll(async () => {
    await suite.context?.close();
    await suite.browser?.close();
    await server?.close();
  });
  return suite;
}

/** A suite's own app server and Chromium, started before its tests and closed after them. */
export interface AppAndBrowser {
  url: string;
  browser: Browser;
}

/**
 * Registers the set-up of a suite that signs in several people itself: the real server (with
 * a long start-up allowance, the machine being shared) and Chromium, both closed after it.
 */
export function ownAppAndBrowser(env: Record<string, string> = {}, startMs = 170_000): AppAndBrowser {
  const suite = {} as AppAndBrowser;
  let server: AppServer | null = null;
  beforeAll(async () => {
    server = await startAppServer(env, startMs);
    suite.url = server.url;
    suite.browser = await launchChromium();
  }, startMs + 30_000);
  afterAll(async () => {
    await suite.browser?.close();
    await server?.close();
  });
  return suite;
}

/** Opens a patient's detail screen from My Patients, as a user clicks there. */
export async function openPatient(page: Page, code: string): Promise<void> {
  await page.getByTestId('nav-patients').click();
  await page.getByRole('link', { name: code }).click();
  await page.getByTestId('night-page').waitFor();
}

/** The long demo night: its patient, night key, length and channel count. */
export interface LongNight {
  patientId: number;
  night: number;
  hours: number;
  channels: number;
}

/** A GET of the API with the page's session token (no named functions inside: tsx would wrap them). */
function apiGet<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (p) => {
    const key = Object.keys(localStorage).find((k) => k.includes('session'))!;
    const { token } = JSON.parse(localStorage.getItem(key)!) as { token: string };
    return ((await (await fetch(`/api/v1${p}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { data: T }).data;
  }, path);
}

/** Finds the longest night of the demo clinic (NCT1001's long night, 10 h or more). */
export async function findLongNight(page: Page): Promise<LongNight> {
  const { patients } = await apiGet<{ patients: { patient_id: number }[] }>(page, '/physician/patients');
  let best: LongNight | null = null;
  for (const p of patients) {
    const { nights } = await apiGet<{ nights: { night: number; recording_start_time: number; recording_stop_time: number; channels: unknown[] }[] }>(page, `/patient/available-nights?patient_id=${p.patient_id}`);
    for (const n of nights) {
      const hours = (n.recording_stop_time - n.recording_start_time) / 3_600_000;
      if (!best || hours > best.hours) best = { patientId: p.patient_id, night: n.night, hours, channels: n.channels.length };
    }
  }
  if (!best) throw new Error('the demo clinic has no nights');
  return best;
}

/** The renderer's counters (src/charts/gl/stats.ts) as the page has them now. */
export interface ChartStats {
  frames: number;
  drawCalls: number;
  lastFrameComplete: boolean;
  incompleteFrames: number;
  renders: Record<string, number>;
}

export function chartStats(page: Page): Promise<ChartStats> {
  return page.evaluate(() => JSON.parse(JSON.stringify(window.__nocturneStats)) as ChartStats);
}

/** How long no GL frame may be drawn before the charts count as settled. */
const SETTLED_QUIET_MS = 150;
let settleCalls = 0;

/**
 * Waits until the GL frames stop (none drawn for SETTLED_QUIET_MS) and the last one drew
 * final data, checked in the page at every animation frame.
 */
export async function chartsSettled(page: Page, timeoutMs = 30_000): Promise<void> {
  const call = ++settleCalls;
  try {
    await page.waitForFunction(
      ({ quietMs, call }) => {
        const s = window.__nocturneStats;
        if (!s) return false;
        const w = window as unknown as { __nocturneSettle?: { call: number; frames: number; since: number } };
        const now = performance.now();
        const seen = w.__nocturneSettle;
        if (!seen || seen.call !== call || seen.frames !== s.frames) {
          w.__nocturneSettle = { call, frames: s.frames, since: now };
          return false;
        }
        return s.lastFrameComplete && now - seen.since >= quietMs;
      },
      { quietMs: SETTLED_QUIET_MS, call },
      { polling: 'raf', timeout: timeoutMs },
    );
  } catch (error) {
    throw new Error(`the charts never settled: ${JSON.stringify(await chartStats(page).catch(() => null))}`, { cause: error });
  }
}

/** Records in the page when an arrow key last went down (what keyDebouncePassed reads), on this document and any it navigates to. */
export async function trackArrowKeys(page: Page): Promise<void> {
  const track = () => {
    const w = window as unknown as { __arrowTracked?: boolean; __lastArrowAt?: number };
    if (w.__arrowTracked) return;
    w.__arrowTracked = true;
    window.addEventListener(
      'keydown',
      (e) => {
        if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') w.__lastArrowAt = performance.now();
      },
      { capture: true },
    );
  };
  await page.addInitScript(track);
  await page.evaluate(track);
}

/** Waits until the spec's key debounce (KEY_DEBOUNCE_MS) has passed since the last arrow key the page saw (trackArrowKeys first). */
export async function keyDebouncePassed(page: Page): Promise<void> {
  await page.waitForFunction(
    (ms) => {
      const w = window as unknown as { __arrowTracked?: boolean; __lastArrowAt?: number };
      if (!w.__arrowTracked) throw new Error('keyDebouncePassed: call trackArrowKeys(page) first');
      return w.__lastArrowAt === undefined || performance.now() - w.__lastArrowAt > ms;
    },
    KEY_DEBOUNCE_MS,
    { polling: 'raf' },
  );
}

/** The real recordings the tests import (tests/fixtures/real, with their sources and licences). */
export const REAL_FIXTURES = path.resolve('tests/fixtures/real');

/** Imports files through the patient screen's import section (unfolded if the night view folded it). */
export async function importThroughScreen(page: Page, files: string[], timezone = 'UTC'): Promise<void> {
  if (!(await page.getByTestId('import-files').isVisible())) await page.locator('.import-details > summary').click();
  await page.getByTestId('import-files').setInputFiles(files);
  await page.getByTestId('import-timezone').fill(timezone);
  await page.getByTestId('import-submit').click();
}

/**
 * Pixels of the first series' blue (the renderer draws without antialiasing, so a trace is
 * one flat colour) in a PNG screenshot (8-bit RGB or RGBA, not interlaced).
 */
export function tracePixels(png: Buffer): number {
  let pos = 8;
  let width = 0;
  let colorType = 0;
  const idat: Buffer[] = [];
  while (pos < png.length) {
    const len = png.readUInt32BE(pos);
    const type = png.toString('ascii', pos + 4, pos + 8);
    const data = png.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      if (data[8] !== 8) throw new Error(`a PNG of ${data[8]}-bit samples, not 8`);
      colorType = data[9]!;
    } else if (type === 'IDAT') idat.push(data);
    pos += 12 + len;
  }
  const bpp = colorType === 6 ? 4 : 3;
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  const rows = raw.length / (stride + 1);
  const out = Buffer.alloc(rows * stride);
  for (let y = 0; y < rows; y++) {
    const filter = raw[y * (stride + 1)]!;
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x]!;
      const a = x >= bpp ? out[y * stride + x - bpp]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + x]! : 0;
      const c = x >= bpp && y > 0 ? out[(y - 1) * stride + x - bpp]! : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      const pred = [0, a, b, (a + b) >> 1, paeth][filter]!;
      out[y * stride + x] = (v + pred) & 255;
    }
  }
  let n = 0;
  // SERIES_COLORS[0] is rgb(31, 94, 168): clearly more blue than red.
  for (let i = 0; i < out.length; i += bpp) if (out[i + 2]! - out[i]! > 80) n++;
  return n;
}
