import { describe, expect, it } from 'vitest';
import { DEMO, newPage, signedInSuite, signInThroughForm } from './harness';

// The dashboard and the notification bell through the real app, over the demo seed:
// five patients, three at risk, four devices out for a week, simulated nights to last night.

const app = signedInSuite(DEMO.physician, 'dashboard', { SEED_NIGHTS: '1' });

const tile = async (id: string) => Number(await app.page.getByTestId(id).locator('.stat-value').textContent());

describe('dashboard', () => {
  it('shows the counts and the past night, each night a link to its review', async () => {
    await app.page.getByTestId('dashboard-widgets').waitFor();
    expect(await tile('widget-flagged')).toBe(3);
    expect(await tile('widget-deployed')).toBe(4);
    expect(await tile('widget-available')).toBe(2);
    expect(await tile('widget-overdue')).toBe(0);
    const pastNight = await app.page.getByTestId('past-night-list').locator('li').allTextContents();
    for (const code of ['NCT1001', 'NCT1002', 'NCT1003', 'NCT1004']) expect(pastNight.some((r) => r.startsWith(code))).toBe(true);
    await app.page.getByTestId('past-night-list').getByRole('link', { name: 'NCT1002' }).first().click();
    await app.page.waitForURL((u) => /\/app\/patients\/id=\d+$/.test(u.pathname) && u.search.startsWith('?night='));
    await app.page.getByTestId('night-page').waitFor();
    expect(app.errors).toEqual([]);
  });

  it('counts unread notifications; a click marks one read and opens its night', async () => {
    await app.page.goto('/');
    await app.page.getByTestId('dashboard').waitFor();
    await expect.poll(async () => Number((await app.page.getByTestId('notification-count').textContent()) ?? 0), { timeout: 90_000 }).toBeGreaterThanOrEqual(13);
    const before = Number(await app.page.getByTestId('notification-count').textContent());
    const unseen = await tile('widget-unseen');
    await app.page.getByTestId('notification-bell').click();
    const item = app.page.getByTestId('notification-item').filter({ hasText: 'NCT1002' }).first();
    expect(await item.textContent()).toMatch(/NCT1002 · \d\d \w{3} \d{4} · \d+ apneas and hypopneas/);
    await item.click();
    await app.page.waitForURL((u) => u.search.startsWith('?night='));
    await app.page.getByTestId('night-page').waitFor();
    await expect.poll(async () => Number(await app.page.getByTestId('notification-count').textContent())).toBe(before - 1);
    await app.page.goto('/');
    await app.page.getByTestId('dashboard-widgets').waitFor();
    await expect.poll(() => tile('widget-unseen')).toBe(unseen - 1);
    await app.page.getByTestId('notification-bell').click();
    expect(await app.page.getByTestId('notification-item').filter({ hasText: 'NCT1002' }).first().getAttribute('data-read')).toBe('1');
    await app.page.keyboard.press('Escape');
    expect(await app.page.getByTestId('notification-panel').count()).toBe(0);
    expect(app.errors).toEqual([]);
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
