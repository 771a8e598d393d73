import { describe, expect, it } from 'vitest';
import { DEMO, downloadBytes, signedInSuite } from './harness';

// Issue 17: a trend report generated through the dialog, its progress shown, the PDF
// downloaded, and the practice's list at /app/reports. The demo seed gives NCT1001 five nights.

// Simulating the demo nights takes minutes on a loaded machine.
const app = signedInSuite(DEMO.physician, 'dashboard', { SEED_NIGHTS: '1' }, 600_000);

describe('PDF reports', () => {
  it('generates a trend report with its progress and downloads the PDF; /app/reports lists it', { timeout: 600_000 }, async () => {
    await app.page.goto('/app/patients', { timeout: 120_000 });
    await app.page.getByTestId('patient-link').filter({ hasText: 'NCT1001' }).click();
    await app.page.getByTestId('night-page').waitFor({ timeout: 120_000 });
    await app.page.getByTestId('mode-trend').click();
    await app.page.getByTestId('trend-view').waitFor({ timeout: 120_000 });
    await app.page.getByTestId('trend-duration').selectOption('last10');
    await app.page.getByTestId('trend-generate-report').click();
    const dialog = app.page.getByTestId('trend-report-dialog');
    await dialog.getByTestId('report-form').waitFor();
    // The span's nights are the checked dates; the trend types are offered.
    const types = await dialog.getByTestId('report-type').locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(types).toEqual(['en', 'en-us', 'en-py', 'de-py', 'du-pys', 'de-pys', 'en-pys']);
    await expect.poll(() => dialog.getByTestId('report-dates').locator('input:checked').count()).toBe(5);
    await dialog.getByTestId('report-type').selectOption('en-pys');
    await dialog.getByTestId('report-generate').click();
    // Progress: the bar and the provider's four steps, until the report is ready.
    const progress = dialog.getByTestId('report-progress');
    await progress.waitFor();
    expect(await progress.locator('progress').count()).toBe(1);
    expect(await progress.locator('li').allTextContents()).toEqual(['Process KPIs', 'Create content', 'Render', 'File']);
    await expect.poll(() => progress.getAttribute('data-status'), { timeout: 90_000 }).toBe('done');
    const [download] = await Promise.all([app.page.waitForEvent('download'), dialog.getByTestId('report-download').click()]);
    expect(download.suggestedFilename()).toMatch(/^NCT1001_\d{8}_\d{8}_study_en\.pdf$/);
    const bytes = await downloadBytes(download);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(5000);
    await app.page.keyboard.press('Escape');

    await app.page.getByTestId('nav-reports').click();
    await app.page.getByTestId('reports-table').waitFor();
    const row = app.page.locator('[data-testid^="report-row-"]').first();
    expect(await row.getAttribute('data-status')).toBe('done');
    expect(await row.textContent()).toContain('NCT1001');
    // Its request time and its nights as the rest of the app writes them: "04 Dec 2026, 10:12", "02 Dec 2026", never am/pm or yyyy-mm-dd.
    const cells = await row.locator('td').allTextContents();
    expect(cells[0]).toMatch(/^\d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
    expect(cells[3]).toMatch(/^\d{2} [A-Z][a-z]{2} \d{4} – \d{2} [A-Z][a-z]{2} \d{4} \(\d+\)$/);
    const [again] = await Promise.all([app.page.waitForEvent('download'), row.getByTestId('reports-download').click()]);
    expect(again.suggestedFilename()).toBe(download.suggestedFilename());
    expect(app.errors).toEqual([]);
  });
});
