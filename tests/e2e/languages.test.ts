import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Browser, Page } from 'playwright-core';
import { DEMO, launchChromium, newPage, signInThroughForm, startAppServer, type AppServer } from './harness';

/**
 * Issue 16: every route in every language of the selector, with no key shown raw and, in a
 * non-English language, no English catalogue text left. One browser, one page per role;
 * routes are opened in the app (history.pushState) and the language switched with the
 * header's selector, so the whole walk stays short.
 */

// The locales the app offers, read from the registration itself (src/i18n.ts).
const LANGUAGES = [...(/LANGUAGES = \[([^\]]+)\]/.exec(readFileSync('src/i18n.ts', 'utf8'))![1]!.matchAll(/'([^']+)'/g))].map((m) => m[1]!);

type Tree = { [k: string]: unknown };
function leaves(tree: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (tree !== null && typeof tree === 'object') for (const [k, v] of Object.entries(tree)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
  else out.set(prefix, String(tree));
  return out;
}
const en = leaves(JSON.parse(readFileSync('locales/en-US.json', 'utf8')) as Tree);

/** Words of two letters or more: "SpO2 (%)" has one, "Sleep efficiency" two. */
const words = (s: string) => s.match(/\p{L}{2,}/gu)?.length ?? 0;

/** en-US texts a translation must replace: two words or more, no placeholder. */
const ENGLISH = new Set([...en.values()].map((v) => v.trim()).filter((v) => !v.includes('{{') && !v.includes('<') && words(v) >= 2));

/** English texts that stay the same in every language: units, codes and names. */
const SAME_IN_EVERY_LANGUAGE = new Set(['mm Hg', 'mg/dL', 'SpO2 (PSG)', 'SpO2 (%)', 'Nocturne', 'hh:mm AM']);

/** Words that are the same in some languages ("Apnea" is Spanish and Italian too). */
const SAME_IN: Record<string, readonly string[]> = { 'Apnea (APN)': ['es', 'it-IT'] };

/**
 * Word by word (issue 32): an English word of the catalogue (four letters or more) that the
 * screen's own catalogue never uses is English left on a translated screen — a built-in
 * name sent by the server, a code shown raw. Placeholders' values (names, codes, dates)
 * are not catalogue words, so they pass.
 */
const wordsOf = (s: string) => s.match(/\p{L}{4,}/gu) ?? [];
const catalogueWords = (tree: unknown) => new Set([...leaves(tree).values()].flatMap((v) => wordsOf(v.replace(/\{\{[^}]*\}\}/g, ' ')).map((w) => w.toLowerCase())));
const ENGLISH_WORDS = catalogueWords(JSON.parse(readFileSync('locales/en-US.json', 'utf8')));
const LOCAL_WORDS = new Map(LANGUAGES.map((l) => [l, catalogueWords(JSON.parse(readFileSync(`locales/${l}.json`, 'utf8')))]));

/**
 * English words allowed on every translated screen, each a proper name or a unit: the product,
 * the demo practice's people and places, vendors and file formats.
 */
const ALLOWED_PHRASES = ['Nocturne Demo Sleep Clinic']; // the demo practice's name, as its physician entered it

const ALLOWED_WORDS = new Set(
  [
    'Nocturne', // the product
    'Clara', 'Meier', 'Anna', 'Keller', 'Marco', 'Bianchi', 'Dubois', 'Jonas', 'Weber', 'Priya', 'Nair', // demo people
    'ResMed', 'Philips', 'Nihon', 'Kohden', 'Sleep-EDF', // vendors and data sets
  ].map((w) => w.toLowerCase()),
);

/** English catalogue words on the screen in `lng` that its own catalogue never uses. */
function englishWords(line: string, lng: string): string[] {
  const local = LOCAL_WORDS.get(lng)!;
  let text = line;
  for (const re of NOT_KEYS) text = text.replace(re, ' ');
  for (const p of ALLOWED_PHRASES) text = text.replaceAll(p, ' ');
  // Time-zone ids (Europe/Zurich) are identifiers, not words.
  text = text.replace(/\b[A-Z][A-Za-z]+\/[A-Za-z_/]+\b/g, ' ');
  return wordsOf(text).filter((w) => {
    const k = w.toLowerCase();
    return ENGLISH_WORDS.has(k) && !local.has(k) && !ALLOWED_WORDS.has(k);
  });
}

