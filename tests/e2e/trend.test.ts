import { describe, expect, it } from 'vitest';
import { DEMO, downloadBytes, signedInSuite } from './harness';

// The Trend view of the patient screen through the real app: the demo seed gives NCT1001
// five simulated nights ending last night, and an account two months old.

const app = signedInSuite(DEMO.physician, 'dashboard', { SEED_NIGHTS: '1' });

const boxes = (code: string) => app.page.getByTestId(`trend-chart-${code}`).getByTestId('trend-box');
const dots = (code: string) => app.page.getByTestId(`trend-chart-${code}`).getByTestId('trend-point');

/** Drags across a chart from one fraction of its width to another. */
async function drag(code: string, from: number, to: number): Promise<void> {
  await app.page.getByTestId(`trend-svg-${code}`).scrollIntoViewIfNeeded();
  const box = (await app.page.getByTestId(`trend-svg-${code}`).boundingBox())!;
  const plotLeft = box.x + 48;
  const plotWidth = box.width - 60;
  await app.page.mouse.move(plotLeft + plotWidth * from, box.y + 80);
  await app.page.mouse.down();
  await app.page.mouse.move(plotLeft + plotWidth * ((from + to) / 2), box.y + 80, { steps: 3 });
  await app.page.mouse.move(plotLeft + plotWidth * to, box.y + 80, { steps: 3 });
  await app.page.mouse.up();
}

describe('trend view', () => {
  it('shows a box per night for the signals and a value per night for the indices', async () => {
    await app.page.goto('/app/patients');
    await app.page.getByTestId('patient-link').filter({ hasText: 'NCT1001' }).click();
    await app.page.getByTestId('night-page').waitFor();
    await app.page.getByTestId('mode-trend').click();
    await app.page.waitForURL((u) => u.search.includes('view=trend'));
    await app.page.getByTestId('trend-view').waitFor();
    // Two months of account: every duration is offered; the first, last 3 nights, is chosen.
    const options = await app.page.getByTestId('trend-duration').locator('option').allTextContents();
    expect(options).toEqual(['Last 3 nights', 'Last 10 nights', 'Last month', 'Custom']);
    expect(await app.page.getByTestId('trend-from').isDisabled()).toBe(true);
    await expect.poll(() => boxes('BR').count(), { timeout: 60_000 }).toBe(3);
    expect(await app.page.getByTestId('trend-days').textContent()).toBe('3 days');
    // Last 10 nights: all five demo nights.
    await app.page.getByTestId('trend-duration').selectOption('last10');
    await expect.poll(() => boxes('BR').count(), { timeout: 60_000 }).toBe(5);
    await expect.poll(() => boxes('SPO2').count()).toBe(5);
    await expect.poll(() => dots('RII').count()).toBe(5);
    // The five nights follow one another: one line through the five dots.
    const lines = app.page.getByTestId('trend-svg-RII').locator('polyline.trend-line');
    expect(await lines.count()).toBe(1);
    expect((await lines.getAttribute('points'))!.split(' ')).toHaveLength(5);
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
    expect(await app.page.getByTestId('trend-chart-SPO2').getByTestId('trend-band-moderate').count()).toBe(1);
    expect(await app.page.getByTestId('trend-chart-SPO2').getByTestId('trend-band-severe').count()).toBeGreaterThan(0);
    expect(await app.page.getByTestId('trend-chart-AHI').locator('h4').textContent()).toBe('AHI (/h)');
    // Weight is off by default: no chart for it (and the patient has no weight channel).
    expect(await app.page.getByTestId('trend-chart-weight').count()).toBe(0);
    expect(app.errors).toEqual([]);
  });

  it('zooms every chart to dragged days, pages, and resets', async () => {
    expect(await app.page.getByTestId('trend-days').textContent()).toBe('10 days');
    // The five nights are the last five days of the ten: drag over the last three.
    await drag('BR', 0.72, 0.98);
    await expect.poll(() => app.page.getByTestId('trend-days').textContent()).toBe('3 days');
    expect(await boxes('BR').count()).toBe(3);
    expect(await boxes('HR').count()).toBe(3);
    expect(await dots('RII').count()).toBe(3);
    await app.page.getByTestId('trend-page-back').click();
    await expect.poll(() => boxes('BR').count()).toBe(2);
    await app.page.getByTestId('trend-reset-zoom').click();
    await expect.poll(() => boxes('BR').count()).toBe(5);
    expect(await app.page.getByTestId('trend-reset-zoom').isDisabled()).toBe(true);
  });

  it('takes a custom span, refuses one that ends too late, and hides a channel', async () => {
    await app.page.getByTestId('trend-duration').selectOption('custom');
    const to = await app.page.getByTestId('trend-to').inputValue();
    await app.page.getByTestId('trend-to').fill(new Date(Date.parse(to) + 2 * 86_400_000).toISOString().slice(0, 10));
    await app.page.getByTestId('trend-span-error').waitFor();
    expect(await app.page.getByTestId('trend-span-error').textContent()).toContain('later than yesterday');
    await app.page.getByTestId('trend-to').fill(to);
    await app.page.getByTestId('trend-from').fill(new Date(Date.parse(to) - 1 * 86_400_000).toISOString().slice(0, 10));
    await expect.poll(() => boxes('BR').count(), { timeout: 60_000 }).toBe(2);
    await app.page.getByTestId('channel-HR').click();
    await expect.poll(() => app.page.getByTestId('trend-chart-HR').count()).toBe(0);
    // Save as keeps the choice for the physician: after a reload HR stays hidden.
    await app.page.getByTestId('save-order').click();
    await app.page.getByTestId('save-done').waitFor();
    await app.page.reload();
    await app.page.getByTestId('trend-view').waitFor();
    await expect.poll(() => boxes('BR').count(), { timeout: 60_000 }).toBe(3);
    expect(await app.page.getByTestId('trend-chart-HR').count()).toBe(0);
    expect(await app.page.getByTestId('channel-HR').getAttribute('aria-pressed')).toBe('false');
    // Back to one night: the single-night review comes back.
    await app.page.getByTestId('mode-single').click();
    await app.page.getByTestId('chart-stack').waitFor({ timeout: 60_000 });
    expect(app.errors).toEqual([]);
  });
});

