import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO, newPage, signedInSuite, signInThroughForm } from './harness';

// Histories and questionnaires through the real app (issue 17 point 3): the physician writes
// a symptom and a medication on the Patient details tab and finds them in the Summary's
// history tables; a patient added through the wizard shows the screening answers given there.

const app = signedInSuite(DEMO.physician, 'dashboard', { SEED_NIGHTS: '1' }, 240_000);

/** A wall-clock time for a datetime-local input, `daysAgo` days before now (read in the patient's zone). */
const wallClock = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 16);

async function openTab(p: Page, code: string, tab: 'details' | 'summary'): Promise<void> {
  await p.goto('/app/patients');
  await p.getByTestId('patient-link').filter({ hasText: code }).click();
  await p.getByTestId('night-page').waitFor();
  await p.getByTestId(`tab-${tab}`).click();
  await p.waitForURL((u) => u.search.includes(`tab=${tab}`));
}

async function addEntry(p: Page, kind: string, when: string, value: string): Promise<void> {
  await p.getByTestId('history-kind').selectOption(kind);
  await p.getByTestId('history-when').fill(when);
  await p.getByTestId('history-value').fill(value);
  await p.getByTestId('history-submit').click();
  await p.getByTestId(`history-${kind}`).getByText(value).waitFor();
}

describe('histories of symptoms, medication and diet plan', () => {
  it('adds a symptom and a medication on the details tab; the Summary lists them for the night', async () => {
    const { page } = app;
    await openTab(page, 'NCT1002', 'details');
    await page.getByTestId('histories').waitFor();
    expect(await page.getByTestId('history-symptom-empty').innerText()).toBe('No entries.');
    // An empty value is refused before anything is sent.
    await page.getByTestId('history-submit').click();
    expect(await page.getByTestId('history-problem').innerText()).toBe('Please enter a value.');

    await addEntry(page, 'symptom', wallClock(1), 'Morning headache');
    await addEntry(page, 'medication', wallClock(3), 'Zolpidem 10 mg at bedtime');
    await addEntry(page, 'medication', wallClock(2), 'Melatonin 2 mg');
    const meds = page.getByTestId('history-medication').getByTestId('history-text');
    expect(await meds.allInnerTexts()).toEqual(['Melatonin 2 mg', 'Zolpidem 10 mg at bedtime']);
    expect(await page.getByTestId('history-symptom').innerText()).toContain('added by Clara Meier');

    // Edit one, remove another after confirming.
    await page.getByTestId('history-medication').getByTestId('history-edit').first().click();
    await page.getByTestId('history-edit-value').fill('Melatonin 3 mg');
    await page.getByTestId('history-save').click();
    await expect.poll(() => meds.allInnerTexts()).toEqual(['Melatonin 3 mg', 'Zolpidem 10 mg at bedtime']);
    await page.getByTestId('history-medication').getByTestId('history-remove').first().click();
    await page.getByTestId('confirm-accept').click();
    await expect.poll(() => meds.allInnerTexts()).toEqual(['Zolpidem 10 mg at bedtime']);

    // The Summary of the latest night (last night) lists both, each with its date.
    await page.getByTestId('tab-summary').click();
    const symptoms = page.getByTestId('summary-history-symptom');
    await symptoms.waitFor();
    expect(await symptoms.innerText()).toContain('Morning headache');
    expect(await symptoms.innerText()).toMatch(/Symptom history[\s\S]*\d{2} \w{3} \d{4}, \d{2}:\d{2}/);
    const medication = page.getByTestId('summary-history-medication');
    expect(await medication.innerText()).toContain('Zolpidem 10 mg at bedtime');
    expect(await medication.innerText()).not.toContain('Melatonin');
    // No diet plan was written: no table for it.
    expect(await page.getByTestId('summary-history-diet_plan').count()).toBe(0);
    expect(app.errors).toEqual([]);
  });

  it('shows the annotator the entries but nothing to change them with', async () => {
    const annotator = await newPage(app.browser, app.base);
    try {
      await annotator.page.goto('/');
      await signInThroughForm(annotator.page, app.base, DEMO.annotator);
      await annotator.page.getByTestId('patients-table').waitFor();
      await openTab(annotator.page, 'NCT1002', 'details');
      await annotator.page.getByTestId('history-symptom').getByText('Morning headache').waitFor();
      expect(await annotator.page.getByTestId('history-add').count()).toBe(0);
      expect(await annotator.page.getByTestId('history-edit').count()).toBe(0);
      expect(await annotator.page.getByTestId('history-remove').count()).toBe(0);
      expect(await annotator.page.getByTestId('checkup-answer-open').count()).toBe(0);
      expect(annotator.errors).toEqual([]);
    } finally {
      await annotator.context.close();
    }
  });
});