/** Dotted text that is not a key: e-mail domains and abbreviations. */
const NOT_KEYS = [/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, /\b[\w-]+\.(test|com|org|net|edf|csv|pdf)\b/g];
const KEY_SHAPED = /\b[a-z]+(\.[a-zA-Z_]+){1,}\b/g;
/** Abbreviations, not keys: "a.u." is the arbitrary unit of restlessness. */
const ALLOWED_DOTTED = new Set(['e.g', 'i.e', 'z.B', 'p.ex', 'a.u']);

interface Screen {
  text: string[];
}

/** What a user reads on the page: visible lines, the title, and labels a screen reader speaks. */
async function readScreen(page: Page): Promise<Screen> {
  const text = await page.evaluate(() => {
    // Identifiers marked translate="no" (an API route in the access trail) are the same in every language: left out.
    const identifiers = Array.from(document.querySelectorAll<HTMLElement>('[translate="no"]'), (el) => el.innerText.trim()).filter(Boolean);
    const lines = document.body.innerText
      .split('\n')
      .map((l) => identifiers.reduce((line, id) => line.split(id).join(' '), l).trim())
      .filter(Boolean);
    const attrs: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('[placeholder], [aria-label], [title], [alt]'))) {
      if (el.getClientRects().length === 0) continue;
      for (const a of ['placeholder', 'aria-label', 'title', 'alt']) {
        const v = el.getAttribute(a);
        if (v) attrs.push(v.trim());
      }
    }
    return [document.title, ...lines, ...attrs];
  });
  return { text };
}

/** Problems on the current screen in `lng`: raw keys, and English left in another language. */
function problems(screen: Screen, lng: string, where: string): string[] {
  const out: string[] = [];
  for (const line of screen.text) {
    let clean = line;
    for (const re of NOT_KEYS) clean = clean.replace(re, ' ');
    for (const m of clean.matchAll(KEY_SHAPED)) {
      if (!ALLOWED_DOTTED.has(m[0])) out.push(`${lng} ${where}: key-shaped "${m[0]}" in "${line.slice(0, 80)}"`);
    }
    if (lng !== 'en-US' && ENGLISH.has(line) && !SAME_IN_EVERY_LANGUAGE.has(line) && !SAME_IN[line]?.includes(lng)) out.push(`${lng} ${where}: English "${line}"`);
    else if (lng !== 'en-US') for (const w of englishWords(line, lng)) out.push(`${lng} ${where}: English word "${w}" in "${line.slice(0, 80)}"`);
  }
  return out;
}

