import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO, launchChromium, newPage, signInThroughForm, startAppServer, type AppServer } from './harness';

// The Trend view of the patient screen through the real app: the demo seed gives NCT1001
// five simulated nights ending last night, and an account two months old.

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

const boxes = (code: string) => page.getByTestId(`trend-chart-${code}`).getByTestId('trend-box');
const dots = (code: string) => page.getByTestId(`trend-chart-${code}`).getByTestId('trend-point');

/** Drags across a chart from one fraction of its width to another. */
async function drag(code: string, from: number, to: number): Promise<void> {
  await page.getByTestId(`trend-svg-${code}`).scrollIntoViewIfNeeded();
  const box = (await page.getByTestId(`trend-svg-${code}`).boundingBox())!;
  const plotLeft = box.x + 48;
  const plotWidth = box.width - 60;
  await page.mouse.move(plotLeft + plotWidth * from, box.y + 80);
  await page.mouse.down();
  await page.mouse.move(plotLeft + plotWidth * ((from + to) / 2), box.y + 80, { steps: 3 });
  await page.mouse.move(plotLeft + plotWidth * to, box.y + 80, { steps: 3 });
  await page.mouse.up();
}

describe('trend view', () => {
  it('shows a box per night for the signals and a value per night for the indices', async () => {
    await page.goto('/app/patients');
    await page.getByTestId('patient-link').filter({ hasText: 'NCT1001' }).click();
    await page.getByTestId('night-page').waitFor();
    await page.getByTestId('mode-trend').click();
    await page.waitForURL((u) => u.search.includes('view=trend'));
    await page.getByTestId('trend-view').waitFor();
    // Two months of account: every duration is offered; the first, last 3 nights, is chosen.
    const options = await page.getByTestId('trend-duration').locator('option').allTextContents();
    expect(options).toEqual(['Last 3 nights', 'Last 10 nights', 'Last month', 'Custom']);
    expect(await page.getByTestId('trend-from').isDisabled()).toBe(true);
    await expect.poll(() => boxes('BR').count(), { timeout: 60_000 }).toBe(3);
    expect(await page.getByTestId('trend-days').textContent()).toBe('3 days');
    // Last 10 nights: all five demo nights.
    await page.getByTestId('trend-duration').selectOption('last10');
    await expect.poll(() => boxes('BR').count(), { timeout: 60_000 }).toBe(5);
    await expect.poll(() => boxes('SPO2').count()).toBe(5);
    await expect.poll(() => dots('RII').count()).toBe(5);
    await expect.poll(() => dots('SE').count()).toBe(5);
    expect(await dots('AHI').count()).toBe(5);
    // A box's tooltip gives the night's statistics, ordered.
    const tip = await boxes('BR').first().locator('title').textContent();
    const [, min, p10, p50, p90, max] = /min ([\d.]+), p10 ([\d.]+), median ([\d.]+), p90 ([\d.]+), max ([\d.]+)/.exec(tip!)!.map(Number);
    expect(min).toBeLessThanOrEqual(p10!);
    expect(p10).toBeLessThanOrEqual(p50!);
    expect(p50).toBeLessThanOrEqual(p90!);
    expect(p90).toBeLessThanOrEqual(max!);
    // The patient's SpO2 bands lie behind its boxes: moderate 90-93, severe up to 89.
    expect(await page.getByTestId('trend-chart-SPO2').getByTestId('trend-band-moderate').count()).toBe(1);
    expect(await page.getByTestId('trend-chart-SPO2').getByTestId('trend-band-severe').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('trend-chart-AHI').locator('h4').textContent()).toBe('AHI (/h)');
    // Weight is off by default: no chart for it (and the patient has no weight channel).
    expect(await page.getByTestId('trend-chart-weight').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('zooms every chart to dragged days, pages, and resets', async () => {
    expect(await page.getByTestId('trend-days').textContent()).toBe('10 days');
    // The five nights are the last five days of the ten: drag over the last three.
    await drag('BR', 0.72, 0.98);
    await expect.poll(() => page.getByTestId('trend-days').textContent()).toBe('3 days');
    expect(await boxes('BR').count()).toBe(3);
    expect(await boxes('HR').count()).toBe(3);
    expect(await dots('RII').count()).toBe(3);
    await page.getByTestId('trend-page-back').click();
    await expect.poll(() => boxes('BR').count()).toBe(2);
    await page.getByTestId('trend-reset-zoom').click();
    await expect.poll(() => boxes('BR').count()).toBe(5);
    expect(await page.getByTestId('trend-reset-zoom').isDisabled()).toBe(true);
  });

  it('takes a custom span, refuses one that ends too late, and hides a channel', async () => {
    await page.getByTestId('trend-duration').selectOption('custom');
    const to = await page.getByTestId('trend-to').inputValue();
    await page.getByTestId('trend-to').fill(new Date(Date.parse(to) + 2 * 86_400_000).toISOString().slice(0, 10));
    await page.getByTestId('trend-span-error').waitFor();
    expect(await page.getByTestId('trend-span-error').textContent()).toContain('later than yesterday');
    await page.getByTestId('trend-to').fill(to);
    await page.getByTestId('trend-from').fill(new Date(Date.parse(to) - 1 * 86_400_000).toISOString().slice(0, 10));
    await expect.poll(() => boxes('BR').count(), { timeout: 60_000 }).toBe(2);
    await page.getByTestId('channel-HR').click();
    await expect.poll(() => page.getByTestId('trend-chart-HR').count()).toBe(0);
    // Save as keeps the choice for the physician: after a reload HR stays hidden.
    await page.getByTestId('save-order').click();
    await page.getByTestId('save-done').waitFor();
    await page.reload();
    await page.getByTestId('trend-view').waitFor();
    await expect.poll(() => boxes('BR').count(), { timeout: 60_000 }).toBe(3);
    expect(await page.getByTestId('trend-chart-HR').count()).toBe(0);
    expect(await page.getByTestId('channel-HR').getAttribute('aria-pressed')).toBe('false');
    // Back to one night: the single-night review comes back.
    await page.getByTestId('mode-single').click();
    await page.getByTestId('chart-stack').waitFor({ timeout: 60_000 });
    expect(errors).toEqual([]);
  });
});

describe('actigraph view', () => {
  it('draws each night with its sleep bands and caption; dates toggle', async () => {
    await page.goto('/app/patients');
    await page.getByTestId('patient-link').filter({ hasText: 'NCT1001' }).click();
    await page.getByTestId('night-page').waitFor();
    await page.getByTestId('mode-trend').click();
    await page.getByTestId('actigraph-toggle').click();
    await page.getByTestId('actigraph-view').waitFor({ timeout: 60_000 });
    const days = page.locator('[data-testid^="actigraph-20"]');
    expect(await days.count()).toBe(3);
    expect(await days.first().locator('.acti-sleep').count()).toBeGreaterThan(0);
    expect(await days.first().locator('.acti-line').count()).toBe(1);
    expect(await days.first().getByTestId('actigraph-caption').textContent()).toMatch(/^WASO \d+ min · TST \d+:\d\d · SOL \d+ min · Bed-in \d\d:\d\d · Bed-out \d\d:\d\d$/);
    const first = await page.locator('[data-testid^="actigraph-date-"]').first().getAttribute('data-testid');
    await page.getByTestId(first!).click();
    await expect.poll(() => days.count()).toBe(2);
    // Back to the box plots.
    await page.getByTestId('actigraph-toggle').click();
    await page.getByTestId('trend-chart-BR').waitFor();
    expect(errors).toEqual([]);
  });
});

describe('summary tab', () => {
  it("shows the selected night's tables and is disabled in trend view", async () => {
    await page.goto('/app/patients');
    await page.getByTestId('patient-link').filter({ hasText: 'NCT1001' }).click();
    await page.getByTestId('night-page').waitFor();
    await page.getByTestId('tab-summary').click();
    await page.waitForURL((u) => u.search.includes('tab=summary'));
    await page.getByTestId('summary-panel').waitFor({ timeout: 60_000 });
    const rows = await page.getByTestId('summary-recording').locator('tr').allTextContents();
    expect(rows.some((r) => /Total sleep time \(h:mm\)\d+:\d\d/.test(r))).toBe(true);
    expect(rows.some((r) => /Sleep efficiency[\d.]+ %/.test(r))).toBe(true);
    const ahi = await page.getByTestId('summary-ahi').locator('td').first().textContent();
    expect(Number(ahi)).toBeGreaterThan(0);
    const median = await page.getByTestId('summary-BR').locator('td').first().textContent();
    expect(Number(median)).toBeGreaterThan(5);
    expect(Number(median)).toBeLessThan(40);
    expect(await page.getByTestId('summary-weight').textContent()).toContain('kg');
    // The trend view has no summary: the tab is disabled there and Overview shows the trend.
    await page.getByTestId('tab-overview').click();
    await page.getByTestId('mode-trend').click();
    await page.getByTestId('trend-view').waitFor();
    expect(await page.getByTestId('tab-summary').isDisabled()).toBe(true);
    expect(await page.getByTestId('tab-overview').getAttribute('aria-current')).toBe('page');
    expect(errors).toEqual([]);
  });
});
