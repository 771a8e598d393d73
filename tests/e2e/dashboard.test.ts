import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO, launchChromium, newPage, signInThroughForm, startAppServer, type AppServer } from './harness';

// The dashboard and the notification bell through the real app, over the demo seed:
// five patients, three at risk, four devices out for a week, simulated nights to last night.

let server: AppServer | null = null;
let base = '';
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];

beforeAll(async () => {
  if (process.env.NOCTURNE_E2E_URL) base = process.env.NOCTURNE_E2E_URL;
  else {
    server = await startAppServer({ SEED_NIGHTS: '1' });
    base = server.url;
  }
  browser = await launchChromium();
  ({ context, page, errors } = await newPage(browser, base));
  await page.goto('/');
  await signInThroughForm(page, base, DEMO.physician);
  await page.getByTestId('dashboard').waitFor();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

const tile = async (id: string) => Number(await page.getByTestId(id).locator('.stat-value').textContent());

describe('dashboard', () => {
  it('shows the counts and the past night, each night a link to its review', async () => {
    await page.getByTestId('dashboard-widgets').waitFor();
    expect(await tile('widget-flagged')).toBe(3);
    expect(await tile('widget-deployed')).toBe(4);
    expect(await tile('widget-available')).toBe(2);
    expect(await tile('widget-overdue')).toBe(0);
    const pastNight = await page.getByTestId('past-night-list').locator('li').allTextContents();
    for (const code of ['NCT1001', 'NCT1002', 'NCT1003', 'NCT1004']) expect(pastNight.some((r) => r.startsWith(code))).toBe(true);
    await page.getByTestId('past-night-list').getByRole('link', { name: 'NCT1002' }).first().click();
    await page.waitForURL((u) => /\/app\/patients\/id=\d+$/.test(u.pathname) && u.search.startsWith('?night='));
    await page.getByTestId('night-page').waitFor();
    expect(errors).toEqual([]);
  });

  it('counts unread notifications; a click marks one read and opens its night', async () => {
    await page.goto('/');
    await page.getByTestId('dashboard').waitFor();
    await expect.poll(async () => Number((await page.getByTestId('notification-count').textContent()) ?? 0), { timeout: 90_000 }).toBeGreaterThanOrEqual(13);
    const before = Number(await page.getByTestId('notification-count').textContent());
    const unseen = await tile('widget-unseen');
    await page.getByTestId('notification-bell').click();
    const item = page.getByTestId('notification-item').filter({ hasText: 'NCT1002' }).first();
    expect(await item.textContent()).toMatch(/NCT1002 · \d\d \w{3} \d{4} · \d+ apneas and hypopneas/);
    await item.click();
    await page.waitForURL((u) => u.search.startsWith('?night='));
    await page.getByTestId('night-page').waitFor();
    await expect.poll(async () => Number(await page.getByTestId('notification-count').textContent())).toBe(before - 1);
    await page.goto('/');
    await page.getByTestId('dashboard-widgets').waitFor();
    await expect.poll(() => tile('widget-unseen')).toBe(unseen - 1);
    await page.getByTestId('notification-bell').click();
    expect(await page.getByTestId('notification-item').filter({ hasText: 'NCT1002' }).first().getAttribute('data-read')).toBe('1');
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('notification-panel').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('gives annotators neither the dashboard nor notifications', async () => {
    const annotator = await newPage(browser, base);
    try {
      await annotator.page.goto('/');
      await signInThroughForm(annotator.page, base, DEMO.annotator);
      await annotator.page.getByTestId('patients-table').waitFor();
      expect(await annotator.page.getByTestId('notification-bell').count()).toBe(0);
      expect(annotator.errors).toEqual([]);
    } finally {
      await annotator.context.close();
    }
  });
});
