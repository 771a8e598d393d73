import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO, findLongNight, signedInSuite, type LongNight } from './harness';

// Issue 36 point 1 through the real app, server and Chromium: a 10-h night with 3,000
// annotations across categories and channels opens with its list windowed (only the rows in
// view are in the page, also after scrolling to the end), and the list filters by category,
// channel, source and author, each agreeing with the server's list.

const suite = signedInSuite(DEMO.physician, 'dashboard', { SEED_NIGHTS: '1' }, 240_000);
const MANY = 3000;
let page: Page;
let night: LongNight;

interface Listed {
  annotation_map_id: number;
  label: number;
  type: string;
  kpiList: string[];
  created_by: number;
}

/** An API call with the page's session token (no named functions inside: tsx would wrap them). */
function api<T>(p: Page, url: string, body: object): Promise<T> {
  return p.evaluate(
    async ({ url, body }) => {
      const key = Object.keys(localStorage).find((k) => k.includes('session'))!;
      const { token } = JSON.parse(localStorage.getItem(key)!) as { token: string };
      const res = await fetch(`/api/v1${url}`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: T }).data;
    },
    { url, body },
  );
}

const listed = (n: LongNight) => api<{ annotations: Listed[] }>(page, '/analytics/patient/get-annotations', { patient_id: n.patientId, night: n.night }).then((d) => d.annotations);
const domRows = () => page.locator('[data-testid="annotation-list"] [role="listitem"]').count();
const listCount = async () => Number(await page.getByTestId('annotation-list').getAttribute('data-count'));

beforeAll(async () => {
  page = suite.page;
  page.setDefaultTimeout(120_000);
  night = await findLongNight(page);
  const { labels } = await api<{ labels: { label_id: number }[] }>(page, '/patient/get-label-list', { patient_id: night.patientId });
  const { nights } = await page.evaluate(async (id) => {
    const key = Object.keys(localStorage).find((k) => k.includes('session'))!;
    const { token } = JSON.parse(localStorage.getItem(key)!) as { token: string };
    return ((await (await fetch(`/api/v1/patient/available-nights?patient_id=${id}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { data: { nights: { night: number; recording_start_time: number; channels: { code: string }[] }[] } }).data;
  }, night.patientId);
  const n = nights.find((x) => x.night === night.night)!;
  const codes = n.channels.map((c) => c.code).filter((c) => c !== 'I' && c !== 'Q');
  const slotMs = ((night.hours * 3600 - 120) * 1000) / MANY;
  for (let b = 0; b < MANY; b += 500) {
    const annotations = Array.from({ length: 500 }, (_, k) => {
      const i = b + k;
      return { kpi: [codes[i % codes.length]], start_time: Math.round(n.recording_start_time + 60_000 + ((i * 7919) % MANY) * slotMs), duration: '10', label: labels[i % labels.length].label_id };
    });
    await api(page, '/analytics/patient/new-annotations', { patient_id: night.patientId, night: night.night, annotations });
  }
}, 240_000);

describe('a night of thousands of annotations', () => {
  it('lists them windowed, and filters by category, channel, source and author', async () => {
    const all = await listed(night);
    expect(all.length).toBeGreaterThanOrEqual(MANY);
    await page.goto(`/app/patients/id=${night.patientId}?night=${night.night}`);
    await expect.poll(() => page.getByTestId('annotations-count-custom').innerText(), { timeout: 120_000 }).toBe(String(all.filter((a) => a.type === 'custom').length));
    const visible = all.filter((a) => a.type !== 'device');
    expect(await listCount()).toBe(visible.length);
    // Thousands listed, a window of rows in the page.
    expect(await domRows()).toBeGreaterThan(3);
    expect(await domRows()).toBeLessThan(60);

    const label = all[1].label;
    await page.getByTestId('annotations-filter-category').selectOption(String(label));
    const byLabel = visible.filter((a) => a.label === label);
    await expect.poll(listCount).toBe(byLabel.length);
    const code = byLabel[0].kpiList[0];
    await page.getByTestId('annotations-filter-channel').selectOption(code);
    const byChannel = byLabel.filter((a) => a.kpiList.includes(code));
    await expect.poll(listCount).toBe(byChannel.length);
    await page.getByTestId('annotations-filter-source').selectOption('human');
    const human = byChannel.filter((a) => a.type === 'custom');
    await expect.poll(listCount).toBe(human.length);
    const author = human[0].created_by;
    await page.getByTestId('annotations-filter-author').selectOption(String(author));
    const mine = human.filter((a) => a.created_by === author);
    await expect.poll(listCount).toBe(mine.length);
    expect(mine.length).toBeGreaterThan(100);

    // Scrolled to its end, the list still holds a window of rows, ending with the last one.
    await page.getByTestId('annotation-list').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect.poll(() => page.locator('[data-testid="annotation-row"]').last().getAttribute('data-id')).toBe(String(mine.at(-1)!.annotation_map_id));
    expect(await domRows()).toBeLessThan(60);

    // Back to every annotation.
    for (const f of ['category', 'channel', 'source', 'author']) await page.getByTestId(`annotations-filter-${f}`).selectOption('');
    await expect.poll(listCount).toBe(visible.length);
  });
});
