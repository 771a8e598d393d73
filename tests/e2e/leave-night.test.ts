import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Request, Route } from 'playwright-core';
import { DEMO, openPatient, signedInSuite } from './harness';

// Leaving a night while its channels are still downloading aborts those downloads (issue 34
// point 3): the browser's requests end as aborted, nothing keeps reading megabytes for a
// screen that is gone. The server's side (it stops computing for a client that left) is a
// server test (recordings.test.ts).

const suite = signedInSuite(DEMO.physician, 'dashboard', { SEED_NIGHTS: '1' });
let browser: Browser;
let page: Page;
let errors: string[];
beforeAll(() => ({ browser, page, errors } = suite));

const CHANNEL_CALLS = /\/api\/v1\/analytics\/patient\/channel-(data|overview)\?/;

describe('leaving a night mid-download', () => {
  it('aborts the night’s channel downloads when the user goes to another screen', async () => {
    expect(browser).toBeTruthy();
    // The channel answers are held at the browser's edge, so they are surely still on their way when the user leaves.
    const held: Route[] = [];
    await page.route(CHANNEL_CALLS, (route) => void held.push(route));
    const started: Request[] = [];
    const aborted: string[] = [];
    page.on('request', (r) => CHANNEL_CALLS.test(r.url()) && started.push(r));
    page.on('requestfailed', (r) => CHANNEL_CALLS.test(r.url()) && aborted.push(`${r.url()} ${r.failure()?.errorText ?? ''}`));

    await openPatient(page, 'NCT1001');
    await expect.poll(() => started.filter((r) => r.url().includes('channel-data')).length, { timeout: 30_000 }).toBeGreaterThan(0);
    const pending = started.length;
    await page.getByTestId('nav-patients').click();
    await page.getByTestId('patients-table').waitFor();

    // Every channel call made for the night ends aborted, none left hanging.
    await expect.poll(() => aborted.length, { timeout: 15_000 }).toBe(started.length);
    expect(started.length).toBeGreaterThanOrEqual(pending);
    expect(aborted.every((line) => line.includes('ERR_ABORTED'))).toBe(true);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    expect(held.length).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });
});