describe('actigraph view', () => {
  it('draws each night with its sleep bands and caption; dates toggle', async () => {
    await app.page.goto('/app/patients');
    await app.page.getByTestId('patient-link').filter({ hasText: 'NCT1001' }).click();
    await app.page.getByTestId('night-page').waitFor();
    await app.page.getByTestId('mode-trend').click();
    await app.page.getByTestId('actigraph-toggle').click();
    await app.page.getByTestId('actigraph-view').waitFor({ timeout: 60_000 });
    const days = app.page.locator('[data-testid^="actigraph-20"]');
    expect(await days.count()).toBe(3);
    expect(await days.first().locator('.acti-sleep').count()).toBeGreaterThan(0);
    expect(await days.first().locator('.acti-line').count()).toBe(1);
    expect(await days.first().getByTestId('actigraph-caption').textContent()).toMatch(/^WASO \d+ min · TST \d+:\d\d:\d\d · SOL \d+ min · Bed-in \d\d:\d\d · Bed-out \d\d:\d\d$/);
    const first = await app.page.locator('[data-testid^="actigraph-date-"]').first().getAttribute('data-testid');
    await app.page.getByTestId(first!).click();
    await expect.poll(() => days.count()).toBe(2);
    // Back to the box plots.
    await app.page.getByTestId('actigraph-toggle').click();
    await app.page.getByTestId('trend-chart-BR').waitFor();
    expect(app.errors).toEqual([]);
  });
});

