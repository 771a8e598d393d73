import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chartsSettled, DEMO, newPage, openPatient, ownAppAndBrowser, signInThroughForm } from './harness';

// Double scoring (issue 36 point 2) as the three people do it in Chromium: the physician assigns a
// night to the two demo annotators; each scores it blind (a mark with the scoring key in the
// browser, the rest through the same call the browser makes) and sees only their own marks; the
// physician opens the agreement (κ and event F1), adjudicates every disagreement, finishes, and the
// Summary's apneas are then the consensus's.

const app = ownAppAndBrowser({ SEED_NIGHTS: '1' });
const PATIENT = 'NCT1003';
const ANNOTATOR_2 = 'annotator2@demo.nocturne.test';
const EPOCH = 30_000;
const poll = <T,>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 30_000 });

interface Shown {
  patientId: number;
  night: number;
  start: number;
}

/** Calls the API as the page's signed-in user, as the browser's own client does. */
function call<T>(page: Page, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const key = Object.keys(localStorage).find((k) => k.includes('session'))!;
      const { token } = JSON.parse(localStorage.getItem(key)!) as { token: string };
      const res = await fetch(`/api/v1${path}`, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await res.json()) as { data: unknown };
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json.data as T;
    },
    { method, path, body },
  );
}

/** The night on screen: patient, night key and start, from the URL and the call the page makes. */
async function shown(page: Page): Promise<Shown> {
  const patientId = Number(/id=(\d+)/.exec(new URL(page.url()).pathname)![1]);
  const { nights } = await call<{ nights: Array<{ night: number; recording_start_time: number }> }>(page, 'GET', `/patient/available-nights?patient_id=${patientId}`);
  const wanted = Number(new URL(page.url()).searchParams.get('night'));
  const n = nights.find((x) => x.night === wanted) ?? nights.reduce((a, b) => (b.night > a.night ? b : a));
  return { patientId, night: n.night, start: n.recording_start_time };
}

/** A mark through the browser's own call: `epoch` 30-s epochs after the night's start. */
async function mark(page: Page, s: Shown, epoch: number, label: number): Promise<void> {
  await call(page, 'POST', '/analytics/patient/new-annotations', { patient_id: s.patientId, night: s.night, kpi: ['BR'], start_time: s.start + epoch * EPOCH, duration: '00:00:30', label, color_code: '#DA7171', comment: '' });
}

async function listed(page: Page, s: Shown): Promise<Array<{ start_ms: number; created_by: number; type: string; label: number }>> {
  const data = await call<{ annotations: Array<{ start_ms: number; created_by: number; type: string; label: number }> }>(page, 'POST', '/analytics/patient/get-annotations', { patient_id: s.patientId, night: s.night });
  return data.annotations.filter((a) => a.type !== 'device');
}

async function openPanel(page: Page): Promise<void> {
  await page.getByTestId('tab-overview').click();
  const panel = page.getByTestId('double-scoring');
  await panel.waitFor();
  if ((await panel.getAttribute('open')) === null) await panel.locator('summary').click();
}

async function signedIn(email: string) {
  const p = await newPage(app.browser, app.url);
  await p.page.goto('/');
  await signInThroughForm(p.page, app.url, email);
  return p;
}

