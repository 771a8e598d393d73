import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO, launchChromium, newPage, signInThroughForm, startAppServer, type AppServer } from './harness';

// The Patient details tab through the real app: conditions, check-ups and comments of a
// demo patient, as the physician writes them and the annotator reads them.

let server: AppServer | null = null;
let base = '';
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];

beforeAll(async () => {
  if (process.env.NOCTURNE_E2E_URL) base = process.env.NOCTURNE_E2E_URL;
  else {
    server = await startAppServer();
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

/** Opens a demo patient's Patient details tab. */
async function openDetails(p: Page, code: string): Promise<void> {
  await p.goto('/app/patients');
  await p.getByTestId('patient-link').filter({ hasText: code }).click();
  await p.getByTestId('night-page').waitFor();
  await p.getByTestId('tab-details').click();
  await p.waitForURL((u) => u.search.includes('tab=details'));
  await p.getByTestId('patient-details').waitFor();
}

const chips = () => page.getByTestId('conditions').locator('.condition-chip');
const comments = () => page.getByTestId('comment-text');

describe('patient details tab', () => {
  it('adds and removes conditions; None replaces the others; the last one stays', async () => {
    await openDetails(page, 'NCT1002');
    const before = await chips().count();
    expect(before).toBeGreaterThan(0);
    await page.getByTestId('condition-search').fill('insom');
    await page.locator('[data-testid^="condition-add-"]').first().click();
    await expect.poll(() => chips().count()).toBe(before + 1);
    // None removes every other condition; then it cannot be removed (the last one).
    await page.getByTestId('condition-search').fill('none');
    await page.getByTestId('condition-add-1').click();
    await expect.poll(() => chips().count()).toBe(1);
    await page.getByTestId('condition-1').waitFor();
    expect(await page.getByTestId('condition-remove-1').isDisabled()).toBe(true);
    // Another condition replaces None.
    await page.getByTestId('condition-search').fill('insom');
    await page.locator('[data-testid^="condition-add-"]').first().click();
    await expect.poll(() => page.getByTestId('condition-1').count()).toBe(0);
    expect(await chips().count()).toBe(1);
  });

  it('shows check-ups on demand, adds one, refuses a taken date, and completes it', async () => {
    expect(await page.getByTestId('checkup-date').count()).toBe(0);
    await page.getByTestId('checkups-toggle').click();
    const date = await page.getByTestId('checkup-date').getAttribute('min');
    await page.getByTestId('checkup-date').fill(date!);
    await page.getByTestId('checkup-add').click();
    await page.getByTestId('checkups-upcoming').getByTestId(`checkup-${date}`).waitFor();
    await page.getByTestId('checkup-date').fill(date!);
    await page.getByTestId('checkup-add').click();
    expect(await page.getByTestId('checkup-problem').textContent()).toBe('That date already has a check-up.');
    await page.getByTestId(`checkup-${date}`).click();
    await page.getByTestId('checkups-past').getByTestId(`checkup-${date}`).waitFor();
    expect(await page.getByTestId('checkups-upcoming').textContent()).toContain('No upcoming check-ups.');
  });

  it('adds comments with Enter, pages them, edits and deletes one after confirming', async () => {
    expect(await page.getByTestId('comments-empty').textContent()).toBe('No comments yet.');
    for (let i = 1; i <= 11; i++) {
      await page.getByTestId('comment-input').fill(`Night note ${i}: it's fine \\ mostly`);
      await page.getByTestId('comment-input').press('Enter');
      await expect.poll(() => comments().first().textContent()).toBe(`Night note ${i}: it's fine \\ mostly`);
    }
    expect(await page.getByTestId('comment-added').textContent()).toBe('Comment added successfully');
    // Ten a page, newest first; the eleventh is on page 2.
    expect(await comments().count()).toBe(10);
    expect(await page.getByTestId('comment-page').textContent()).toBe('Page 1 of 2');
    await page.getByTestId('comment-next').click();
    expect(await comments().allTextContents()).toEqual(["Night note 1: it's fine \\ mostly"]);
    await page.getByTestId('comment-page-size').selectOption('20');
    expect(await comments().count()).toBe(11);
    // Shift+Enter is a new line, not a submit.
    await page.getByTestId('comment-input').fill('first line');
    await page.getByTestId('comment-input').press('Shift+Enter');
    expect(await page.getByTestId('comment-input').inputValue()).toBe('first line\n');
    await page.getByTestId('comment-input').fill('');

    await page.getByTestId('comment-edit').first().click();
    await page.getByTestId('comment-edit-input').fill('Night note 11: corrected');
    await page.getByTestId('comment-save').click();
    await expect.poll(() => comments().first().textContent()).toBe('Night note 11: corrected');
    await page.getByTestId('comment-delete').first().click();
    expect(await page.getByTestId('confirm-dialog').textContent()).toContain('Are you sure you want to delete this comment?');
    await page.getByTestId('confirm-accept').click();
    await expect.poll(() => comments().count()).toBe(10);
    expect(await comments().first().textContent()).toBe("Night note 10: it's fine \\ mostly");
    expect(errors).toEqual([]);
  });

  it('is read-only for the annotator', async () => {
    const annotator = await newPage(browser, base);
    try {
      await annotator.page.goto('/');
      await signInThroughForm(annotator.page, base, DEMO.annotator);
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