describe('summary tab', () => {
  it("shows the selected night's tables and is disabled in trend view", async () => {
    await app.page.goto('/app/patients');
    await app.page.getByTestId('patient-link').filter({ hasText: 'NCT1001' }).click();
    await app.page.getByTestId('night-page').waitFor();
    await app.page.getByTestId('tab-summary').click();
    await app.page.waitForURL((u) => u.search.includes('tab=summary'));
    await app.page.getByTestId('summary-panel').waitFor({ timeout: 60_000 });
    const rows = await app.page.getByTestId('summary-recording').locator('tr').allTextContents();
    expect(rows.some((r) => /Total sleep time \(h:mm:ss\)\d+:\d\d:\d\d/.test(r))).toBe(true);
    expect(rows.some((r) => /Sleep efficiency[\d.]+ %/.test(r))).toBe(true);
    // The RII's divisor by its name, not its code (the demo practice's default: TBT).
    expect(await app.page.getByTestId('summary-rii').locator('tr').allTextContents()).toContain('Per hour ofTotal Bed Time (TBT)');
    const ahi = await app.page.getByTestId('summary-ahi').locator('td').first().textContent();
    expect(Number(ahi)).toBeGreaterThan(0);
    const median = await app.page.getByTestId('summary-BR').locator('td').first().textContent();
    expect(Number(median)).toBeGreaterThan(5);
    expect(Number(median)).toBeLessThan(40);
    expect(await app.page.getByTestId('summary-weight').textContent()).toContain('kg');
    // The trend view has no summary: the tab is disabled there and Overview shows the trend.
    await app.page.getByTestId('tab-overview').click();
    await app.page.getByTestId('mode-trend').click();
    await app.page.getByTestId('trend-view').waitFor();
    expect(await app.page.getByTestId('tab-summary').isDisabled()).toBe(true);
    expect(await app.page.getByTestId('tab-overview').getAttribute('aria-current')).toBe('page');
    expect(app.errors).toEqual([]);
  });
});

describe('night downloads', () => {
  it('asks for a channel, then downloads its data points as CSV, and the night as EDF+', async () => {
    await app.page.goto('/app/patients');
    await app.page.getByTestId('patient-link').filter({ hasText: 'NCT1003' }).click();
    await app.page.getByTestId('night-page').waitFor();
    await app.page.getByTestId('night-downloads').locator('summary').click();
    await app.page.getByTestId('download-data-points').click();
    expect(await app.page.getByTestId('download-problem').textContent()).toBe('Please select a KPI to download data points.');
    await app.page.getByTestId('download-channel-SPO2').check();
    const [csv] = await Promise.all([app.page.waitForEvent('download'), app.page.getByTestId('download-data-points').click()]);
    // Named from channel, date, device and patient (spec 2 §7).
    expect(csv.suggestedFilename()).toMatch(/^SPO2_\d{8}_NCT0004_NCT1003\.csv$/);
    const text = (await downloadBytes(csv)).toString('utf8');
    const lines = text.trim().split(/\r?\n/);
    expect(lines[0]).toBe('Timestamp,Value');
    expect(lines.length).toBeGreaterThan(1000);
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z,(\d+(\.\d+)?)?$/);
    const [edf] = await Promise.all([app.page.waitForEvent('download'), app.page.getByTestId('download-edf').click()]);
    expect(edf.suggestedFilename()).toMatch(/^NCT1003_.*\.edf$/);
    const bytes = await downloadBytes(edf);
    // An EDF header starts with the version "0" padded to 8 bytes; EDF+ says so at byte 192.
    expect(bytes.subarray(0, 8).toString('latin1')).toBe('0       ');
    expect(bytes.subarray(192, 197).toString('latin1')).toBe('EDF+C');
    expect(app.errors).toEqual([]);
  });
});

describe('night report', () => {
  it('shows the summary and the SpO2 line at 90, and prints the report alone', async () => {
    await app.page.goto('/app/patients');
    await app.page.getByTestId('patient-link').filter({ hasText: 'NCT1002' }).click();
    await app.page.getByTestId('night-page').waitFor();
    await app.page.getByTestId('generate-report').click();
    const dialog = app.page.getByTestId('report-dialog');
    await dialog.getByTestId('summary-ahi').waitFor({ timeout: 60_000 });
    expect(await dialog.textContent()).toContain('NCT1002');
    await dialog.getByTestId('report-spo2').waitFor({ timeout: 60_000 });
    expect(await dialog.getByTestId('report-line-90').count()).toBe(1);
    expect(await dialog.locator('.report-trace').count()).toBeGreaterThan(300);
    expect(await app.page.getByTestId('report-print').isEnabled()).toBe(true);
    // Printed, only the report shows.
    await app.page.emulateMedia({ media: 'print' });
    expect(await app.page.getByTestId('report-sheet').isVisible()).toBe(true);
    expect(await app.page.getByTestId('page-title').isVisible()).toBe(false);
    await app.page.emulateMedia({ media: 'screen' });
    await app.page.keyboard.press('Escape');
    await expect.poll(() => app.page.getByTestId('report-sheet').count()).toBe(0);
    expect(app.errors).toEqual([]);
  });
});