describe('double scoring', () => {
  it('two annotators score blind, the physician sees their agreement, adjudicates, and the consensus is what the Summary counts', async () => {
    const physician = await signedIn(DEMO.physician);
    const one = await signedIn(DEMO.annotator);
    const two = await signedIn(ANNOTATOR_2);
    try {
      // The physician's stage categories, then the assignment through the panel.
      await openPatient(physician.page, PATIENT);
      const night = await shown(physician.page);
      const stage = async (label: string, color: string) =>
        (await call<{ label: { label_id: number } }>(physician.page, 'POST', '/patient/add-label', { patient_id: night.patientId, label, color_code: color })).label.label_id;
      const n2 = await stage('N2', '#3366CC');
      const rem = await stage('REM', '#9933CC');
      const wake = await stage('Wake', '#CCCC33');
      await openPanel(physician.page);
      const boxes = physician.page.getByTestId('scoring-assign').locator('fieldset input[type=checkbox]');
      await poll(() => boxes.count()).toBe(2);
      await boxes.nth(0).check();
      await boxes.nth(1).check();
      await physician.page.getByTestId('scoring-assign-submit').click();
      await poll(() => physician.page.getByTestId('scoring-status').innerText()).toBe('Being scored');

      // Annotator one finds the night on their Scoring page, scores the first epoch on screen with key 1 (Apnea) in the browser, two more apneas and four stages.
      await one.page.getByTestId('nav-scoring').click();
      await one.page.getByTestId('scoring-open-night').first().click();
      await one.page.getByTestId('night-page').waitFor();
      await one.page.getByTestId('scoring-blind').waitFor();
      const apnea = 1;
      await one.page.getByTestId('range-preset').selectOption('30s');
      // The 30-s epoch drawn before the key (on a loaded machine a key pressed while the night
      // was still loading scored nothing, as it would for a person pressing it that early).
      await chartsSettled(one.page);
      await one.page.getByTestId('focus-BR').click();
      await one.page.keyboard.press('1');
      await poll(async () => (await listed(one.page, night)).length).toBe(1);
      const [keyed] = await listed(one.page, night);
      expect(keyed!.label).toBe(apnea);
      for (const e of [240, 360]) await mark(one.page, night, e, apnea);
      for (const [e, l] of [[600, n2], [601, n2], [602, rem], [603, wake]] as const) await mark(one.page, night, e, l);
      // Annotator two: the same apnea as one's first, 480 of their own; stages differing on 601.
      await openPatient(two.page, PATIENT);
      await two.page.getByTestId('scoring-blind').waitFor();
      await call(two.page, 'POST', '/analytics/patient/new-annotations', { patient_id: night.patientId, night: night.night, kpi: ['BR'], start_time: keyed!.start_ms, duration: '00:00:30', label: apnea, color_code: '#DA7171', comment: '' });
      await mark(two.page, night, 480, apnea);
      for (const [e, l] of [[600, n2], [601, rem], [602, rem], [603, wake]] as const) await mark(two.page, night, e, l);

      // Blind: each lists only their own marks; the physician sees neither set.
      const oneId = (await listed(one.page, night)).map((a) => a.created_by);
      expect(new Set(oneId).size).toBe(1);
      expect(oneId.length).toBe(7);
      expect((await listed(two.page, night)).length).toBe(6);
      expect((await listed(physician.page, night)).filter((a) => a.type === 'custom').length).toBe(0);

      // Both submit from the panel: the first then waits, still blind; the second's submission opens the agreement.
      await openPanel(one.page);
      one.page.once('dialog', (d) => void d.accept());
      await one.page.getByTestId('scoring-submit').click();
      await one.page.getByTestId('scoring-waiting').waitFor();
      expect(await one.page.getByTestId('scoring-submit').count()).toBe(0);
      expect(await one.page.getByTestId('scoring-blind').count()).toBe(1);
      await openPanel(two.page);
      two.page.once('dialog', (d) => void d.accept());
      await two.page.getByTestId('scoring-submit').click();
      await poll(() => two.page.getByTestId('scoring-status').innerText()).toBe('To adjudicate');
      await two.page.getByTestId('agreement').waitFor();
      expect(await two.page.getByTestId('scoring-blind').count()).toBe(0);
      expect(await two.page.getByTestId('adjudication').count()).toBe(0);

      // The agreement, as a unit test computes it by hand: apnea 3 vs 2 marks, 1 matched → F1 0.40;
      // stages over 4 epochs, 3 the same → 75 %, κ 0.64.
      // The physician finds the night waiting for them under Scoring.
      await physician.page.getByTestId('nav-scoring').click();
      const row = physician.page.getByTestId('scoring-assignments').locator('tbody tr').first();
      await poll(() => row.getByTestId('scoring-assignment-state').innerText()).toBe('Ready to adjudicate');
      await row.getByTestId('scoring-open-night').click();
      await physician.page.getByTestId('night-page').waitFor();
      await openPanel(physician.page);
      await physician.page.getByTestId('agreement').waitFor();
      const { round } = await call<{ round: { scorers: Array<{ key: string }> } }>(physician.page, 'GET', `/scoring/rounds?patient_id=${night.patientId}&night=${night.night}`);
      const [ka, kb] = round.scorers.map((x) => x.key);
      const pairRow = (kind: string) => physician.page.locator(`[data-testid="agreement-${kind}-${ka}-${kb}"], [data-testid="agreement-${kind}-${kb}-${ka}"]`).first();
      expect(await pairRow('event-apnea').getByTestId('agreement-f1').innerText()).toBe('0.40');
      expect(await pairRow('stage').getByTestId('agreement-kappa').innerText()).toBe('0.64');
      expect(await pairRow('stage').innerText()).toContain('75.0 %');

      // Four disagreements: epochs 240 and 360 (one's), 480 (two's), the stage of 601.
      const progress = physician.page.getByTestId('adjudication-progress');
      await poll(() => progress.innerText()).toContain('0 of 4');
      const decide = async (testId: string) => {
        const before = await progress.innerText();
        await physician.page.getByTestId(testId).first().click();
        await poll(() => progress.innerText()).not.toBe(before);
      };
      const items = physician.page.getByTestId('adjudication-item');
      const item = async () => (await items.getAttribute('data-item')) ?? '';
      const seen: string[] = [];
      for (let i = 0; i < 4; i++) {
        const key = await item();
        seen.push(key);
        const startMs = Number(key.split(':').at(-1));
        const epoch = Math.round((startMs - night.start) / EPOCH);
        // 240: one's apnea is taken; 360: none; 480: two's; 601: REM (two's).
        const scorers = await items.locator('[data-testid^=adjudication-take-]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!));
        if (epoch === 360) await decide('adjudication-none');
        else if (epoch === 240) await decide(scorers[0]!);
        else await decide(scorers[1]!);
        if (i < 3) await poll(item).not.toBe(key);
      }
      expect(new Set(seen).size).toBe(4);
      await poll(() => progress.innerText()).toContain('4 of 4');
      await physician.page.getByTestId('adjudication-finish').click();
      await poll(() => physician.page.getByTestId('scoring-status').innerText()).toBe('Consensus');
      await physician.page.getByTestId('scoring-consensus').waitFor();
      // No dead end: the night can be given to scorers again (the next consensus would replace this one).
      await physician.page.getByTestId('scoring-again').locator('summary').click();
      expect(await physician.page.getByTestId('scoring-again').locator('fieldset input[type=checkbox]').count()).toBe(2);

      // The consensus is the night's marks of record and the Summary counts its apneas: the first, 240 and 480.
      await physician.page.getByTestId('tab-summary').click();
      await physician.page.getByTestId('summary-panel').waitFor();
      const ahiTable = physician.page.getByTestId('summary-ahi');
      await poll(() => ahiTable.innerText()).toContain('double scoring');
      const apneas = ahiTable.locator('tr', { hasText: 'Apneas' }).locator('td');
      expect((await apneas.innerText()).trim()).toBe('3');
      // Of record: the 3 apneas and the stages N2, REM (601–602, one mark), Wake.
      const record = await listed(physician.page, night);
      expect(record.filter((a) => a.type === 'custom').length).toBe(3 + 3);
      expect(physician.errors).toEqual([]);
      expect(one.errors).toEqual([]);
      expect(two.errors).toEqual([]);
    } finally {
      await physician.context.close();
      await one.context.close();
      await two.context.close();
    }
  });
});
