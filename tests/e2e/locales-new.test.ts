import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DEMO, launchChromium, newPage, signInThroughForm, startAppServer, type AppServer } from './harness';

// Issue 16 point 1: Spanish, Italian, Simplified Chinese and the completed Arabic through the
// real app: sign-in, dashboard and a night view in each, <html lang/dir>, and CJK glyphs.

type Tree = { [key: string]: unknown };
const catalogue = (lng: string) => JSON.parse(readFileSync(path.resolve('locales', `${lng}.json`), 'utf8')) as Tree;
const text = (tree: Tree, key: string): string => key.split('.').reduce<unknown>((n, k) => (n as Tree)[k], tree) as string;
const en = catalogue('en-US');

/** Screenshots to look at by hand (SHOTS=dir); a temporary directory otherwise. */
const SHOTS = process.env.SHOTS ?? path.join(process.env.TMPDIR ?? '/tmp', 'nocturne-locale-shots');
mkdirSync(SHOTS, { recursive: true });

let server: AppServer;
let browser: Browser;

beforeAll(async () => {
  server = await startAppServer({ SEED_NIGHTS: '1' }, 240_000);
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const visibleText = (page: Page) => page.evaluate(() => document.body.innerText);
const LANGS = ['es', 'it-IT', 'zh-Hans-CN', 'ar-SA'];

describe('the sign-in page', () => {
  for (const lng of LANGS) {
    it(`${lng}: translated, named in itself, <html lang/dir> set`, async () => {
      const t = catalogue(lng);
      const { context, page, errors } = await newPage(browser, server.url);
      await page.goto('/app/signin');
      await page.getByTestId('language-select').selectOption({ value: lng });
      await expect.poll(() => page.evaluate(() => document.documentElement.lang), { timeout: 120_000 }).toBe(lng);
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(lng === 'ar-SA' ? 'rtl' : 'ltr');
      // The selector names each language in itself.
      const options = await page.getByTestId('language-select').locator('option').allTextContents();
      expect(options).toEqual(expect.arrayContaining(['Español', 'Italiano', '简体中文', 'العربية']));
      await expect.poll(() => visibleText(page), { timeout: 60_000 }).toContain(text(t, 'auth.signIn.subtitle'));
      const shown = await visibleText(page);
      for (const key of ['auth.signIn.subtitle', 'auth.signIn.forgot', 'auth.signIn.noAccount']) expect(shown, key).not.toContain(text(en, key));
      if (lng === 'zh-Hans-CN') {
        // Chinese needs glyphs: CJK families first, then the generic family the system resolves per glyph.
        const stack = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
        expect(stack).toMatch(/Noto Sans CJK SC.*PingFang SC.*Microsoft YaHei/);
        expect(stack.trim()).toMatch(/sans-serif$/);
      }
      await page.screenshot({ path: path.join(SHOTS, `${lng}-signin.png`) });
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

describe('signed in', () => {
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    const opened = await newPage(browser, server.url);
    ({ page, errors } = opened);
    close = () => opened.context.close();
    await page.goto('/app/signin');
    await signInThroughForm(page, server.url, DEMO.physician);
    await page.getByTestId('dashboard').waitFor();
  }, 180_000);

  afterAll(async () => close?.());

  for (const lng of LANGS) {
    it(`${lng}: the dashboard and a night view`, async () => {
      const t = catalogue(lng);
      const rtl = lng === 'ar-SA';
      await page.getByTestId('nav-dashboard').click();
      await page.getByTestId('language-select').selectOption({ value: lng });
      await expect.poll(() => page.evaluate(() => document.documentElement.lang), { timeout: 120_000 }).toBe(lng);
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(rtl ? 'rtl' : 'ltr');
      await page.getByTestId('dashboard-widgets').waitFor({ timeout: 60_000 });
      for (const key of ['nav.patients', 'nav.dataCenter', 'dashboard.widgets.deployed', 'dashboard.triage.title']) {
        await expect.poll(() => visibleText(page), { message: key, timeout: 60_000 }).toContain(text(t, key));
      }
      const dashboard = await visibleText(page);
      for (const key of ['dashboard.widgets.deployed', 'dashboard.triage.title', 'dashboard.intro']) {
        expect(dashboard, key).not.toContain(text(en, key));
      }
      const sidebar = await page.getByTestId('sidebar').boundingBox();
      if (rtl) expect(sidebar!.x).toBeGreaterThan(600);
      else expect(sidebar!.x).toBeLessThan(100);
      await page.screenshot({ path: path.join(SHOTS, `${lng}-dashboard.png`) });

      await page.getByTestId('nav-patients').click();
      await page.getByTestId('patient-link').filter({ hasText: 'NCT1001' }).click();
      await page.getByTestId('night-page').waitFor();
      await expect.poll(() => visibleText(page), { timeout: 60_000 }).toContain(text(t, 'night.channelsTitle'));
      const night = await visibleText(page);
      for (const key of ['night.tabs.overview', 'night.mode.single', 'night.saveAs']) expect(night, key).toContain(text(t, key));
      for (const key of ['night.channelsTitle', 'night.mode.trend', 'night.tabs.details']) expect(night, key).not.toContain(text(en, key));
      // Time runs left to right on the charts in every language, and so do the navigator's steps.
      const earlier = (await page.getByTestId('page-left').boundingBox())!;
      const later = (await page.getByTestId('page-right').boundingBox())!;
      expect(earlier.x).toBeLessThan(later.x);
      await page.screenshot({ path: path.join(SHOTS, `${lng}-night.png`) });
      expect(errors).toEqual([]);
    }, 420_000);
  }
});