let server: AppServer;
let browser: Browser;
beforeAll(async () => {
  // Seeding the demo nights takes minutes on a busy shared machine.
  server = await startAppServer({ SEED_NIGHTS: '1' }, 540_000);
  browser = await launchChromium();
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens `path` inside the running app, as a link would. */
async function go(page: Page, path: string, ready: string): Promise<void> {
  await page.evaluate((p) => window.history.pushState(null, '', p), path);
  await page.locator(ready).first().waitFor({ timeout: 90_000 });
  await settle(page);
}

/** Waits until no loading line is left (data arrived or failed) and the title caught up. */
async function settle(page: Page): Promise<void> {
  // A plain wait, not expect.poll: the suite's set-up opens routes too.
  await page.waitForFunction(() => !Array.from(document.querySelectorAll('.loading')).some((e) => e.getClientRects().length > 0), undefined, { timeout: 60_000 });
}

async function switchLanguage(page: Page, lng: string): Promise<void> {
  await page.getByTestId('language-select').first().selectOption(lng);
  await expect.poll(() => page.evaluate(() => document.documentElement.lang), { timeout: 20_000 }).toBe(lng);
  expect(await page.evaluate(() => document.documentElement.dir)).toBe(lng.startsWith('ar') ? 'rtl' : 'ltr');
}

const tid = (id: string) => `[data-testid="${id}"]`;

/**
 * Issue 32 point 7: at 1280 × 800 (every page of this walk) in these locales the night view
 * shows a chart above the fold, and no text runs out of its card there or on the dashboard.
 */
const MEASURED = new Set(['en-US', 'de-AT', 'ar-SA']);

/** Boxes text must stay inside: the cards, panels and tables of the measured screens. */
const CARDS = '.card, table, .bio-header, .side-tab, .night-bar, .night-tools, .channel-selector, .night-corrections, .navigator, .graph-toolbar, .chart-block, .scoring-panel, .annotation-sidebar, .histogram';

/**
 * Text that runs out of its card: every visible text node's own box (a Range's, so text
 * overflowing a button counts) against its nearest card's, and every card that scrolls
 * sideways. Text clipped on purpose (an ellipsis, a scrolling list) is inside a box that
 * clips it and is not counted.
 */
async function overflows(page: Page, where: string): Promise<string[]> {
  const found = await page.evaluate((cards) => {
    const out: string[] = [];
    const clips = (el: Element, card: Element) => {
      for (let e: Element | null = el; e && e !== card; e = e.parentElement) {
        const s = getComputedStyle(e);
        if (s.overflowX !== 'visible' || s.overflowY !== 'visible') return true;
      }
      return false;
    };
    for (const card of Array.from(document.querySelectorAll(cards))) {
      const box = card.getBoundingClientRect();
      if (box.width === 0 || getComputedStyle(card).visibility === 'hidden') continue;
      // A card, or a box in it, that scrolls sideways hides part of its text (an ellipsis is a deliberate cut, with the full text elsewhere).
      for (const el of [card, ...Array.from(card.querySelectorAll('*'))]) {
        if (!el.checkVisibility({ contentVisibilityAuto: true, visibilityProperty: true })) continue;
        const s = getComputedStyle(el);
        if (s.overflowX === 'visible' || s.textOverflow === 'ellipsis' || el.clientWidth === 0) continue;
        if (el.scrollWidth > el.clientWidth + 1) out.push(`${el.className || el.tagName} in ${card.className || card.tagName} scrolls sideways (${el.scrollWidth} > ${el.clientWidth})`);
      }
      // A card that scrolls up and down (the annotation panel) shows the rest when scrolled.
      const scrollsY = ['auto', 'scroll'].includes(getComputedStyle(card).overflowY);
      const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = n.textContent?.trim();
        const el = n.parentElement;
        // Only what is rendered: not the inside of a closed <details>, nothing hidden.
        if (!text || !el || el.closest(cards) !== card || !el.checkVisibility({ contentVisibilityAuto: true, visibilityProperty: true }) || clips(el, card)) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        const r = range.getBoundingClientRect();
        if (r.width === 0) continue;
        if (r.left < box.left - 1 || r.right > box.right + 1 || (!scrollsY && (r.top < box.top - 1 || r.bottom > box.bottom + 1))) {
          out.push(`"${text.slice(0, 40)}" runs out of ${card.className || card.tagName} (${Math.round(r.left)}–${Math.round(r.right)} × ${Math.round(r.top)}–${Math.round(r.bottom)} in ${Math.round(box.left)}–${Math.round(box.right)} × ${Math.round(box.top)}–${Math.round(box.bottom)})`);
        }
      }
    }
    return out;
  }, CARDS);
  return found.map((f) => `${where}: ${f}`);
}

/** The night view's first chart starts inside the 800-px viewport, scrolled to the top. */
async function firstChartTop(page: Page): Promise<number> {
  await page.evaluate(() => window.scrollTo(0, 0));
  const first = page.locator('[data-testid^="chart-block-"]').first();
  await first.waitFor({ timeout: 60_000 });
  return (await first.boundingBox())!.y;
}

interface Walk {
  page: Page;
  context: BrowserContext;
  patientId: number;
  deviceId: string | null;
}

async function signedIn(email: string, withPatients = true): Promise<Walk> {
  const { page, context } = await newPage(browser, server.url);
  await page.goto('/');
  await signInThroughForm(page, server.url, email);
  if (!withPatients) return { page, context, patientId: 0, deviceId: null };
  await page.evaluate((p) => window.history.pushState(null, '', p), '/app/patients');
  const link = page.getByTestId('patient-link').filter({ hasText: 'NCT1001' });
  await link.waitFor({ timeout: 120_000 });
  const href = (await link.getAttribute('href'))!;
  const patientId = Number(/id=(\d+)/.exec(href)![1]);
  return { page, context, patientId, deviceId: null };
}

/** Every route of spec 1 §2 a physician may open, with a test id that shows it rendered. */
function physicianRoutes(w: Walk): Array<[string, string]> {
  return [
    ['/app/', tid('dashboard')],
    ['/app/patients', tid('patients-table')],
    [`/app/patient/id=${w.patientId}/edit`, tid('edit-patient')],
    ['/app/new_patient', tid('add-patient')],
    ['/app/add-patient', tid('add-patient')],
    [`/app/view_patient_info/id=${w.patientId}`, tid('patient-info')],
    ['/app/datacenter', tid('datacenter-table')],
    ['/app/device_config', tid('device-config')],
    ['/app/realtimeDashboard', tid('realtime-dashboard')],
    ['/app/reports', tid('reports-page')],
    ['/app/calender', `${tid('calendar-month')}[aria-busy="false"]`],
    ['/app/appointments', `${tid('appointments-upcoming')}, ${tid('appointments-empty')}`],
    ['/app/settings', tid('settings-analytics')],
    ['/app/billing', tid('billing-features')],
    // A physician reaches the requests screen and is told it is for administrators.
    ['/app/admin/requests', `${tid('deploy-requests')}, ${tid('requests-admins-only')}`],
    [`/app/device_testing?${new URLSearchParams({ id: String(w.patientId), did: w.deviceId ?? 'none', back: '/app/patients' })}`, `${tid('realtime-page')}, ${tid('realtime-picker')}`],
    ['/app/privacy-policy', 'article.document'],
    ['/app/terms-of-use', 'article.document'],
    ['/app/faq', tid('document-faq')],
    ['/app/documents', tid('document-index')],
    ['/app/documents/device-instructions', 'article.document'],
    ['/app/documents/user-manual', 'article.document'],
    ['/app/documents/patient-information-sheet', 'article.document'],
    ['/app/no-such-page', tid('not-found')],
  ];
}

/** Side tabs whose name is broken inside a word ("Zusammenfassu / ng"): more lines than words. */
function brokenSideTabs(page: Page): Promise<(string | null)[]> {
  return page.locator('.side-tab').evaluateAll((tabs) =>
    tabs
      .filter((tab) => {
        const range = document.createRange();
        range.selectNodeContents(tab);
        return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size > (tab.textContent ?? '').trim().split(/\s+/).length;
      })
      .map((tab) => tab.textContent),
  );
}

/** The patient detail screen: Summary tab, then one night, then the trend view. */
async function walkPatientDetail(w: Walk, lng: string, found: string[]): Promise<void> {
  const { page } = w;
  await go(page, `/app/patients/id=${w.patientId}`, tid('night-page'));
  await page.getByTestId('tab-summary').click();
  await settle(page);
  found.push(...problems(await readScreen(page), lng, 'patient detail · Summary'));
  // The active tab's name is bold: it too is whole, and choosing it moved no tab.
  const tabsWith = async () => ({ broken: await brokenSideTabs(page), width: Math.round((await page.getByTestId('side-tabs').boundingBox())!.width) });
  const withSummary = MEASURED.has(lng) ? await tabsWith() : null;
  if (withSummary) expect(withSummary.broken, `${lng}: side tabs broken inside a word (Summary active)`).toEqual([]);
  await page.getByTestId('tab-overview').click();
  await page.getByTestId('mode-single').click();
  await settle(page);
  found.push(...problems(await readScreen(page), lng, 'patient detail · Single night'));
  if (MEASURED.has(lng)) {
    expect(await firstChartTop(page), `${lng}: a chart above the fold at 1280 × 800`).toBeLessThan(page.viewportSize()!.height - 60);
    found.push(...(await overflows(page, `${lng} night view`)));
    // A side tab's name is never broken inside a word ("Zusammenfassu / ng"): no more lines than words.
    const withOverview = await tabsWith();
    expect(withOverview.broken, `${lng}: side tabs broken inside a word`).toEqual([]);
    expect(withOverview.width, `${lng}: the side tabs keep their width whichever is active`).toBe(withSummary!.width);
    if (process.env.LAYOUT_SHOTS) await page.screenshot({ path: `${process.env.LAYOUT_SHOTS}/night-${lng}.png` });
    // The window view: the chart has the larger share, the histogram beside or below it.
    await page.getByTestId('window-BR').click();
    await page.getByTestId('histogram').waitFor();
    const chart = (await page.getByTestId('window-view').locator('[data-testid^="chart-block-"]').boundingBox())!;
    const histogram = (await page.getByTestId('histogram').boundingBox())!;
    const below = histogram.y >= chart.y + chart.height - 1;
    expect(below || chart.width > histogram.width, `${lng}: window chart wider than its histogram, or the histogram below it`).toBe(true);
    found.push(...(await overflows(page, `${lng} window view`)));
    if (process.env.LAYOUT_SHOTS) await page.screenshot({ path: `${process.env.LAYOUT_SHOTS}/window-${lng}.png`, fullPage: true });
    await page.getByTestId('window-close').click();
    await page.getByTestId('window-view').waitFor({ state: 'detached' });
    // Fit charts to screen: a chart's name floats over its plot, never over its value labels (Arabic included).
    await page.getByTestId('layout-fit').click();
    const covered = await page.locator('[data-testid^="chart-block-"]').evaluateAll((blocks) =>
      blocks
        .filter((b) => {
          const h = b.querySelector('.chart-block-head')?.getBoundingClientRect();
          const y = b.querySelector('.y-axis')?.getBoundingClientRect();
          return h && y && y.width > 0 && h.left < y.right && h.right > y.left && h.top < y.bottom && h.bottom > y.top;
        })
        .map((b) => (b as HTMLElement).dataset.code),
    );
    expect(covered, `${lng}: montage chart names over their value labels`).toEqual([]);
    await page.getByTestId('layout-fit').click();
  }
  await page.getByTestId('mode-trend').click();
  await page.getByTestId('trend-view').waitFor({ timeout: 90_000 });
  await settle(page);
  found.push(...problems(await readScreen(page), lng, 'patient detail · Trend'));
}

describe('every route in every language', () => {
  let physician: Walk;
  let annotator: Walk;
  let admin: Walk;
  beforeAll(async () => {
    physician = await signedIn(DEMO.physician);
    await go(physician.page, '/app/datacenter', tid('datacenter-table'));
    physician.deviceId = (await physician.page.getByTestId('datacenter-row').first().locator('td').first().innerText()).trim() || null;
    annotator = await signedIn(DEMO.annotator);
    admin = await signedIn(DEMO.admin, false);
  }, 300_000);
  afterAll(async () => {
    await physician?.context.close();
    await annotator?.context.close();
    await admin?.context.close();
  });

  it('offers the spec locales it has catalogues for', () => {
    for (const l of ['en-US', 'de-AT', 'fr-FR', 'ar-SA']) expect(LANGUAGES).toContain(l);
  });

  it.each(LANGUAGES)('physician, %s: no raw key, no English left', async (lng) => {
    const { page } = physician;
    await go(page, '/app/', tid('dashboard'));
    await switchLanguage(page, lng);
    const found: string[] = [];
    for (const [path, ready] of physicianRoutes(physician)) {
      await go(page, path, ready);
      found.push(...problems(await readScreen(page), lng, path));
      if (path === '/app/' && MEASURED.has(lng)) {
        found.push(...(await overflows(page, `${lng} dashboard`)));
        if (process.env.LAYOUT_SHOTS) await page.screenshot({ path: `${process.env.LAYOUT_SHOTS}/dashboard-${lng}.png`, fullPage: true });
      }
    }
    await walkPatientDetail(physician, lng, found);
    // The profile popup from the header, viewed and in its edit form.
    await page.getByTestId('header-user').click();
    await page.getByTestId('profile-view').waitFor({ timeout: 30_000 });
    found.push(...problems(await readScreen(page), lng, 'profile popup'));
    await page.getByTestId('profile-edit').click();
    await page.getByTestId('profile-form').waitFor();
    found.push(...problems(await readScreen(page), lng, 'profile popup · edit'));
    await page.keyboard.press('Escape');
    await page.getByTestId('profile-form').waitFor({ state: 'detached' });
    // The 404 page is titled "Page not found" in the language of the screen.
    await go(page, '/app/nonsense', tid('not-found'));
    expect(await page.getByTestId('page-title').innerText()).not.toMatch(/nonsense/i);
    expect([...new Set(found)]).toEqual([]);
  }, 600_000);

  it.each(LANGUAGES)('annotator, %s: their routes, and a 404 for Device Config', async (lng) => {
    const { page } = annotator;
    await go(page, '/app/patients', tid('patients-table'));
    await switchLanguage(page, lng);
    const found: string[] = [];
    for (const [path, ready] of [
      ['/app/patients', tid('patients-table')],
      [`/app/view_patient_info/id=${annotator.patientId}`, tid('patient-info')],
      ['/app/datacenter', tid('datacenter')],
      ['/app/device_config', tid('not-found')],
      ['/app/calender', `${tid('calendar-month')}[aria-busy="false"]`],
      ['/app/appointments', `${tid('appointments-upcoming')}, ${tid('appointments-empty')}`],
      ['/app/settings', tid('not-found')],
      ['/app/billing', tid('not-found')],
      ['/app/faq', tid('document-faq')],
    ] as const) {
      await go(page, path, ready);
      found.push(...problems(await readScreen(page), lng, `annotator ${path}`));
    }
    // A screen the role lacks is the 404 page, titled so (not "Device Config").
    await go(page, '/app/device_config', tid('not-found'));
    expect(await page.getByTestId('page-title').innerText()).toBe(await page.evaluate(() => document.title.split(' · ')[0]));
    expect(await page.title()).toMatch(new RegExp(`^${JSON.parse(readFileSync(`locales/${lng}.json`, 'utf8')).titles.notFound} · `));
    await walkPatientDetail(annotator, lng, found);
    expect([...new Set(found)]).toEqual([]);
  }, 600_000);

  it.each(LANGUAGES)("admin, %s: the deployment requests and the signups waiting for approval", async (lng) => {
    const { page } = admin;
    await go(page, '/app/admin/requests', tid('deploy-requests'));
    await switchLanguage(page, lng);
    const found: string[] = [];
    for (const [path, ready] of [
      ['/app/admin/requests', tid('deploy-requests')],
      ['/app/admin/signups', tid('signups')],
      ['/app/admin/trail', tid('trail-row')],
    ] as const) {
      await go(page, path, ready);
      found.push(...problems(await readScreen(page), lng, `admin ${path}`));
    }
    expect([...new Set(found)]).toEqual([]);
  }, 600_000);

  it.each(LANGUAGES)('signed out, %s: sign-in, signup and forgot password', async (lng) => {
    const { page, context } = await newPage(browser, server.url);
    try {
      await page.goto('/signin');
      await page.getByTestId('signin-email').waitFor();
      await switchLanguage(page, lng);
      const found: string[] = [];
      for (const [path, ready] of [
        ['/signin', tid('signin-email')],
        ['/signup', tid('signup-email')],
        ['/forgot_password', tid('forgot-email')],
      ] as const) {
        await go(page, path, ready);
        found.push(...problems(await readScreen(page), lng, `signed out ${path}`));
      }
      // A refused form speaks the language too: signup with a digit in the name.
      await go(page, '/signup', tid('signup-email'));
      await page.getByTestId('signup-first-name').fill('N0ra');
      await page.getByTestId('signup-submit').click();
      await page.locator('.field-error, [role="alert"]').first().waitFor({ timeout: 30_000 });
      found.push(...problems(await readScreen(page), lng, 'signed out /signup refused'));
      expect([...new Set(found)]).toEqual([]);
    } finally {
      await context.close();
    }
  }, 600_000);
});
