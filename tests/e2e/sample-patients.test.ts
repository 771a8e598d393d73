import { describe, expect, it } from 'vitest';
import { DEMO, newPage, signedInSuite, signInThroughForm } from './harness';

// Issue 17 point 2: the annotator adds a night to a new sample patient from the night view;
// the sample is listed under Sample patients and opens read-only with a name-only bio header,
// for the annotator and for the practice's physician.

const NAME = 'Healthy night, teaching';

// Simulating the demo nights takes minutes on a loaded machine.
const app = signedInSuite(DEMO.annotator, 'patients-table', { SEED_NIGHTS: '1' }, 600_000);

describe('sample patients', () => {
  it('an annotator adds a night to a new sample patient, which is listed and opens read-only', { timeout: 600_000 }, async () => {
    const { page } = app;
    await page.getByTestId('patient-link').filter({ hasText: 'NCT1003' }).click();
    await page.getByTestId('night-page').waitFor({ timeout: 120_000 });
    await page.getByTestId('night-picker').waitFor();
    const sourceNight = await page.getByTestId('night-picker').getAttribute('data-night');
    await page.getByTestId('add-to-sample').click();
    const dialog = page.getByTestId('sample-dialog');
    await dialog.getByTestId('sample-pick').waitFor();
    // Spec 2 §4: picking a sample patient reveals the Submit button.
    expect(await dialog.getByTestId('sample-submit').count()).toBe(0);
    await expect.poll(() => dialog.getByTestId('sample-pick').isEnabled()).toBe(true);
    await dialog.getByTestId('sample-pick').selectOption('new');
    await dialog.getByTestId('sample-name').fill('Lea, healthy');
    await dialog.getByTestId('sample-submit').click();
    // The source patient's name is refused (NCT1003 is Lea Dubois).
    await expect.poll(() => dialog.getByTestId('sample-problem').textContent()).toContain("may not contain the patient's name or code");
    await dialog.getByTestId('sample-name').fill(NAME);
    await dialog.getByTestId('sample-submit').click();
    await dialog.getByTestId('sample-added').waitFor();
    expect(await dialog.getByTestId('sample-added').textContent()).toContain(NAME);
    await dialog.getByTestId('sample-cancel').click();

    // Listed under Sample patients, and opens on its night, read-only, name only.
    await page.getByTestId('nav-sample-patients').click();
    await page.getByTestId('samples-table').waitFor();
    const row = page.locator('[data-testid^="sample-row-"]').filter({ hasText: NAME });
    expect(await row.textContent()).toMatch(/SMP[A-Z0-9]{8}/);
    expect(await row.textContent()).not.toContain('NCT1003');
    await row.getByTestId('sample-link').click();
    await page.getByTestId('night-page').waitFor();
    // The latest (the shown) night of NCT1003, on the same date.
    expect(new URL(page.url()).searchParams.get('night')).toBe(sourceNight);
    await page.getByTestId('night-picker').waitFor();
    expect(await page.getByTestId('night-picker').getAttribute('data-night')).toBe(sourceNight);
    await expectReadOnlySample(page);
    expect(app.errors).toEqual([]);
  });

  it("the practice's physician sees the sample listed and reads it without edit controls", { timeout: 300_000 }, async () => {
    const { page, context, errors } = await newPage(app.browser, app.base);
    try {
      await page.goto('/');
      await signInThroughForm(page, app.base, DEMO.physician);
      await page.getByTestId('nav-sample-patients').click();
      const row = page.locator('[data-testid^="sample-row-"]').filter({ hasText: NAME });
      await row.waitFor();
      await row.getByTestId('sample-link').click();
      await page.getByTestId('night-page').waitFor();
      await expectReadOnlySample(page);
      // Nothing to import into a sample, no report of it.
      expect(await page.getByTestId('generate-report').count()).toBe(0);
      expect(await page.locator('.import-details').count()).toBe(0);
      // The patient's own list does not hold it.
      await page.getByTestId('nav-patients').click();
      await page.getByTestId('patients-table').waitFor();
      expect(await page.getByTestId('patient-link').filter({ hasText: 'SMP' }).count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/** The sample's night view: the name alone in the bio header, its charts, and no control that changes it. */
async function expectReadOnlySample(page: import('playwright-core').Page) {
  const header = page.getByTestId('bio-header');
  await header.waitFor();
  expect((await header.innerText()).trim()).toBe(NAME);
  expect(await page.getByTestId('bio-info-toggle').count()).toBe(0);
  await page.getByTestId('sample-badge').waitFor();
  // The menu says where the night belongs: Sample patients, not My Patients (its path is a patient's).
  await expect.poll(() => page.getByTestId('nav-sample-patients').getAttribute('aria-current')).toBe('page');
  expect(await page.getByTestId('nav-patients').getAttribute('aria-current')).toBeNull();
  await page.getByTestId('chart-stack').waitFor({ timeout: 90_000 });
  await page.getByTestId('annotation-sidebar').waitFor();
  expect(await page.getByTestId('annotation-add').count()).toBe(0);
  expect(await page.getByTestId('generate-system').count()).toBe(0);
  expect(await page.getByTestId('add-to-sample').count()).toBe(0);
  expect(await page.getByTestId('night-error').count()).toBe(0);
}
