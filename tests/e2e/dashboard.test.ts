import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO, newPage, refuseWebGl, signedInSuite, signInThroughForm } from './harness';

// The dashboard and the notification bell through the real app, over the demo seed:
// five patients, two at risk (At Risk: NCT1001, NCT1004; NCT1002 is Control), four devices out
// for a week, simulated nights up to the last one that has ended.

const app = signedInSuite(DEMO.physician, 'dashboard', { SEED_NIGHTS: '1' });

/** Pixels of the sparklines' series colour (SERIES_COLORS[0], drawn without antialiasing) in a PNG, decoded by the browser. */
let seriesPixels: (png: Buffer) => Promise<number>;

const tile = async (id: string) => Number(await app.page.getByTestId(id).locator('.stat-value').textContent());

describe('dashboard', () => {
  seriesPixels = (png) => countSeriesPixels(app.page, png);

  it('shows the counts and the past night, each night a link to its review', async () => {
    await app.page.getByTestId('dashboard-widgets').waitFor();
    expect(await tile('widget-flagged')).toBe(2);
    expect(await tile('widget-deployed')).toBe(4);
    expect(await tile('widget-available')).toBe(2);
    expect(await tile('widget-overdue')).toBe(0);
    // The seed's last night is the latest that has ended and is not the night in progress (issue 32.3):
    // from noon in Zurich it ended within 24 hours and is the past night; before noon the night in
    // progress belongs to streaming devices, and the seeded nights are older.
    const zurichHour = Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Zurich', hour: 'numeric', hourCycle: 'h23' }).format(new Date()));
    const pastNight = zurichHour >= 12 ? await app.page.getByTestId('past-night-list').locator('li').allTextContents() : [];
    for (const code of ['NCT1001', 'NCT1002', 'NCT1003', 'NCT1004']) expect(zurichHour < 12 || pastNight.some((r) => r.startsWith(code))).toBe(true);
    const unseen = await tile('widget-unseen');
    await app.page.getByTestId(zurichHour >= 12 ? 'past-night-list' : 'last-list').getByRole('link', { name: 'NCT1002' }).first().click();
    await app.page.waitForURL((u) => /\/app\/patients\/id=\d+$/.test(u.pathname) && u.search.startsWith('?night='));
    await app.page.getByTestId('night-page').waitFor();
    // Opening the night made it seen (issue 32.4): the dashboard's unseen count is one lower.
    await app.page.getByTestId('chart-stack').waitFor();
    await app.page.goBack();
    await app.page.getByTestId('dashboard-widgets').waitFor();
    await expect.poll(() => tile('widget-unseen'), { timeout: 30_000 }).toBe(unseen - 1);
    expect(app.errors).toEqual([]);
  });

  it('dates a night the same in the Data Center as on the dashboard (the night, not the day it stopped; issue 32.12)', async () => {
    await app.page.goto('/');
    const onDashboard = (await app.page.getByTestId('last-list').locator('li').filter({ hasText: 'NCT1002' }).first().innerText()).trim();
    await app.page.goto('/app/datacenter');
    const row = app.page.getByTestId('datacenter-row').filter({ hasText: 'NCT0002' });
    expect((await row.getByTestId('datacenter-last').innerText()).trim()).toBe(onDashboard);
  });

  // The first test opened one night of the week, which made it seen: 12 of the 13 are unread.
  it('counts unread notifications; a click marks one read and opens its night', async () => {
    await app.page.goto('/');
    await app.page.getByTestId('dashboard').waitFor();
    await expect.poll(async () => Number((await app.page.getByTestId('notification-count').textContent()) ?? 0), { timeout: 90_000 }).toBeGreaterThanOrEqual(12);
    const before = Number(await app.page.getByTestId('notification-count').textContent());
    const unseen = await tile('widget-unseen');
    await app.page.getByTestId('notification-bell').click();
    // An unread one (the night the first test opened is read already: it was seen).
    const item = app.page.locator('[data-testid="notification-item"][data-read="0"]').filter({ hasText: 'NCT1002' }).first();
    const text = (await item.textContent())!;
    expect(text).toMatch(/NCT1002 · \d\d \w{3} \d{4} · \d+ apneas and hypopneas/);
    await item.click();
    await app.page.waitForURL((u) => u.search.startsWith('?night='));
    await app.page.getByTestId('night-page').waitFor();
    await expect.poll(async () => Number(await app.page.getByTestId('notification-count').textContent())).toBe(before - 1);
    await app.page.goto('/');
    await app.page.getByTestId('dashboard-widgets').waitFor();
    await expect.poll(() => tile('widget-unseen')).toBe(unseen - 1);
    await app.page.getByTestId('notification-bell').click();
    expect(await app.page.getByTestId('notification-item').filter({ hasText: text }).first().getAttribute('data-read')).toBe('1');
    await app.page.keyboard.press('Escape');
    expect(await app.page.getByTestId('notification-panel').count()).toBe(0);
    expect(app.errors).toEqual([]);
  });

  it("counts as many flagged patients as the list's Flagged filter shows", async () => {
    await app.page.goto('/');
    await app.page.getByTestId('dashboard-widgets').waitFor();
    const flagged = await tile('widget-flagged');
    await app.page.getByTestId('nav-patients').click();
    await app.page.getByTestId('patients-table').waitFor();
    await app.page.getByTestId('filter-status').selectOption('flagged');
    await expect.poll(() => app.page.getByTestId('patient-link').count()).toBe(flagged);
    expect(await app.page.getByTestId('patient-link').allTextContents()).toEqual(['NCT1001', 'NCT1004']);
  });

  it("the triage table lists the patients by attention with their night summary's figures, sparklines drawn on one canvas, and a click opens the night", async () => {
    const { page } = app;
    await page.goto('/');
    await page.getByTestId('triage-table').waitFor();
    // The table analyses the nights it has not seen yet, showing how many remain, then shows them all.
    await expect.poll(() => page.getByTestId('triage-pending').count(), { timeout: 180_000 }).toBe(0);
    await expect.poll(() => page.getByTestId('triage-row').locator('[role="status"]').count(), { timeout: 60_000 }).toBe(0);
    const rows = page.getByTestId('triage-row');
    const codes = await rows.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.code));
    expect([...codes].sort()).toEqual(['NCT1001', 'NCT1002', 'NCT1003', 'NCT1004', 'NCT1005']);
    const levels = await rows.evaluateAll((els) => els.map((e) => ((e as HTMLElement).dataset.attention === '' ? -1 : Number((e as HTMLElement).dataset.attention))));
    expect(levels).toEqual([...levels].sort((a, b) => b - a));
    expect(levels[0]).toBeGreaterThan(0);
    // One WebGL canvas draws every sparkline (browsers cap contexts at ~16).
    expect(await page.getByTestId('triage').locator('canvas').count()).toBe(1);
    const sparks = page.getByTestId('triage-spark');
    expect(await sparks.count()).toBeGreaterThanOrEqual(16);
    // Each sparkline of the first row has drawn pixels of the series colour in its own box.
    const first = rows.first();
    for (const figure of ['ahi', 'odi', 'lowest_spo2', 'hours']) {
      const spark = first.getByTestId(`triage-${figure}`).getByTestId('triage-spark');
      await expect.poll(async () => seriesPixels(await page.screenshot({ clip: (await spark.boundingBox())! })), { timeout: 10_000 }).toBeGreaterThan(4);
    }
    const figure = async (key: string) => (await first.getByTestId(`triage-${key}`).locator('.triage-value').innerText()).trim();
    const shown = { ahi: await figure('ahi'), odi: await figure('odi'), spo2: await figure('lowest_spo2'), hours: await figure('hours') };
    const code = codes[0]!;
    await first.click();
    await page.waitForURL((u) => u.search.startsWith('?night='));
    await page.getByTestId('night-page').waitFor();
    expect(await page.getByTestId('bio-header').innerText()).toContain(code);
    const night = new URL(page.url()).searchParams.get('night');
    await page.getByTestId('tab-summary').click();
    await page.getByTestId('summary-panel').waitFor();
    expect(new URL(page.url()).searchParams.get('night')).toBe(night);
    const cell = (table: string, row: number) => page.getByTestId(table).locator('td').nth(row).innerText();
    expect(await cell('summary-ahi', 0)).toBe(shown.ahi);
    expect(await cell('summary-odi', 0)).toBe(shown.odi);
    expect(await cell('summary-SPO2', 4)).toBe(shown.spo2);
    expect(await cell('summary-recording', 4)).toBe(shown.hours);
    expect(app.errors).toEqual([]);
  });

  it('draws the sparklines in 2D in a browser without WebGL, with no error', async () => {
    const other = await newPage(app.browser, app.base);
    try {
      await refuseWebGl(other.context);
      await other.page.goto('/');
      await signInThroughForm(other.page, app.base, DEMO.physician);
      await other.page.getByTestId('triage-table').waitFor();
      await expect.poll(() => other.page.getByTestId('triage-row').count(), { timeout: 60_000 }).toBe(5);
      const canvas = other.page.getByTestId('triage').locator('canvas');
      expect(await canvas.getAttribute('data-backend')).toBe('2d');
      const spark = other.page.getByTestId('triage-row').first().getByTestId('triage-ahi').getByTestId('triage-spark');
      await expect.poll(async () => countSeriesPixels(other.page, await other.page.screenshot({ clip: (await spark.boundingBox())! })), { timeout: 10_000 }).toBeGreaterThan(4);
      expect(other.errors).toEqual([]);
    } finally {
      await other.context.close();
    }
  });

  it("the app header stays above the night's sticky navigator and its tick labels when the page scrolls past the charts", async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1280, height: 560 });
    try {
      await page.goto('/app/patients');
      await page.getByTestId('patient-link').filter({ hasText: 'NCT1001' }).click();
      await page.locator('.navigator').waitFor();
      await page.locator('.import-details > summary').click();
      // The panel's body renders on the details' toggle event, a task after the click: the page is
      // tall enough to scroll the charts past the header only once it is there (CI 2026-12-03: the
      // scan ran before it and found no such position).
      await page.locator('.import-details[open] > summary + *').waitFor();
      // Scroll until the charts end and the navigator slides under the header; there, every
      // navigator element under the header must be hidden by it (the header is what is on top).
      const seen = await page.evaluate(() => {
        const header = document.querySelector('.app-header')!.getBoundingClientRect();
        for (let y = 0; y < document.documentElement.scrollHeight; y += 20) {
          window.scrollTo(0, y);
          const nav = document.querySelector('.navigator')!.getBoundingClientRect();
          if (nav.top >= header.bottom - 20 || nav.bottom <= header.bottom + 10) continue;
          let under = 0;
          let over = 0;
          for (const el of document.querySelectorAll('.navigator *')) {
            const r = el.getBoundingClientRect();
            if (r.width === 0 || r.bottom <= header.top + 1 || r.top >= header.bottom - 1) continue;
            under++;
            const top = document.elementFromPoint(r.left + r.width / 2, Math.min(header.bottom - 2, Math.max(r.top, header.top) + 2));
            if (!top?.closest('.app-header')) over++;
          }
          return { under, over };
        }
        return null;
      });
      expect(seen).not.toBeNull();
      expect(seen!.under).toBeGreaterThan(0);
      expect(seen!.over).toBe(0);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('gives annotators neither the dashboard nor notifications', async () => {
    const annotator = await newPage(app.browser, app.base);
    try {
      await annotator.page.goto('/');
      await signInThroughForm(annotator.page, app.base, DEMO.annotator);
      await annotator.page.getByTestId('patients-table').waitFor();
      expect(await annotator.page.getByTestId('notification-bell').count()).toBe(0);
      expect(annotator.errors).toEqual([]);
    } finally {
      await annotator.context.close();
    }
  });
});

async function countSeriesPixels(page: Page, png: Buffer): Promise<number> {
  return page.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(bitmap, 0, 0);
    const data = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
    let n = 0;
    // SERIES_COLORS[0] = (0.12, 0.37, 0.66) = rgb(31, 94, 168).
    for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i]! - 31) < 20 && Math.abs(data[i + 1]! - 94) < 20 && Math.abs(data[i + 2]! - 168) < 20) n++;
    return n;
  }, png.toString('base64'));
}
