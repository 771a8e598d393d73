import { describe, expect, it } from 'vitest';
import { DEMO, signedInSuite } from './harness';

// Screens that wait end in data, an empty state or an error (issue 14, point 5): without
// simulated nights (the harness default) the demo patients have no recordings.
const suite = signedInSuite(DEMO.physician, 'dashboard');

describe('a patient with no nights', () => {
  it('the trend view says so instead of "Loading…" for ever', async () => {
    const { page } = suite;
    await page.goto('/app/patients');
    await page.getByTestId('patient-link').filter({ hasText: 'NCT1001' }).click();
    await page.getByTestId('night-page').waitFor();
    await page.getByTestId('no-nights').waitFor();
    await page.getByTestId('mode-trend').click();
    await page.getByTestId('trend-no-nights').waitFor();
    // Give a stuck query time to show itself: nothing may still be loading.
    await page.waitForTimeout(2_000);
    expect(await page.locator('.loading[role="status"]').count()).toBe(0);
    expect(suite.errors).toEqual([]);
  });
});
