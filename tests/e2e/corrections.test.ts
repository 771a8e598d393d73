import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import type { Page } from 'playwright-core';
import { DEMO, newPage, openPatient, signedInSuite, signInThroughForm } from './harness';

// Manual corrections (issue 17 point 4) as a physician makes them in the night view's Actions:
// a span marked invalid changes the Summary's AHI; undoing it brings the AHI back. An annotator
// sees that a correction applies but has no form.

const app = signedInSuite(DEMO.physician, 'dashboard', { SEED_NIGHTS: '1' });
const PATIENT = 'NCT1003';

/** The night on screen: its start, stop and zone, from the same call the page makes. */
function shownNight(page: Page): Promise<{ start: number; stop: number; zone: string }> {
  return page.evaluate(async () => {
    const key = Object.keys(localStorage).find((k) => k.includes('session'))!;
    const { token } = JSON.parse(localStorage.getItem(key)!) as { token: string };
    const url = new URL(location.href);
    const patientId = /id=(\d+)/.exec(url.pathname)![1];
    const res = (await (await fetch(`/api/v1/patient/available-nights?patient_id=${patientId}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
      data: { nights: Array<{ night: number; recording_start_time: number; recording_stop_time: number; timezone: string }> };
    };
    const nights = res.data.nights;
    const wanted = Number(url.searchParams.get('night'));
    const n = nights.find((x) => x.night === wanted) ?? nights.reduce((a, b) => (b.night > a.night ? b : a));
    return { start: n.recording_start_time, stop: n.recording_stop_time, zone: n.timezone };
  });
}

async function summaryAhi(page: Page): Promise<string> {
  await page.getByTestId('tab-summary').click();
  await page.getByTestId('summary-panel').waitFor();
  return (await page.getByTestId('summary-ahi').locator('td').first().innerText()).trim();
}

async function openCorrections(page: Page): Promise<void> {
  await page.getByTestId('tab-overview').click();
  const panel = page.getByTestId('night-corrections');
  await panel.waitFor();
  if ((await panel.getAttribute('open')) === null) await panel.locator('summary').click();
}

describe('manual corrections', () => {
  it('the physician marks a span invalid, the Summary AHI changes, and undo restores it', async () => {
    const { page } = app;
    await openPatient(page, PATIENT);
    const before = await summaryAhi(page);
    expect(before).toMatch(/\d/);

    await openCorrections(page);
    const night = await shownNight(page);
    const clock = (ms: number) => DateTime.fromMillis(ms, { zone: night.zone }).toFormat('HH:mm:ss');
    await page.getByTestId('correction-kind-invalid').check();
    await page.getByTestId('correction-from').fill(clock(night.start + 3_600_000));
    await page.getByTestId('correction-to').fill(clock(night.start + 4 * 3_600_000));
    await page.getByTestId('correction-reason').fill('Partner in the room');
    await page.getByTestId('correction-save').click();
    await page.getByTestId('corrections-badge').waitFor();
    const item = page.getByTestId('corrections-list').locator('li').first();
    expect(await item.innerText()).toContain('Partner in the room');
    expect(await item.getAttribute('data-status')).toBe('active');

    await expect.poll(() => summaryAhi(page), { timeout: 60_000 }).not.toBe(before);
    expect(await page.getByTestId('summary-recording-note').innerText()).toContain('manual corrections');

    await openCorrections(page);
    await page.getByTestId('corrections-list').getByRole('button', { name: 'Undo' }).first().click();
    await expect.poll(() => page.getByTestId('corrections-badge').count()).toBe(0);
    expect(await page.getByTestId('corrections-list').locator('li').first().getAttribute('data-status')).toBe('undone');
    await expect.poll(() => summaryAhi(page), { timeout: 60_000 }).toBe(before);
    expect(await page.getByTestId('summary-recording-note').count()).toBe(0);
    expect(app.errors).toEqual([]);
  });

  it('an annotator sees that a correction applies, without a form or undo', async () => {
    const { page } = app;
    // The physician corrects bed-out (two hours earlier), then the annotator looks.
    await openPatient(page, PATIENT);
    await openCorrections(page);
    const night = await shownNight(page);
    await page.getByTestId('correction-kind-bed').check();
    await page.getByTestId('correction-to').fill(DateTime.fromMillis(night.stop - 2 * 3_600_000, { zone: night.zone }).toFormat('HH:mm:ss'));
    await page.getByTestId('correction-reason').fill('Got up early (diary)');
    await page.getByTestId('correction-save').click();
    await page.getByTestId('corrections-badge').waitFor();

    const annotator = await newPage(app.browser, app.base);
    try {
      await annotator.page.goto('/');
      await signInThroughForm(annotator.page, app.base, DEMO.annotator);
      await openPatient(annotator.page, PATIENT);
      await openCorrections(annotator.page);
      await annotator.page.getByTestId('corrections-badge').waitFor();
      await annotator.page.getByTestId('corrections-read-only').waitFor();
      expect(await annotator.page.getByTestId('corrections-form').count()).toBe(0);
      expect(await annotator.page.getByTestId('corrections-list').getByRole('button').count()).toBe(0);
      expect(await annotator.page.getByTestId('corrections-list').innerText()).toContain('Got up early (diary)');
      expect(annotator.errors).toEqual([]);
    } finally {
      await annotator.context.close();
    }
  });
});
