import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/auth/passwords';
import { DEMO, DEMO_PASSWORD, newPage, signedInSuite, signInThroughForm } from './harness';

// Screens that wait end in data, an empty state or an error, never "Loading…" for ever (issue
// 14, point 5). Without simulated nights (the harness default) the demo patients have no
// recordings; a physician added beside the demo clinic has an empty practice. The server runs
// on the test PostgreSQL, in a schema of its own, so the test can add that physician.
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `e2e_${randomBytes(5).toString('hex')}`;
const EMPTY = { email: `empty.${schema}@test.nocturne.test`, password: DEMO_PASSWORD };

const sql = async (text: string, params: unknown[] = []) => {
  const c = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
  await c.connect();
  try {
    return (await c.query(text, params)).rows;
  } finally {
    await c.end();
  }
};

beforeAll(async () => {
  await sql(`create schema ${schema}`);
});
afterAll(async () => {
  await sql(`drop schema ${schema} cascade`);
});

const suite = signedInSuite(DEMO.physician, 'dashboard', { DATABASE_URL: `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}` });
beforeAll(() => trackRequests(suite.page));

/** Requests of each tracked page in flight, and when one last started or ended. */
const traffic = new WeakMap<Page, { inFlight: Set<Request>; changedAt: number }>();
/** No request started or ended for this long: the network is idle (Playwright's networkidle). */
const QUIET_MS = 500;

/** Follows the page's requests from now on (settled waits until none is in flight). */
function trackRequests(page: Page): void {
  const t = { inFlight: new Set<Request>(), changedAt: Date.now() };
  traffic.set(page, t);
  page.on('request', (r) => {
    t.inFlight.add(r);
    t.changedAt = Date.now();
  });
  const ended = (r: Request) => {
    if (t.inFlight.delete(r)) t.changedAt = Date.now();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
}

/** Waits until no request is in flight and the network is idle (a stuck query never lets it), then nothing may still be loading. */
async function settled(page: Page): Promise<void> {
  const t = traffic.get(page);
  if (!t) throw new Error('settled: trackRequests(page) when the page is made');
  await expect.poll(() => t.inFlight.size === 0 && Date.now() - t.changedAt >= QUIET_MS, { timeout: 20_000, interval: 50, message: 'a request still in flight' }).toBe(true);
  expect(await page.locator('.loading').count()).toBe(0);
  expect(await page.getByText(/Loading…/).count()).toBe(0);
}

async function openNoNightPatient(page: Page): Promise<void> {
  await page.goto('/app/patients');
  await page.getByTestId('patient-link').filter({ hasText: 'NCT1001' }).click();
  await page.getByTestId('night-page').waitFor();
}

/** Every screen of a patient without nights: night view, summary, trend, details; no report, downloads or annotations offered. */
async function walkPatientWithoutNights(page: Page): Promise<void> {
  await openNoNightPatient(page);
  await page.getByTestId('no-nights').waitFor();
  expect(await page.getByTestId('generate-report').count()).toBe(0);
  expect(await page.getByTestId('night-downloads').count()).toBe(0);
  expect(await page.getByTestId('annotation-sidebar').count()).toBe(0);
  await settled(page);
  await page.getByTestId('tab-summary').click();
  await page.getByTestId('no-summary').waitFor();
  await settled(page);
  await page.getByTestId('tab-overview').click();
  await page.getByTestId('mode-trend').click();
  await page.getByTestId('trend-no-nights').waitFor();
  await settled(page);
  await page.getByTestId('tab-details').click();
  await page.getByTestId('patient-details').waitFor();
  await settled(page);
}

describe('a patient with no nights', () => {
  it('the physician sees the night view, summary, trend and details end in an empty state', async () => {
    await walkPatientWithoutNights(suite.page);
    expect(suite.errors).toEqual([]);
  });

  it('so does the annotator', async () => {
    const annotator = await newPage(suite.browser, suite.base);
    trackRequests(annotator.page);
    try {
      await annotator.page.goto('/');
      await signInThroughForm(annotator.page, suite.base, DEMO.annotator);
      await annotator.page.getByTestId('patients-table').waitFor();
      await walkPatientWithoutNights(annotator.page);
      expect(annotator.errors).toEqual([]);
    } finally {
      await annotator.context.close();
    }
  });

  it('the dashboard triage table lists the patients without a night, nothing left waiting', async () => {
    const { page } = suite;
    await page.goto('/');
    await page.getByTestId('triage-table').waitFor();
    expect(await page.getByTestId('triage-row').count()).toBe(5);
    expect(await page.getByTestId('triage-night').allInnerTexts()).toEqual(Array(5).fill('No night yet'));
    expect(await page.getByTestId('triage-pending').count()).toBe(0);
    await settled(page);
  });
});

describe('an empty practice', () => {
  it('dashboard, patient list and data center end in their empty states', async () => {
    await sql(`insert into users (email, password_hash, first_name, last_name, country, role) values ($1, $2, 'Ema', 'Empty', 'Switzerland', 'physician')`, [
      EMPTY.email,
      await hashPassword(EMPTY.password),
    ]);
    const { context, page, errors } = await newPage(suite.browser, suite.base);
    trackRequests(page);
    try {
      await page.goto('/');
      await signInThroughForm(page, suite.base, EMPTY.email, EMPTY.password);
      await page.getByTestId('dashboard-widgets').waitFor();
      await page.getByTestId('triage-empty').waitFor();
      expect(await page.getByTestId('widget-flagged').locator('.stat-value').innerText()).toBe('0');
      await settled(page);
      await page.goto('/app/patients');
      await page.getByTestId('patients-empty').waitFor();
      await settled(page);
      await page.goto('/app/datacenter');
      await page.getByTestId('datacenter-empty').waitFor();
      await settled(page);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
