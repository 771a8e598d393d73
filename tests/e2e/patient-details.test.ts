import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO, newPage, signedInSuite, signInThroughForm } from './harness';

// The Patient details tab through the real app: conditions, check-ups and comments of a
// demo patient, as the physician writes them and the annotator reads them.

const app = signedInSuite(DEMO.physician, 'dashboard');

/** Opens a demo patient's Patient details tab. */
async function openDetails(p: Page, code: string): Promise<void> {
  await p.goto('/app/patients');
  await p.getByTestId('patient-link').filter({ hasText: code }).click();
  await p.getByTestId('night-page').waitFor();
  await p.getByTestId('tab-details').click();
  await p.waitForURL((u) => u.search.includes('tab=details'));
  await p.getByTestId('patient-details').waitFor();
}

const chips = () => app.page.getByTestId('conditions').locator('.condition-chip');
const comments = () => app.page.getByTestId('comment-text');

describe('patient details tab', () => {
  it('adds and removes conditions; None replaces the others; the last one stays', async () => {
    await openDetails(app.page, 'NCT1002');
    const before = await chips().count();
    expect(before).toBeGreaterThan(0);
    await app.page.getByTestId('condition-search').fill('insom');
    await app.page.locator('[data-testid^="condition-add-"]').first().click();
    await expect.poll(() => chips().count()).toBe(before + 1);
    // None removes every other condition; then it cannot be removed (the last one).
    await app.page.getByTestId('condition-search').fill('none');
    await app.page.getByTestId('condition-add-1').click();
    await expect.poll(() => chips().count()).toBe(1);
    await app.page.getByTestId('condition-1').waitFor();
    expect(await app.page.getByTestId('condition-remove-1').isDisabled()).toBe(true);
    // Another condition replaces None.
    await app.page.getByTestId('condition-search').fill('insom');
    await app.page.locator('[data-testid^="condition-add-"]').first().click();
    await expect.poll(() => app.page.getByTestId('condition-1').count()).toBe(0);
    expect(await chips().count()).toBe(1);
  });

  it('shows check-ups on demand, adds one, refuses a taken date, and completes it', async () => {
    expect(await app.page.getByTestId('checkup-date').count()).toBe(0);
    await app.page.getByTestId('checkups-toggle').click();
    const date = await app.page.getByTestId('checkup-date').getAttribute('min');
    await app.page.getByTestId('checkup-date').fill(date!);
    await app.page.getByTestId('checkup-add').click();
    await app.page.getByTestId('checkups-upcoming').getByTestId(`checkup-${date}`).waitFor();
    await app.page.getByTestId('checkup-date').fill(date!);
    await app.page.getByTestId('checkup-add').click();
    expect(await app.page.getByTestId('checkup-problem').textContent()).toBe('That date already has a check-up.');
    await app.page.getByTestId(`checkup-${date}`).click();
    await app.page.getByTestId('checkups-past').getByTestId(`checkup-${date}`).waitFor();
    expect(await app.page.getByTestId('checkups-upcoming').textContent()).toContain('No upcoming check-ups.');
  });

  it('adds comments with Enter, pages them, edits and deletes one after confirming', async () => {
    expect(await app.page.getByTestId('comments-empty').textContent()).toBe('No comments yet.');
    for (let i = 1; i <= 11; i++) {
      await app.page.getByTestId('comment-input').fill(`Night note ${i}: it's fine \\ mostly`);
      await app.page.getByTestId('comment-input').press('Enter');
      await expect.poll(() => comments().first().textContent()).toBe(`Night note ${i}: it's fine \\ mostly`);
    }
    expect(await app.page.getByTestId('comment-added').textContent()).toBe('Comment added successfully');
    // Ten a app.page, newest first; the eleventh is on app.page 2.
    expect(await comments().count()).toBe(10);
    expect(await app.page.getByTestId('comment-page').textContent()).toBe('Page 1 of 2');
    await app.page.getByTestId('comment-next').click();
    expect(await comments().allTextContents()).toEqual(["Night note 1: it's fine \\ mostly"]);
    await app.page.getByTestId('comment-page-size').selectOption('20');
    expect(await comments().count()).toBe(11);
    // Shift+Enter is a new line, not a submit.
    await app.page.getByTestId('comment-input').fill('first line');
    await app.page.getByTestId('comment-input').press('Shift+Enter');
    expect(await app.page.getByTestId('comment-input').inputValue()).toBe('first line\n');
    await app.page.getByTestId('comment-input').fill('');

    await app.page.getByTestId('comment-edit').first().click();
    await app.page.getByTestId('comment-edit-input').fill('Night note 11: corrected');
    await app.page.getByTestId('comment-save').click();
    await expect.poll(() => comments().first().textContent()).toBe('Night note 11: corrected');
    await app.page.getByTestId('comment-delete').first().click();
    expect(await app.page.getByTestId('confirm-dialog').textContent()).toContain('Are you sure you want to delete this comment?');
    await app.page.getByTestId('confirm-accept').click();
    await expect.poll(() => comments().count()).toBe(10);
    expect(await comments().first().textContent()).toBe("Night note 10: it's fine \\ mostly");
    expect(app.errors).toEqual([]);
  });

  it('is read-only for the annotator', async () => {
    const annotator = await newPage(app.browser, app.base);
    try {
      await annotator.page.goto('/');
      await signInThroughForm(annotator.page, app.base, DEMO.annotator);
      // Annotators land on the patient list.
      await annotator.page.getByTestId('patients-table').waitFor();
      await openDetails(annotator.page, 'NCT1002');
      await expect.poll(() => annotator.page.getByTestId('comment-text').count()).toBe(10);
      expect(await annotator.page.getByTestId('comment-input').count()).toBe(0);
      expect(await annotator.page.getByTestId('comment-edit').count()).toBe(0);
      expect(await annotator.page.getByTestId('condition-search').count()).toBe(0);
      expect(await annotator.page.locator('[data-testid^="condition-remove-"]').count()).toBe(0);
      expect(annotator.errors).toEqual([]);
    } finally {
      await annotator.context.close();
    }
  });
});