describe('questionnaire answers', () => {
  it('shows the screening answers of a patient added through the wizard on the details tab', async () => {
    const { page } = app;
    await page.goto('/app/add-patient');
    await page.getByTestId('wizard-page-1').waitFor();
    const code = 'QNA0001';
    // The generated patient ID arrives, read-only until cleared.
    await page.getByTestId('patient-id-clear').click();
    await page.getByTestId('patient-id').fill(code);
    await page.getByTestId('year-of-birth').selectOption('1965');
    await page.getByTestId('gender').selectOption('M');
    await page.getByTestId('condition-search').fill('hyper');
    await page.getByTestId('condition-option').first().click();
    await page.getByTestId('weight').fill('82');
    await page.getByTestId('height').fill('180');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-page-2').waitFor();
    await page.getByTestId('device-option').first().click();
    for (const [q, a] of [['implant', 'no'], ['pregnant', 'no'], ['underAge', 'no'], ['infoSheet', 'yes']]) await page.getByTestId(`screening-${q}-${a}`).check();
    await page.getByTestId('wizard-confirm').click();
    await page.getByTestId('deployed-ok').click();

    await openTab(page, code, 'details');
    const screening = page.getByTestId('questionnaire-screening');
    await screening.waitFor();
    const textOf = await screening.innerText();
    expect(textOf).toMatch(/Device screening \(NCT\d+\)/);
    expect(textOf).toContain('Answered by Clara Meier');
    expect(textOf).toMatch(/implanted active device[^\n]*\n?\s*No/);
    expect(textOf).toMatch(/Patient Information Sheet[^\n]*\n?\s*Yes/);

    // A check-up questionnaire: complete a check-up, then answer it here.
    await page.getByTestId('checkups-toggle').click();
    const date = await page.getByTestId('checkup-date').getAttribute('min');
    await page.getByTestId('checkup-date').fill(date!);
    await page.getByTestId('checkup-add').click();
    await page.getByTestId(`checkup-${date}`).click();
    await page.getByTestId('checkups-past').getByTestId(`checkup-${date}`).waitFor();
    await page.getByTestId('checkup-answer-open').click();
    await page.getByTestId('checkup-form-pick').waitFor();
    await page.getByTestId('checkup-form-save').click();
    await page.getByText('Answer every question.').waitFor();
    for (const [q, a] of [['sleepQuality', 'poor'], ['daytimeSleepiness', 'yes'], ['medicationChanged', 'no'], ['deviceProblems', 'no']]) await page.getByTestId(`checkup-q-${q}-${a}`).check();
    await page.getByTestId('checkup-q-note').fill('Wakes at 4 am');
    await page.getByTestId('checkup-form-save').click();
    const checkup = page.getByTestId('questionnaire-checkup');
    await checkup.waitFor();
    expect(await checkup.innerText()).toMatch(/Check-up questionnaire, /);
    expect(await checkup.innerText()).toContain('Wakes at 4 am');
    expect(await checkup.innerText()).toMatch(/slept since the last visit\?\s*Poor/);
    expect(app.errors).toEqual([]);
  });
});
