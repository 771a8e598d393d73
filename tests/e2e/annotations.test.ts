import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chartsSettled, DEMO, downloadBytes, importThroughScreen, launchChromium, newPage, openPatient, REAL_FIXTURES as REAL, signInThroughForm, startAppServer, physicianOnPatientWithoutNights, type AppServer } from './harness';

// Issue 4's upload on the patient screen and issue 6's annotations, as people would use them:
// a physician imports a real ResMed night, an annotator annotates it with the mouse and
// the keyboard, the physician sees the result.

let server: AppServer;
let browser: Browser;
let patientUrl = '';

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const count = async (page: Page, kind: 'system' | 'custom' | 'desaturation') => Number(await page.getByTestId(`annotations-count-${kind}`).innerText());
const t0 = async (page: Page) => Number(await page.getByTestId('span-readout').getAttribute('data-t0'));

describe('a physician', () => {
  it('imports a night of EDF files from the patient screen', async () => {
    const { context, page, errors } = await physicianOnPatientWithoutNights(browser, server.url, 'NCT1005');
    patientUrl = new URL(page.url()).pathname;
    await importThroughScreen(page, [path.join(REAL, 'snore_resmed_20250808_010210_BRP.edf'), path.join(REAL, 'snore_resmed_20250808_010203_EVE.edf')]);
    // The result stands above the night it opened, until dismissed (below: after the checks).
    // Channels by their names, not their codes.
    await expect.poll(() => page.getByTestId('import-done').textContent(), { timeout: 30_000 }).toContain('Nasal Cannula');
    expect(await page.getByTestId('import-done').textContent()).not.toContain('NC_PSG');
    const result = page.getByTestId('import-result');
    await page.getByTestId('plot-NC_PSG').waitFor({ timeout: 30_000 });
    expect(await result.isVisible()).toBe(true);
    expect((await result.boundingBox())!.y).toBeLessThan((await page.getByTestId('plot-NC_PSG').boundingBox())!.y);
    // The CPAP's pressure has no meaning here: it stays a channel of its own, named for what it is (decision 1001).
    expect(await page.getByTestId('channel-Press.40ms').innerText()).toBe('Mask pressure (40\u00a0ms)');
    // Every channel with code, label, rate and unit; ResMed's Crc16 checksums listed as not imported.
    const rows = await page.getByTestId('import-channel').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent)));
    // … and the file each code came from.
    expect(rows).toEqual([
      ['NC_PSG', 'Flow.40ms', '25', 'L/s', '0', 'snore_resmed_20250808_010210_BRP.edf'],
      ['Press.40ms', 'Press.40ms', '25', 'cmH2O', '0', 'snore_resmed_20250808_010210_BRP.edf'],
    ]);
    // Files in order of their start: the EVE file starts 7 s before the BRP file.
    expect(await page.getByTestId('import-skipped').textContent()).toBe(
      'Not imported (checksum or status signals): Crc16 (snore_resmed_20250808_010203_EVE.edf), Crc16 (snore_resmed_20250808_010210_BRP.edf)',
    );
    // PSG channels are off by default (spec 2 §4), but this night has no other: rather than an
    // empty ODI chart alone, the night opens on the channels with data (the flow), drawn.
    await page.getByTestId('plot-NC_PSG').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('channel-NC_PSG').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('channel-ODI').getAttribute('aria-pressed')).toBe('false');
    expect(await page.getByTestId('no-data-ODI').count()).toBe(0);
    await page.waitForFunction(() => (window.__nocturneStats?.frames ?? 0) > 0 && window.__nocturneStats!.lastFrameComplete, undefined, { timeout: 30_000 });
    expect(await page.getByTestId('no-data-NC_PSG').count()).toBe(0);

    // The Summary's customized index counts annotations and says so, next to the REI table's detected apneas.
    await page.getByTestId('tab-summary').click();
    const customized = page.getByTestId('summary-customized');
    await customized.waitFor({ timeout: 30_000 });
    expect(await customized.locator('h4').innerText()).toBe('Customized index (annotations)');
    expect(await page.getByTestId('summary-customized-note').innerText()).toContain("The detector's events are counted in the REI (monitoring time) table.");
    expect(await customized.locator('th').first().innerText()).toMatch(/ \(annotations\)$/);
    await page.getByTestId('tab-overview').click();
    await page.getByTestId('plot-NC_PSG').waitFor({ timeout: 30_000 });
    expect(await result.isVisible()).toBe(true);
    await page.getByTestId('import-result-dismiss').click();
    expect(await result.count()).toBe(0);
    await page.locator('.import-details > summary').click();

    // A broken file is refused with a message naming it, and nothing is added.
    await page.getByTestId('import-files').setInputFiles({ name: 'broken.edf', mimeType: 'application/octet-stream', buffer: Buffer.from('0       not an edf header') });
    await page.getByTestId('import-submit').click();
    await expect.poll(() => page.getByTestId('import-error-files').textContent()).toMatch(/^broken\.edf: /);
    expect(await page.getByTestId('import-error').textContent()).toMatch(/^These files cannot be read; nothing was stored:/);

    // Files of two people twelve years apart are not one night: refused with both named, nothing stored (issue 32.2).
    const nightCount = () =>
      page.evaluate(async () => {
        const { token } = JSON.parse(localStorage.getItem(Object.keys(localStorage).find((k) => k.includes('session'))!)!) as { token: string };
        const id = Number(location.pathname.split('=')[1]);
        return ((await (await fetch(`/api/v1/patient/available-nights?patient_id=${id}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { data: { nights: unknown[] } }).data.nights.length;
      });
    const nightsBefore = await nightCount();
    expect(nightsBefore).toBeGreaterThan(0);
    await page.getByTestId('import-files').setInputFiles([path.join(REAL, 'sleepedf_SC4001E0_short_psg.edf'), path.join(REAL, 'hmc_SN001_hypnogram_test_edfann.edf')]);
    await page.getByTestId('import-submit').click();
    await expect.poll(() => page.getByTestId('import-error').textContent(), { timeout: 30_000 }).toContain('These files cannot be one night');
    const refusal = (await page.getByTestId('import-error').textContent())!;
    expect(refusal).toContain('sleepedf_SC4001E0_short_psg.edf');
    expect(refusal).toContain('hmc_SN001_hypnogram_test_edfann.edf');
    expect(refusal).toContain('Nothing was stored.');
    expect(await nightCount()).toBe(nightsBefore);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('a physician with a BDF of signals Nocturne has no meaning for', () => {
  it('sees each of its five signals listed under its own label and drawn', async () => {
    const { context, page, errors } = await newPage(browser, server.url);
    await page.goto('/app/signin');
    await signInThroughForm(page, server.url, DEMO.physician);
    await openPatient(page, 'NCT1003');
    await importThroughScreen(page, [path.join(REAL, 'pyedflib_test_generator.bdf')]);
    await page.getByTestId('import-result').waitFor({ timeout: 30_000 });
    // The form is far below the night: the result is brought into view, under the app's header, with its length in h:m:s.
    await expect.poll(() => page.getByTestId('import-result').evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThanOrEqual(60);
    expect(await page.getByTestId('import-result').evaluate((el) => el.getBoundingClientRect().top < window.innerHeight / 2 && document.activeElement === el)).toBe(true);
    expect(await page.getByTestId('import-done').innerText()).toContain('00:00:30 long');
    const signals = ['sine 5Hz', 'square 13Hz', 'ramp 7Hz', 'pink noise', 'white noise'];
    for (const label of signals) {
      expect(await page.getByTestId(`channel-${label}`).innerText()).toBe(label);
      expect(await page.getByTestId(`channel-${label}`).getAttribute('aria-pressed')).toBe('true');
      await page.getByTestId(`plot-${label}`).waitFor({ timeout: 30_000 });
    }
    await page.waitForFunction(() => (window.__nocturneStats?.frames ?? 0) > 0 && window.__nocturneStats!.lastFrameComplete, undefined, { timeout: 30_000 });
    for (const label of signals) expect(await page.getByTestId(`no-data-${label}`).count()).toBe(0);
    expect(await page.getByTestId('chart-block-sine 5Hz').locator('h3, .chart-title').first().innerText()).toContain('sine 5Hz');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('a physician with a night of four mask sessions', () => {
  it('uploads its whole folder (20 files) through the dialog: one night, four sessions, monitoring time = the sessions\' flow time', async () => {
    const { context, page, errors } = await physicianOnPatientWithoutNights(browser, server.url, 'NCT1004');
    const names = (await readdir(REAL)).filter((n) => /^snore_resmed_2025091[01]_/.test(n));
    expect(names).toHaveLength(20);
    await importThroughScreen(page, names.map((n) => path.join(REAL, n)), 'Europe/Zurich');
    await expect.poll(() => page.getByTestId('import-done').textContent(), { timeout: 60_000 }).toContain('Nasal Cannula');
    // A night the radar did not record opens on its flow (a reference channel, off beside the radar's signals).
    await page.getByTestId('plot-NC_PSG').waitFor({ timeout: 30_000 });
    // Each session's EVE and CSL are the same bytes: kept once, and the summary says so.
    expect(await page.getByTestId('import-skipped-files').locator('li').count()).toBe(4);
    // One night with four sessions listed, one flow channel (no '#2' copies).
    await expect.poll(() => page.getByTestId('night-session').count(), { timeout: 30_000 }).toBe(4);
    expect(await page.locator('[data-testid^="channel-"][data-testid*="#"]').count()).toBe(0);
    expect(await page.locator('[data-testid^="channel-Flow.40ms"]').count()).toBe(0);
    // The sessions' other signals (pressure, leak, flow limitation…) are offered as channels of their own, named.
    expect(await page.getByTestId('channel-Press.2s').innerText()).toBe('Therapy pressure (2\u00a0s)');
    // The navigator draws the four sessions in order, the gaps between them bare.
    const marks = await page.getByTestId('overview-session').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => [r.left, r.right]));
    expect(marks).toHaveLength(4);
    for (let i = 1; i < marks.length; i++) expect(marks[i]![0]).toBeGreaterThan(marks[i - 1]![1]);
    // The annotations card beside this night's charts keeps its buttons: nothing of it is cut
    // off inside a scroller of its own (its list alone gives way).
    const card = await page.getByTestId('annotation-sidebar').evaluate((el) => ({
      clipped: el.scrollHeight - el.clientHeight,
      buttons: [...el.querySelectorAll('[data-testid^="generate-"], [data-testid="annotations-export"]')].map((b) => b.getBoundingClientRect().height),
    }));
    expect(card.clipped).toBeLessThanOrEqual(1);
    expect(card.buttons.length).toBeGreaterThanOrEqual(3);
    for (const h of card.buttons) expect(h).toBeGreaterThan(10);
    await page.getByTestId('tab-summary').click();
    const table = page.getByTestId('summary-ahi');
    await table.waitFor({ timeout: 30_000 });
    const monitoring = (await table.locator('tr').last().innerText()).match(/(\d+):(\d{2})/);
    expect(monitoring).not.toBeNull();
    const hours = Number(monitoring![1]) + Number(monitoring![2]) / 60;
    expect(hours).toBeGreaterThan(5.2);
    expect(hours).toBeLessThan(5.6);
    // The trend opens on the last days, which this 2025 night is far from: it says so, and shows
    // the weeks up to the night (older than the patient's account) at a click, its REI drawn.
    await page.getByTestId('tab-overview').click();
    await page.getByTestId('mode-trend').click();
    await page.getByTestId('trend-no-night-in-span').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('trend-no-night-in-span').innerText()).toContain('10 Sep 2025');
    await page.getByTestId('trend-show-last-night').click();
    await expect.poll(() => page.getByTestId('trend-chart-AHI').getByTestId('trend-point').count(), { timeout: 30_000 }).toBe(1);
    expect(await page.getByTestId('trend-no-night-in-span').count()).toBe(0);
    expect(await page.getByTestId('trend-chart-AHI').getByTestId('trend-spread').innerText()).toContain('Mean over 1 night:');
    // A CPAP night has no signal-quality channel: no SQ point (it was drawn as 0 %).
    expect(await page.getByTestId('trend-chart-SQ').getByTestId('trend-point').count()).toBe(0);
    expect(await page.getByTestId('trend-span-error').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('a night whose mask sessions come in two uploads', () => {
  it('sessions 1 and 3, then 2 and 4: draws the joined channel after the second upload and after a reload, not what the browser kept of the first (decision 1019)', async () => {
    const { context, page, errors } = await physicianOnPatientWithoutNights(browser, server.url, 'NCT1001');
    const names = (await readdir(REAL)).filter((n) => /^snore_resmed_2025091[01]_/.test(n));
    // The first and third mask sessions (22:36, 01:48) one day; the second fills the gap between them.
    const first = names.filter((n) => /^snore_resmed_(20250910_2236|20250911_014[89])/.test(n));
    expect(first).toHaveLength(10);
    // The flow channel as the engine holds it (drawn) and as the server stores it (the night list).
    const drawn = () =>
      page.evaluate(async () => {
        const c = (await window.__nocturneEngine!.channels()).find((ch) => ch.code === 'NC_PSG');
        return { count: c?.count ?? 0, valid: c?.validCount ?? 0 };
      });
    const stored = () =>
      page.evaluate(async () => {
        const pid = /id=(\d+)/.exec(location.pathname)![1]!;
        const token = JSON.parse(localStorage.getItem('nocturne.session') ?? '{}').token as string;
        const res = await fetch(`/api/v1/patient/available-nights?patient_id=${pid}`, { headers: { Authorization: `Bearer ${token}` } });
        const [night] = (await res.json()).data.nights as { channels: { code: string; count: number; valid: number }[] }[];
        const { count, valid } = night!.channels.find((c) => c.code === 'NC_PSG')!;
        return { count, valid };
      });
    const loaded = async () => {
      await page.getByTestId('plot-NC_PSG').waitFor({ timeout: 30_000 });
      await chartsSettled(page);
      await page.locator('.night-charts[aria-busy="false"]').waitFor({ timeout: 60_000 });
    };
    await importThroughScreen(page, first.map((n) => path.join(REAL, n)), 'Europe/Zurich');
    await expect.poll(() => page.getByTestId('import-done').textContent(), { timeout: 60_000 }).toContain('Nasal Cannula');
    // Each session's only EDF+ annotation is the device's "Recording starts": the result says
    // they are no scored events, so an empty annotation list is no surprise.
    expect(await page.getByTestId('import-done').textContent()).toContain('2 markers read from the files, no scored event: kept with the night, in its EDF+ export.');
    await loaded();
    const firstUpload = await stored();
    await expect.poll(drawn).toEqual({ count: firstUpload.count, valid: firstUpload.valid });
    // The other two sessions, later: joined onto the night's channels (the second into their gap), same codes.
    await importThroughScreen(page, names.filter((n) => !first.includes(n)).map((n) => path.join(REAL, n)), 'Europe/Zurich');
    await expect.poll(() => page.getByTestId('import-done').textContent(), { timeout: 60_000 }).toContain('Added to the night the patient already had');
    // The upload's own span (the second session's start to the fourth's end), then the whole night's.
    expect(await page.getByTestId('import-done').textContent()).toContain('Imported a night from 10 Sep 2025, 23:26, 06:43:15 long (h:m:s)');
    expect(await page.getByTestId('import-done').textContent()).toContain('Added to the night the patient already had, which now starts 10 Sep 2025, 22:36 and is 07:33:20 long (h:m:s).');
    await expect.poll(() => page.getByTestId('night-session').count(), { timeout: 30_000 }).toBe(4);
    const joined = await stored();
    // Longer (the fourth session) and fuller (the second, in the gap) than the first upload's.
    expect(joined.count).toBeGreaterThan(firstUpload.count);
    expect(joined.valid).toBeGreaterThan(firstUpload.valid + (joined.count - firstUpload.count));
    await loaded();
    await expect.poll(drawn).toEqual({ count: joined.count, valid: joined.valid });
    // Coming back to it later: the browser's caches hold the joined channel, not the first upload's.
    await page.reload();
    await loaded();
    await expect.poll(drawn).toEqual({ count: joined.count, valid: joined.valid });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("an annotator scrubbing into the gap between two sessions is told the window holds no sample, and the night's axis reads whole hours", async () => {
    // The four-session night the test before joined for NCT1001 (its only night).
    const { context, page, errors } = await newPage(browser, server.url);
    await page.goto('/app/signin');
    await signInThroughForm(page, server.url, DEMO.annotator);
    await openPatient(page, 'NCT1001');
    await page.getByTestId('plot-NC_PSG').waitFor({ timeout: 60_000 });
    await chartsSettled(page);
    // The night (22:36–06:09, 7 h 33 min) on its clock's hours, not at eighths of its span (decision 1022).
    const axis = page.getByTestId('navigator').locator('.time-axis');
    // (as many of 23:00 … 06:00 as fit the navigator's width without touching).
    const ticks = await axis.locator('.time-tick').allInnerTexts();
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    for (const tick of ticks) expect(tick).toMatch(/^(23|0[0-6]):00$/);
    await page.locator('select').filter({ has: page.locator('option', { hasText: '30 Sec' }) }).first().selectOption({ label: '30 Sec' });
    const box = (await axis.boundingBox())!;
    const at = (fraction: number) => page.mouse.click(box.x + box.width * fraction, box.y - 25);
    const note = page.getByTestId('none-here-NC_PSG');
    const readout = page.getByTestId('stats-NC_PSG');
    // 23:12, between the first session (to 22:57) and the second (from 23:26): no sample there.
    await at(0.079);
    await expect.poll(() => note.isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await note.innerText()).toBe('No valid sample of Nasal Cannula in this window: the recording holds none here (between two sessions of the night, or the sensor recorded no valid value).');
    await expect.poll(() => readout.innerText()).toBe('no valid sample in this window');
    expect(await readout.getAttribute('data-none')).toBe('true');
    // Midnight, inside the second session: its figures, and no note.
    await at(0.185);
    await expect.poll(() => readout.innerText(), { timeout: 30_000 }).toMatch(/^min -?\d+\.\d · max /);
    expect(await note.isVisible()).toBe(false);
    // A mean that rounds to zero is 0.0, never -0.0.
    expect(await readout.innerText()).not.toContain('-0.0');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('a German-speaking physician with a ResMed SD card', () => {
  it("picks the night's folder and sees its device signals by their German names, never ResMed's labels", async () => {
    const { context, page, errors } = await newPage(browser, server.url);
    await page.goto('/app/signin');
    await signInThroughForm(page, server.url, DEMO.physician);
    await page.getByTestId('language-select').first().selectOption('de-AT');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang), { timeout: 20_000 }).toBe('de-AT');
    await openPatient(page, 'NCT1002');
    // The card's night folder as the device writes it: flow and pressure (BRP), its 2-s signals
    // (PLD), the oximeter (SA2) and the events (EVE), picked as a folder.
    const folder = await mkdtemp(path.join(tmpdir(), 'nocturne-datalog-'));
    try {
      for (const name of ['snore_resmed_20250808_010203_EVE.edf', 'snore_resmed_20250808_010210_BRP.edf', 'snore_resmed_20250808_010210_PLD.edf', 'snore_resmed_20250808_010210_SA2.edf']) {
        await copyFile(path.join(REAL, name), path.join(folder, name));
      }
      if (!(await page.getByTestId('import-folder').isVisible())) await page.locator('.import-details > summary').click();
      await page.getByTestId('import-folder').setInputFiles(folder);
      await page.getByTestId('import-timezone').fill('UTC');
      await page.getByTestId('import-submit').click();
      await expect.poll(() => page.getByTestId('import-done').textContent(), { timeout: 60_000 }).toContain('Nasenkanüle');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    const NB = '\u00a0';
    const RAW = /\b\w+\.(\d+(\.\d+)?)(ms|s)\b/;
    const done = (await page.getByTestId('import-done').textContent())!;
    for (const name of [`Maskendruck (40${NB}ms)`, `Maskendruck (2${NB}s)`, `Therapiedruck (2${NB}s)`, `Exspiratorischer Druck (2${NB}s)`, `Leckage (2${NB}s)`, `Atemzugvolumen (2${NB}s)`, `Atemminutenvolumen (2${NB}s)`, `Schnarchen (2${NB}s)`, `Flusslimitation (2${NB}s)`]) {
      expect(done).toContain(name);
    }
    expect(done).not.toMatch(RAW);
    // The channel selector names every one of them too; the stored label is a tooltip away.
    await page.getByTestId('channel-MaskPress.2s').waitFor({ timeout: 30_000 });
    const buttons = await page.locator('.channel-buttons [data-testid^="channel-"]').evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText));
    expect(buttons.length).toBeGreaterThanOrEqual(9);
    for (const text of buttons) expect(text).not.toMatch(RAW);
    expect(await page.getByTestId('channel-MaskPress.2s').innerText()).toBe(`Maskendruck (2${NB}s)`);
    expect(await page.getByTestId('channel-MaskPress.2s').getAttribute('title')).toBe('Quellsignal: MaskPress.2s');
    // Turned on, the chart is titled by the name, its info tip naming the source signal.
    await page.getByTestId('channel-MaskPress.2s').click();
    await page.getByTestId('plot-MaskPress.2s').waitFor({ timeout: 30_000 });
    const block = page.getByTestId('chart-block-MaskPress.2s');
    expect(await block.locator('.chart-title').textContent()).toBe(`Maskendruck (2${NB}s)`);
    expect(await block.locator('.info-tip').getAttribute('title')).toBe(`Maskendruck (2${NB}s) · Quellsignal: MaskPress.2s`);
    // The period sits under the name: a narrow header cuts the name, never the period that tells the two mask pressures apart.
    expect(await block.locator('.chart-period').textContent()).toBe(` (2${NB}s)`);
    // Unfolded, the downloads list them by name as well.
    await page.getByTestId('night-downloads').locator('summary').click();
    expect(await page.getByTestId('download-channel-Leak.2s').locator('xpath=..').textContent()).toBe(`Leckage (2${NB}s)`);
    // The folded table of what the import made keeps the stored codes and labels, as the files wrote them.
    const codes = await page.getByTestId('import-channel').evaluateAll((trs) => trs.map((tr) => tr.querySelector('td')!.textContent));
    expect(codes).toContain('MaskPress.2s');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('an annotator', () => {
  it('creates, views, edits and deletes annotations with the mouse and the keyboard', async () => {
    const { context, page, errors } = await newPage(browser, server.url);
    await page.goto(patientUrl);
    await signInThroughForm(page, server.url, DEMO.annotator);
    await page.getByTestId('annotation-sidebar').waitFor();
    // The flow is shown from the start (the night's only charted channel with data).
    await page.getByTestId('plot-NC_PSG').waitFor();
    expect(await count(page, 'custom')).toBe(0);

    // The popup: spec messages, then a valid annotation on the flow channel.
    await page.getByTestId('annotation-add').click();
    const popup = page.getByTestId('annotation-popup');
    await popup.waitFor();
    expect(await popup.getAttribute('data-mode')).toBe('add');
    expect(await page.getByTestId('annotation-duration-s').inputValue()).toBe('10');
    await page.getByTestId('annotation-save').click();
    await expect.poll(() => popup.innerText()).toContain('Please select at least one KPI.');
    await page.getByTestId('annotation-duration-s').fill('7x5');
    expect(await page.getByTestId('annotation-duration-s').inputValue()).toBe('75');
    expect(await page.getByTestId('annotation-duration-s').getAttribute('aria-invalid')).toBe('true');
    await page.getByTestId('annotation-duration-s').fill('15');
    await page.getByTestId('annotation-kpi-NC_PSG').check();
    await page.getByTestId('annotation-comment').fill("Flow's flat");
    await page.getByTestId('annotation-save').click();
    await popup.waitFor({ state: 'detached' });
    await expect.poll(() => count(page, 'custom')).toBe(1);
    // Add again: a fresh form (spec 2 §4, closing resets all fields), no channel ticked from the last mark.
    await page.getByTestId('annotation-add').click();
    await popup.waitFor();
    expect(await page.getByTestId('annotation-kpi-NC_PSG').isChecked()).toBe(false);
    expect(await page.getByTestId('annotation-comment').inputValue()).toBe('');
    await page.keyboard.press('Escape');
    await popup.waitFor({ state: 'detached' });

    // Ctrl + drag on the flow chart annotates that channel, drawn as a band by WebGL.
    const plot = page.getByTestId('plot-NC_PSG');
    const box = (await plot.boundingBox())!;
    await chartsSettled(page);
    const withoutBand = (await plot.screenshot()).toString('base64');
    await page.keyboard.down('Control');
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.32, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    await page.keyboard.up('Control');
    await popup.waitFor();
    expect(await page.getByTestId('annotation-kpi-NC_PSG').isChecked()).toBe(true);
    await page.getByTestId('annotation-save').click();
    await popup.waitFor({ state: 'detached' });
    await expect.poll(() => count(page, 'custom')).toBe(2);
    await expect.poll(async () => (await plot.screenshot()).toString('base64') !== withoutBand).toBe(true);
    await page.getByTestId('annotations-show-custom').uncheck();
    await expect.poll(async () => (await plot.screenshot()).toString('base64')).toBe(withoutBand);
    await page.getByTestId('annotations-show-custom').check();

    // Keys: M marks the current 30-s window with the last category; ] and [ jump.
    await page.getByTestId('range-preset').selectOption('30s');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('m');
    await expect.poll(() => count(page, 'custom')).toBe(3);
    const before = await t0(page);
    await page.keyboard.press('[');
    await expect.poll(() => t0(page)).toBeLessThan(before);
    const back = await t0(page);
    await page.keyboard.press(']');
    await expect.poll(() => t0(page)).toBeGreaterThan(back);

    // View, then edit from the view; the change is kept.
    await page.getByTestId('annotation-row').first().locator('.annotation-open').click();
    await popup.waitFor();
    expect(await popup.getAttribute('data-mode')).toBe('view');
    expect(await page.getByTestId('annotation-comment').isDisabled()).toBe(true);
    await page.getByTestId('annotation-edit').click();
    await expect.poll(() => popup.getAttribute('data-mode')).toBe('edit');
    await page.getByTestId('annotation-comment').fill('Checked');
    await page.getByTestId('annotation-save').click();
    await popup.waitFor({ state: 'detached' });

    // Delete one from its popup, then two at once from the list.
    await page.getByTestId('annotation-row-edit').first().click();
    await page.getByTestId('annotation-delete').click();
    await expect.poll(() => page.locator('[data-testid=confirm-dialog][open]').innerText()).toContain('Are you sure to delete this annotation ?');
    await page.getByTestId('confirm-accept').click();
    await popup.waitFor({ state: 'detached' });
    await expect.poll(() => count(page, 'custom')).toBe(2);
    await page.getByTestId('annotation-row').first().locator('input[type=checkbox]').check();
    await page.getByTestId('annotations-delete-selected').click();
    await page.getByTestId('confirm-cancel').click();
    expect(await count(page, 'custom')).toBe(2);
    await page.getByTestId('annotations-delete-selected').click();
    await page.getByTestId('confirm-accept').click();
    await expect.poll(() => count(page, 'custom')).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('can have twelve categories but not a thirteenth', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto(patientUrl);
    await signInThroughForm(page, server.url, DEMO.annotator);
    await page.getByTestId('annotation-add').click();
    await page.getByTestId('annotation-popup').waitFor();
    // Seven built-in categories (spec 2 §3); five more fill the twelve.
    for (let i = 1; i <= 5; i++) {
      await page.getByTestId('category-create').click();
      if (i === 1) {
        await page.getByTestId('category-save').click();
        await expect.poll(() => page.getByTestId('category-form').innerText()).toContain('Please select a color.');
        await page.getByTestId('category-title').fill('A very long category title');
        await page.getByTestId('category-color').first().click();
        await page.getByTestId('category-save').click();
        await expect.poll(() => page.getByTestId('category-form').innerText()).toContain('Category length should not exceed 20 characters.');
      }
      await page.getByTestId('category-title').fill(`Kind ${i}`);
      await page.getByTestId('category-color').first().click();
      await page.getByTestId('category-save').click();
      await expect.poll(() => page.getByTestId('category-option').count()).toBe(7 + i);
    }
    expect(await page.getByTestId('category-create').count()).toBe(0);
    await context.close();
  });
});

describe('the physician', () => {
  it('sees what the annotator did, attributed to the annotator', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto(patientUrl);
    await signInThroughForm(page, server.url, DEMO.physician);
    await page.getByTestId('annotation-sidebar').waitFor();
    await expect.poll(() => count(page, 'custom')).toBe(1);
    const seen = await page.evaluate(async () => {
      const token = JSON.parse(Object.values(localStorage).find((v) => v.includes('"token"')) ?? '{}').token;
      const id = Number(location.pathname.split('=')[1]);
      const call = async (url: string) =>
        (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ patient_id: id }) })).json();
      const me = (await (await fetch('/api/v1/user', { headers: { authorization: `Bearer ${token}` } })).json()).data.user_details.user_id;
      // The night's device-scored (ResMed) events come along, read-only; this is about users' own.
      const [annotation] = (await call('/api/v1/analytics/patient/get-annotations')).data.annotations.filter((a: { type: string }) => a.type !== 'device');
      return { labels: (await call('/api/v1/patient/get-label-list')).data.labels.length, doctor: annotation.doctor_id === me, byAnnotator: annotation.created_by !== me, comment: annotation.comment };
    });
    expect(seen).toEqual({ labels: 12, doctor: true, byAnnotator: true, comment: expect.any(String) });
    // The sidebar's export downloads the night's annotations (the annotator's and the device's) as CSV.
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('annotations-export').click()]);
    expect(csv.suggestedFilename()).toMatch(/^annotations_\d{8}_\w+_NCT1005\.csv$/);
    const lines = (await downloadBytes(csv)).toString('utf8').trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^annotation_map_id,type,start_time,end_time,duration,/);
    expect(lines.filter((l) => l.split(',')[1] === 'device')).toHaveLength(7);
    // The annotator's one annotation, attributed to the annotator, and the device's seven events.
    expect(lines).toHaveLength(1 + 1 + 7);
    expect(lines.filter((l) => l.includes(`,${DEMO.annotator},`))).toHaveLength(1);
    // Scoring files: the device's events as NSRR XML, imported back onto the night as the physician's own marks.
    await page.getByTestId('scoring-source').selectOption('device');
    const [xml] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-nsrr').click()]);
    expect(xml.suggestedFilename()).toMatch(/^NCT1005_\d{8}(_\S+)?_device\.xml$/);
    const text = (await downloadBytes(xml)).toString('utf8');
    expect(text.match(/<ScoredEvent>/g)).toHaveLength(1 + 7);
    await page.getByTestId('import-scoring-file').setInputFiles({ name: 'device.xml', mimeType: 'application/xml', buffer: Buffer.from(text) });
    // The import, then the list's and categories' refetch: a server round trip or three, so more than poll's 1-s default.
    await expect.poll(() => page.getByTestId('annotations-notice').innerText(), { timeout: 15_000 }).toContain('7 marks imported from device.xml.');
    await expect.poll(() => count(page, 'custom'), { timeout: 15_000 }).toBe(1 + 7);
    await page.getByTestId('annotation-row').first().locator('.annotation-open').click();
    await expect.poll(() => page.getByTestId('annotation-popup').getAttribute('data-mode')).toBe('view');
    await page.keyboard.press('Escape');
    await page.getByTestId('annotation-popup').waitFor({ state: 'detached' });

    // A mark to the millisecond (a scoring file's 1,000.25 s for 10.5 s): editing only its comment keeps its times (decision 1036).
    const fine = '<?xml version="1.0"?><PSGAnnotation><ScoredEvents><ScoredEvent><EventType>Respiratory|Respiratory</EventType><EventConcept>Hypopnea|Hypopnea</EventConcept><Start>1000.25</Start><Duration>10.5</Duration><SignalLocation>NC_PSG</SignalLocation></ScoredEvent></ScoredEvents></PSGAnnotation>';
    await page.getByTestId('import-scoring-file').setInputFiles({ name: 'fine.xml', mimeType: 'application/xml', buffer: Buffer.from(fine) });
    await expect.poll(() => count(page, 'custom'), { timeout: 15_000 }).toBe(1 + 7 + 1);
    const marksOf = () => page.evaluate(async (id) => {
      const token = JSON.parse(localStorage.getItem('nocturne.session') ?? '{}').token as string;
      const night = Number(document.querySelector('[data-testid=night-picker]')!.getAttribute('data-night'));
      const res = await fetch('/api/v1/analytics/patient/get-annotations', { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ patient_id: id, night }) });
      return (await res.json()).data.annotations as Array<{ annotation_map_id: number; start_ms: number; end_ms: number; comment: string }>;
    }, Number(/id=(\d+)/.exec(page.url())![1]));
    const before = (await marksOf()).find((m) => (m.end_ms - m.start_ms) === 10_500)!;
    expect(before.start_ms % 1000).toBe(250);
    await page.locator(`[data-testid=annotation-row][data-id="${before.annotation_map_id}"] [data-testid=annotation-row-edit]`).click();
    await page.getByTestId('annotation-comment').fill('Checked, times untouched');
    await page.getByTestId('annotation-save').click();
    await page.getByTestId('annotation-popup').waitFor({ state: 'detached' });
    await expect.poll(async () => (await marksOf()).find((m) => m.annotation_map_id === before.annotation_map_id)?.comment).toBe('Checked, times untouched');
    const after = (await marksOf()).find((m) => m.annotation_map_id === before.annotation_map_id)!;
    expect([after.start_ms, after.end_ms]).toEqual([before.start_ms, before.end_ms]);
    await context.close();
  });
});
