import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO, newPage, ownAppAndBrowser, signInThroughForm } from './harness';

// The practice screens of issue 17 point 5 through the real app: Calendar, Appointments,
// Settings and Billing opened from the menu, on the demo practice's real data.

const app = ownAppAndBrowser();
const DAY = 86_400_000;
const title = (page: Page) => page.getByTestId('page-title').innerText();

async function signedIn(email: string, landing: string) {
  const opened = await newPage(app.browser, app.url);
  await opened.page.goto('/');
  await signInThroughForm(opened.page, app.url, email);
  await opened.page.getByTestId(landing).waitFor();
  return opened;
}

/** Shows the calendar month holding `date` (YYYY-MM-DD), moving from the current one. */
async function showMonthOf(page: Page, date: string): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const shown = await page.getByTestId('calendar-month').getAttribute('data-month');
    if (shown === date.slice(0, 7)) return;
    await page.getByTestId(shown! < date.slice(0, 7) ? 'calendar-next' : 'calendar-previous').click();
  }
}

describe('practice screens', () => {
  let checkupDate = '';

  it('the physician plans a check-up and finds it in Appointments and on the Calendar, with the device returns', async () => {
    const { page, context, errors } = await signedIn(DEMO.physician, 'dashboard');
    // A check-up planned on the patient's details tab, as a physician does.
    await page.getByTestId('nav-patients').click();
    await page.getByTestId('patient-link').filter({ hasText: 'NCT1003' }).click();
    await page.getByTestId('night-page').waitFor();
    await page.getByTestId('tab-details').click();
    await page.getByTestId('patient-details').waitFor();
    const toggle = page.getByTestId('checkups-toggle');
    const shown = async () => `${await toggle.getAttribute('aria-expanded')} ${await page.getByTestId('checkups-upcoming').count()} ${await page.getByTestId('night-error').count()}`;
    await toggle.click();
    // The list shown. Three times in CI on slow machines (2026-11-30, 2026-12-01, 2026-12-02) it
    // never came: 'false 0 0', the click not taken and no error on the page (not explained). A
    // user clicks again: so does the test, once, if the toggle still says closed after 10 s.
    const opened = await expect.poll(shown, { timeout: 10_000 }).toBe('true 1 0').then(() => true, () => false);
    if (!opened && (await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
    await expect.poll(shown).toBe('true 1 0');
    checkupDate = (await page.getByTestId('checkup-date').getAttribute('min'))!;
    await page.getByTestId('checkup-date').fill(checkupDate);
    await page.getByTestId('checkup-add').click();
    await page.getByTestId('checkups-upcoming').getByTestId(`checkup-${checkupDate}`).waitFor();

    // Appointments: the upcoming list holds it, linked to the patient.
    await page.getByTestId('nav-appointments').click();
    await page.getByTestId('appointments-page').waitFor();
    expect(await title(page)).toBe('Appointments');
    const row = page.getByTestId('appointments-upcoming').locator(`[data-date="${checkupDate}"]`);
    await expect.poll(() => row.innerText()).toContain('NCT1003');
    await page.getByTestId('appointments-toggle-past').click();
    await expect.poll(() => page.locator('[data-testid="appointments-past"], [data-testid="appointments-past-empty"]').count()).toBe(1);
    await row.getByRole('link', { name: 'NCT1003' }).click();
    await page.getByTestId('night-page').waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/app\/patients\/id=\d+$/);

    // Calendar: the check-up on its day, and a demo device's return (allocations end a week from today).
    await page.getByTestId('nav-calendar').click();
    await page.getByTestId('calendar-page').waitFor();
    expect(await title(page)).toBe('Calendar');
    expect(new URL(page.url()).pathname).toBe('/app/calender');
    await showMonthOf(page, checkupDate);
    const day = page.getByTestId(`calendar-day-${checkupDate}`);
    await expect.poll(() => day.getByTestId('calendar-entry-checkup').innerText()).toContain('NCT1003');
    // The seed dates the returns from the day the server started: a run that crossed midnight UTC
    // since finds them a day before today + 7 (CI of 92e101a, 23:53–00:05 UTC).
    const returnDates = [0, 1].map((back) => new Date(Math.floor(Date.now() / DAY) * DAY + (7 - back) * DAY).toISOString().slice(0, 10));
    const returns = async () => {
      let n = 0;
      for (const date of returnDates) {
        await showMonthOf(page, date);
        n += await page.getByTestId(`calendar-day-${date}`).getByTestId('calendar-entry-return').count();
      }
      return n;
    };
    await expect.poll(returns).toBeGreaterThan(0);
    // An entry opens its patient.
    await showMonthOf(page, checkupDate);
    await day.getByTestId('calendar-entry-checkup').first().click();
    await page.getByTestId('night-page').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the physician reads the membership on Billing and changes settings that persist after a reload', async () => {
    const { page, context, errors } = await signedIn(DEMO.physician, 'dashboard');
    await page.getByTestId('nav-billing').click();
    await page.getByTestId('billing-page').waitFor();
    expect(await title(page)).toBe('Billing');
    expect(await page.getByTestId('billing-page').getAttribute('data-membership')).toBe('non-paid');
    expect(await page.getByTestId('billing-membership').innerText()).toContain('Non-paid');
    expect(await page.getByTestId('billing-feature-odiChannel').getAttribute('data-included')).toBe('true');

    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-page').waitFor();
    expect(await title(page)).toBe('Settings');
    expect(await page.getByTestId('settings-rule-3').isChecked()).toBe(true);
    await page.getByTestId('settings-rule-4').check();
    await page.getByTestId('settings-divisor').selectOption('TST');
    await page.getByTestId('settings-analytics-save').click();
    await expect.poll(() => page.getByTestId('settings-analytics-save').isDisabled()).toBe(true);
    await page.getByTestId('settings-label-map-new-label').fill('Pleth SpO2');
    await page.getByTestId('settings-label-map-new-code').fill('SPO2');
    await page.getByTestId('settings-label-map-save').click();
    await expect.poll(() => page.getByTestId('settings-label-map-row').count()).toBe(1);
    // Built-in categories are listed.
    expect(await page.getByTestId('settings-categories').innerText()).toContain('Apnea');

    await page.reload();
    await page.getByTestId('settings-page').waitFor();
    await expect.poll(() => page.getByTestId('settings-rule-4').isChecked()).toBe(true);
    expect(await page.getByTestId('settings-divisor').inputValue()).toBe('TST');
    expect(await page.getByTestId('settings-label-map-row').innerText()).toContain('Pleth SpO2');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the paid member sees a paid membership and reads the analytics settings without changing them', async () => {
    const { page, context } = await signedIn(DEMO.paid, 'dashboard');
    // Its triage grades by what it sees: no AHI or ODI column, and the caption says the lowest SpO2 alone.
    await expect.poll(() => page.getByTestId('triage-caption').innerText(), { timeout: 60_000 }).toContain('Order: severity (lowest SpO2), then flagged.');
    await page.getByTestId('triage-table').waitFor();
    expect(await page.getByTestId('triage-ahi').count()).toBe(0);
    await page.getByTestId('nav-billing').click();
    expect(await page.getByTestId('billing-page').getAttribute('data-membership')).toBe('paid');
    expect(await page.getByTestId('billing-membership').innerText()).toContain('Paid');
    expect(await page.getByTestId('billing-feature-odiChannel').getAttribute('data-included')).toBe('false');
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-analytics-readonly').waitFor();
    expect(await page.getByTestId('settings-analytics-save').count()).toBe(0);
    // The practice's setting, as its physician saved it.
    await expect.poll(() => page.getByTestId('settings-rule-4').isChecked()).toBe(true);
    await context.close();
  });

  it('the annotator has Calendar and Appointments, and no Settings or Billing (404)', async () => {
    const { page, context } = await signedIn(DEMO.annotator, 'patients-table');
    expect(await page.getByTestId('nav-settings').count()).toBe(0);
    expect(await page.getByTestId('nav-billing').count()).toBe(0);
    await page.getByTestId('nav-appointments').click();
    await expect.poll(() => page.getByTestId('appointments-upcoming').innerText()).toContain('NCT1003');
    await page.getByTestId('nav-calendar').click();
    await page.getByTestId('calendar-page').waitFor();
    for (const path of ['/app/settings', '/app/billing']) {
      await page.goto(path);
      await page.getByTestId('not-found').waitFor();
      expect(await title(page)).toBe('Page not found');
    }
    await context.close();
  });
});
