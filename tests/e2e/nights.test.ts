import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { appleDouble } from '../apple-double';
import { nsrrXmlOf, SCORED } from '../nsrr-xml';
import { chartsSettled, DEMO, importThroughScreen, launchChromium, newPage, openPatient, REAL_FIXTURES as REAL, signInThroughForm, startAppServer, physicianOnPatientWithoutNights, type AppServer } from './harness';

// Issue 12: a CPAP night (ResMed BRP + EVE) and, separately, an oximeter export of the same
// night make ONE night; the device's scored events are drawn, listed and counted beside
// Nocturne's with the agreement table; the same file again is refused.

const BRP = path.join(REAL, 'snore_resmed_20250808_010210_BRP.edf');
const EVE = path.join(REAL, 'snore_resmed_20250808_010203_EVE.edf');
/** The same night's oximetry file: its pulse channel holds no valid value all night. */
const SA2 = path.join(REAL, 'snore_resmed_20250808_010210_SA2.edf');
let server: AppServer;
let browser: Browser;
let dir = '';
let csv = '';
let patientUrl = '';

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
  dir = await mkdtemp(path.join(tmpdir(), 'nocturne-e2e-nights-'));
  // A Timestamp,Value SpO2 export at 1 Hz for 2 h of that night, a 5-point dip every 5 minutes.
  const lines = ['Timestamp,Value'];
  const from = Date.UTC(2025, 7, 8, 1, 0, 0);
  for (let s = 0; s < 7200; s++) lines.push(`${new Date(from + s * 1000).toISOString()},${s % 300 < 30 ? 91 : 96}`);
  csv = path.join(dir, 'SPO2_20250807_OXI-1_NCT1005.csv');
  await writeFile(csv, lines.join('\n'));
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('one night from many files, with the device events and the agreement', () => {
  it('a physician imports the CPAP night, then the oximeter: one night, device events drawn, listed and compared', async () => {
    const { context, page, errors } = await physicianOnPatientWithoutNights(browser, server.url, 'NCT1005');
    patientUrl = new URL(page.url()).pathname;

    await importThroughScreen(page, [BRP, EVE]);
    await expect.poll(() => page.getByTestId('import-done').textContent(), { timeout: 30_000 }).toContain('7 device-scored events kept as annotations.');
    // The EVE file's eight EDF+ annotations ("Recording starts" and the seven events) are not called events.
    expect(await page.getByTestId('import-done').textContent()).toContain('. 8 annotations read from the files. 7 device-scored events kept as annotations.');
    // The screen moves to the night just imported (its night key: the evening's date at 00:00 UTC).
    await expect.poll(() => new URL(page.url()).searchParams.get('night'), { timeout: 30_000 }).toBe(String(Date.UTC(2025, 7, 7) / 1000));
    // The night opens (and the import section folds) before the next file goes in.
    await page.getByTestId('annotation-sidebar').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('.import-details').getAttribute('open')).toBeNull();
    await importThroughScreen(page, [csv]);
    await expect.poll(() => page.getByTestId('import-done').textContent(), { timeout: 30_000 }).toContain('Added to the night the patient already had, which now starts');

    // The night picker offers one night, and it holds both the flow and the oximeter.
    await page.getByTestId('night-picker').click();
    await page.getByTestId('night-calendar').waitFor();
    expect(await page.locator('[data-testid^=night-day-]:not([disabled])').count()).toBe(1);
    await page.getByTestId('night-day-2025-08-07').click();
    // The merged night's channels first (SpO2 among them), then the flow on if it is not yet:
    // clicking while the earlier, flow-only night is still shown would turn the flow off.
    await page.getByTestId('channel-SPO2').waitFor({ timeout: 30_000 });
    if ((await page.getByTestId('channel-NC_PSG').getAttribute('aria-pressed')) !== 'true') await page.getByTestId('channel-NC_PSG').click();
    const plot = page.getByTestId('plot-NC_PSG');
    await plot.waitFor({ timeout: 30_000 });

    // The sidebar lists the seven ResMed events, read-only, with their origin.
    await expect.poll(() => page.getByTestId('annotations-count-device').innerText()).toBe('7');
    const rows = page.getByTestId('annotation-row-device');
    expect(await rows.count()).toBe(7);
    expect(await rows.first().innerText()).toContain('device (ResMed)');
    expect(await rows.first().locator('input[type=checkbox]').count()).toBe(0);
    expect(await page.getByTestId('annotation-row').count()).toBe(0);

    // They are drawn on the flow chart: on a 1-minute window at the first event (a click on its
    // row moves there), hiding them changes the picture, showing them restores it.
    await page.getByTestId('range-preset').selectOption('1m');
    await rows.first().locator('.annotation-open').click();
    await chartsSettled(page);
    // The plot in mid-screen for each picture: reaching the toggle in the annotation column may
    // scroll the page, and a plot under the sticky navigator would picture the navigator.
    const picture = async () => {
      await plot.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      return (await plot.screenshot()).toString('base64');
    };
    const withDevice = await picture();
    await page.getByTestId('annotations-show-device').uncheck();
    await expect.poll(async () => (await picture()) !== withDevice).toBe(true);
    await page.getByTestId('annotations-show-device').check();
    await expect.poll(picture).toBe(withDevice);

    // The summary counts the device's events beside Nocturne's and shows the agreement.
    await page.getByTestId('tab-summary').click();
    await page.getByTestId('summary-agreement').waitFor({ timeout: 60_000 });
    // Without sleep staging the indices are per hour of monitoring, and never empty: REI and ODI are figures.
    const ahiTable = page.getByTestId('summary-panel').getByTestId('summary-ahi');
    expect(await ahiTable.innerText()).toContain('REI (monitoring time)');
    // The summary may first show the figures of the night before the oximeter joined it (being analysed again): the figure comes.
    await expect.poll(() => ahiTable.locator('td').first().innerText(), { timeout: 30_000 }).toMatch(/^\d+\.\d\d$/);
    const odiTable = page.getByTestId('summary-panel').getByTestId('summary-odi');
    expect(await odiTable.innerText()).toContain('ODI (desaturations per hour of monitoring)');
    await expect.poll(() => odiTable.locator('td').first().innerText(), { timeout: 30_000 }).toMatch(/^\d+\.\d\d$/);
    const device = Number(await page.getByTestId('device-apneas').innerText()) + Number(await page.getByTestId('device-hypopneas').innerText());
    expect(device).toBe(7);
    const matched = Number(await page.getByTestId('agreement-matched').innerText());
    const missed = Number(await page.getByTestId('agreement-missed').innerText());
    expect(matched + missed).toBe(7);
    const nocturne = Number(await page.getByTestId('nocturne-apneas').innerText()) + Number(await page.getByTestId('nocturne-hypopneas').innerText());
    expect(matched + Number(await page.getByTestId('agreement-extra').innerText())).toBe(nocturne);
    expect(await page.getByTestId('agreement-sensitivity').innerText()).toBe(`${Math.round((matched / 7) * 100)} %`);
    expect(await page.getByTestId('agreement-device-ahi').innerText()).toMatch(/^\d+\.\d\d$/);
    expect(await page.getByTestId('summary-agreement').innerText()).toContain('Agreement: Nocturne vs ResMed');

    // The night report carries the device's scoring apart from Nocturne's, and the agreement.
    await page.getByTestId('generate-report').click();
    const report = page.getByTestId('report-dialog');
    await report.getByTestId('summary-device-events').waitFor({ timeout: 60_000 });
    expect(Number(await report.getByTestId('device-apneas').innerText()) + Number(await report.getByTestId('device-hypopneas').innerText())).toBe(7);
    expect(Number(await report.getByTestId('nocturne-apneas').innerText()) + Number(await report.getByTestId('nocturne-hypopneas').innerText())).toBe(nocturne);
    expect(Number(await report.getByTestId('agreement-matched').innerText())).toBe(matched);
    expect(await report.getByTestId('summary-device-events').innerText()).toContain('ResMed');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('report-sheet').count()).toBe(0);

    // The same file again: refused, naming it and its night.
    await page.getByTestId('tab-overview').click();
    await importThroughScreen(page, [csv]);
    await expect.poll(() => page.getByTestId('import-error').textContent(), { timeout: 30_000 }).toBe(
      'SPO2_20250807_OXI-1_NCT1005.csv is already stored for the night of 07 Aug 2025; nothing was stored.',
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a physician picks a card's whole DATALOG folder of three nights: each is imported as a night of its own, the files left out listed once for the upload", async () => {
    const { context, page, errors } = await physicianOnPatientWithoutNights(browser, server.url, 'NCT1004');
    // The card as the device writes it: a folder per night, and files the import does not read.
    const card = path.join(dir, 'card');
    // September's first mask session wrote byte-identical EVE and CSL files: one is left out.
    for (const day of ['20250110', '20250910_2236', '20251025']) {
      await mkdir(path.join(card, 'DATALOG', day.slice(0, 8)), { recursive: true });
      for (const name of (await readdir(REAL)).filter((n) => n.startsWith(`snore_resmed_${day}`))) {
        await copyFile(path.join(REAL, name), path.join(card, 'DATALOG', day.slice(0, 8), name));
        // As a Mac leaves a card it has copied to: a "._" companion (AppleDouble, no recording) beside each file.
        await writeFile(path.join(card, 'DATALOG', day.slice(0, 8), `._${name}`), appleDouble());
      }
    }
    await writeFile(path.join(card, 'Identification.tgt'), '#SRN 23221234567\n');
    if (!(await page.getByTestId('import-folder').isVisible())) await page.locator('.import-details > summary').click();
    await page.getByTestId('import-folder').setInputFiles(card);
    await page.getByTestId('import-timezone').fill('Europe/Zurich');
    await page.getByTestId('import-submit').click();
    await page.getByTestId('import-nights').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('import-nights').textContent()).toBe('The files hold several nights: each is imported as a night of its own.');
    expect(await page.getByTestId('import-done').textContent()).toContain('Imported a night from 10 Jan 2025');
    expect(await page.getByTestId('import-done-more').count()).toBe(2);
    expect(await page.getByTestId('import-done-more').first().textContent()).toContain('Imported a night from 10 Sep 2025');
    expect(await page.getByTestId('import-done-more').last().textContent()).toContain('Imported a night from 25 Oct 2025');
    // The picker sent no "._" file (none refused); the duplicate is the upload's, listed once after
    // the nights, not under January's night, whose files it is not.
    expect(await page.getByTestId('import-done').getByTestId('import-skipped-files').count()).toBe(0);
    expect(await page.getByTestId('import-skipped-files').count()).toBe(1);
    const skipped = page.getByTestId('import-skipped-upload');
    expect(await skipped.locator('p').textContent()).toBe('Left out of this upload (1 file):');
    expect(await skipped.locator('li').allTextContents()).toEqual([expect.stringMatching(/^snore_resmed_20250910_223609_(EVE|CSL)\.edf: the same content as snore_resmed_20250910_223609_(EVE|CSL)\.edf in this upload, kept once\.$/)]);
    // Each night's own signals, folded under its line: January's CPAP files (flow, therapy,
    // oximetry) against October's flow file alone, each list as long as its label says.
    const lists = page.getByTestId('import-result-channels');
    expect(await lists.count()).toBe(3);
    const signals: { label: string; rows: string[] }[] = [];
    for (const list of await lists.all()) {
      await list.locator('summary').click();
      signals.push({ label: await list.locator('summary').innerText(), rows: await list.getByTestId('import-channel').locator('td:first-child').allInnerTexts() });
    }
    expect(signals[0].label).toMatch(/^Every signal of the night from 10 Jan 2025, 00:07 \((\d+)\)$/);
    expect(signals[1].label).toMatch(/^Every signal of the night from 10 Sep 2025, 22:36 \((\d+)\)$/);
    expect(signals[2].label).toMatch(/^Every signal of the night from 25 Oct 2025, 00:58 \((\d+)\)$/);
    for (const s of signals) expect(s.label).toContain(`(${s.rows.length})`);
    expect(signals[2].rows.length).toBeLessThan(signals[0].rows.length);
    expect(signals[0].rows).toEqual(expect.arrayContaining(['NC_PSG', 'PR', 'SPO2_PSG']));
    expect(signals[2].rows).toEqual(['NC_PSG', 'Press.40ms']);
    // Both are the patient's nights; the screen opens the first.
    const nights = await page.evaluate(async () => {
      const pid = /id=(\d+)/.exec(location.pathname)![1]!;
      const token = JSON.parse(localStorage.getItem('nocturne.session') ?? '{}').token as string;
      const res = await fetch(`/api/v1/patient/available-nights?patient_id=${pid}`, { headers: { Authorization: `Bearer ${token}` } });
      return ((await res.json()).data.nights as { recording_date: string }[]).map((n) => n.recording_date);
    });
    expect(nights).toEqual(['2025-01-09', '2025-09-10', '2025-10-24']);
    await expect.poll(() => new URL(page.url()).searchParams.get('night'), { timeout: 30_000 }).toBe(String(Date.UTC(2025, 0, 9) / 1000));
    // The ResMed writes its breathing rate in "bpm" (it reads as beats): the chart gives Nocturne's unit (decision 1044).
    await expect.poll(() => page.getByTestId('stats-BR').innerText(), { timeout: 30_000 }).toMatch(/\d \(\/min\)$/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an annotator sees the device events but cannot edit them', async () => {
    const { context, page, errors } = await newPage(browser, server.url);
    await page.goto(patientUrl);
    await signInThroughForm(page, server.url, DEMO.annotator);
    await page.getByTestId('annotation-sidebar').waitFor();
    await expect.poll(() => page.getByTestId('annotation-row-device').count(), { timeout: 30_000 }).toBe(7);
    expect(await page.getByTestId('annotation-row-edit').count()).toBe(0);
    await page.getByTestId('annotation-row-device').first().locator('.annotation-open').click();
    // No popup to edit from: the view moves to the event.
    expect(await page.getByTestId('annotation-popup').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a channel with no valid sample all night says so instead of drawing an invented value axis', async () => {
    const { context, page, errors } = await newPage(browser, server.url);
    await page.goto(patientUrl);
    await signInThroughForm(page, server.url, DEMO.physician);
    await page.getByTestId('annotation-sidebar').waitFor();
    await importThroughScreen(page, [SA2]);
    await expect.poll(() => page.getByTestId('import-done').textContent(), { timeout: 30_000 }).toContain('Added to the night the patient already had, which now starts');
    await page.getByTestId('channel-PR').waitFor({ timeout: 30_000 });
    if ((await page.getByTestId('channel-PR').getAttribute('aria-pressed')) !== 'true') await page.getByTestId('channel-PR').click();
    await expect.poll(() => page.getByTestId('all-missing-PR').textContent(), { timeout: 30_000 }).toBe('Every sample of Pulse rate in this night is missing (the sensor recorded no valid value).');
    expect(await page.getByTestId('y-axis-PR').evaluate((el) => getComputedStyle(el).visibility)).toBe('hidden');
    // The stats readout has no figure to give either.
    await expect.poll(() => page.getByTestId('stats-PR').innerText()).toBe('no valid sample in this window');
    // A channel with values (the oximeter export's SpO2) keeps its axis.
    if ((await page.getByTestId('channel-SPO2').getAttribute('aria-pressed')) !== 'true') await page.getByTestId('channel-SPO2').click();
    expect(await page.getByTestId('y-axis-SPO2').evaluate((el) => getComputedStyle(el).visibility)).toBe('visible');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a CPAP night whose oximeter recorded nothing opens on its flow, not on empty pulse charts, and again after a reload', async () => {
    const { context, page, errors } = await newPage(browser, server.url);
    await page.goto('/app/signin');
    await signInThroughForm(page, server.url, DEMO.physician);
    await openPatient(page, 'NCT1003');
    await importThroughScreen(page, [BRP, SA2, EVE]);
    await expect.poll(() => page.getByTestId('import-done').textContent(), { timeout: 30_000 }).toContain('7 device-scored events kept as annotations.');
    await expect.poll(() => new URL(page.url()).searchParams.get('night'), { timeout: 30_000 }).toBe(String(Date.UTC(2025, 7, 7) / 1000));
    await page.getByTestId('annotation-sidebar').waitFor({ timeout: 30_000 });
    for (const visit of ['opened after the import', 'reloaded']) {
      if (visit === 'reloaded') await page.reload();
      // The flow (a PSG channel, off by default) is shown, with its axis; the pulse chart, every sample missing, is not.
      await expect.poll(() => page.getByTestId('channel-NC_PSG').getAttribute('aria-pressed'), { timeout: 30_000, message: visit }).toBe('true');
      expect(await page.getByTestId('channel-PR').getAttribute('aria-pressed'), visit).toBe('false');
      await expect.poll(() => page.getByTestId('y-axis-NC_PSG').evaluate((el) => getComputedStyle(el).visibility), { timeout: 30_000, message: visit }).toBe('visible');
      expect(await page.getByTestId('all-missing-PR').count(), visit).toBe(0);
    }
    // The summary's "–" say why: no valid SpO2 for the ODI, no valid value for the oximeter's vitals (issue 31).
    await page.getByTestId('tab-summary').click();
    await expect.poll(() => page.getByTestId('summary-odi').innerText(), { timeout: 30_000 }).toContain('– (no valid SpO2 recorded)');
    for (const code of ['SPO2', 'PR']) {
      expect(await page.getByTestId(`summary-${code}-note`).textContent(), code).toBe('The sensor recorded no valid value in this night: every figure is –.');
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it("an oximeter-only night exported by the phone app in day/month dates is imported on its night, its ODI counted; a date no row settles is refused (decision 1045); a staging-only night claims no oximeter", async () => {
    // ViHealth's O2Ring export on a day/month phone, 4-s rows from 23:12:04 on 3 Nov 2026 for 7 h: the
    // dates 03/11 and 04/11 read either way, the night's midnight tells which. From 3.5 h on, a 5-point
    // dip every 6 minutes (35 desaturations); the finger out for 4 minutes at 2 h ('--').
    const rows = ['Time,Oxygen Level,Pulse Rate,Motion,O2 Reminder,PR Reminder'];
    const from = Date.UTC(2026, 10, 3, 23, 12, 4);
    const two = (n: number) => String(n).padStart(2, '0');
    for (let s = 0; s < 7 * 3600; s += 4) {
      const d = new Date(from + s * 1000);
      const stamp = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} ${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
      const dip = s >= 3.5 * 3600 && s % 360 >= 160 && s % 360 < 200;
      const off = s >= 2 * 3600 && s < 2 * 3600 + 240;
      rows.push(off ? `${stamp},--,--,3,0,0` : `${stamp},${dip ? 91 : 96},${dip ? 68 : 62},0,0,0`);
    }
    const night = path.join(dir, 'O2Ring_20261103231204.csv');
    await writeFile(night, rows.join('\r\n'));
    const nap = path.join(dir, 'O2Ring_nap.csv');
    await writeFile(nap, ['Time,Oxygen Level,Pulse Rate,Motion', '14:00:00 03/04/2026,96,62,0', '14:00:04 03/04/2026,95,61,0'].join('\r\n'));

    const { context, page, errors } = await physicianOnPatientWithoutNights(browser, server.url, 'NCT1002');
    await importThroughScreen(page, [nap], 'Europe/Zurich');
    await expect.poll(() => page.getByTestId('import-error-files').textContent(), { timeout: 30_000 }).toContain(
      'O2Ring_nap.csv: Time: its dates (such as "03/04/2026") read as day/month and as month/day alike, and neither its rows, its name nor the upload\'s other files tell which',
    );
    await importThroughScreen(page, [night], 'Europe/Zurich');
    await expect.poll(() => page.getByTestId('import-done').textContent(), { timeout: 30_000 }).toContain('Imported a night from 03 Nov 2026, 23:12, 07:00:00 long');
    await expect.poll(() => new URL(page.url()).searchParams.get('night'), { timeout: 30_000 }).toBe(String(Date.UTC(2026, 10, 3) / 1000));
    // A night without the radar opens on the oximeter's charts.
    await expect.poll(() => page.getByTestId('channel-SPO2').getAttribute('aria-pressed'), { timeout: 30_000 }).toBe('true');
    await page.getByTestId('tab-summary').click();
    // 35 dips over 6:56:00 of valid SpO2 (7 h less the 4 minutes without a finger).
    await expect.poll(() => page.getByTestId('summary-odi').innerText(), { timeout: 30_000 }).toMatch(/Desaturations\s+35/);
    expect(await page.getByTestId('summary-odi').innerText()).toContain((35 / (6 + 56 / 60)).toFixed(2));
    expect(await page.getByTestId('summary-panel').innerText()).toMatch(/Total sleep time \(h:mm:ss\)\s+– \(no sleep staging\)/);
    const noBreathing = 'This night has no breathing signal (flow, cannula or radar): AHI/REI and RII cannot be computed and show –.';
    expect(await page.getByTestId('summary-rii').innerText()).toContain(`${noBreathing} ODI and SpO2 come from the oximeter.`);

    // A night of sleep staging alone (an HMC hypnogram) has no oximeter either: the note does not claim one.
    await openPatient(page, 'NCT1001');
    await importThroughScreen(page, [path.join(REAL, 'hmc_SN001_hypnogram_test_edfann.edf')], 'UTC');
    await expect.poll(() => page.getByTestId('import-done').textContent(), { timeout: 30_000 }).toContain('channels Sleep stages');
    await page.getByTestId('tab-summary').click();
    await expect.poll(() => page.getByTestId('summary-odi').innerText(), { timeout: 30_000 }).toContain('– (no SpO2 channel)');
    const staged = await page.getByTestId('summary-rii').innerText();
    expect(staged).toContain(noBreathing);
    expect(staged).not.toContain('oximeter');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a PSG whose breathing signal covers none of the sleep shows no AHI, with the reason, not 0 (decision 1033)', async () => {
    const { context, page, errors } = await newPage(browser, server.url);
    await page.goto('/app/signin');
    await signInThroughForm(page, server.url, DEMO.physician);
    await openPatient(page, 'NCT1004');
    // Sleep-EDF SC4001: 5 min of PSG (oro-nasal flow, all scored wake) and the expert hypnogram of the night.
    await importThroughScreen(page, [path.join(REAL, 'sleepedf_SC4001E0_short_psg.edf'), path.join(REAL, 'sleepedf_SC4001EC_hypnogram.edf')]);
    await expect.poll(() => page.getByTestId('import-done').textContent(), { timeout: 30_000 }).toContain('22:05:00');
    await page.getByTestId('annotation-sidebar').waitFor({ timeout: 30_000 });
    await page.getByTestId('tab-summary').click();
    const ahi = page.getByTestId('summary-panel').getByTestId('summary-ahi');
    await expect.poll(() => ahi.innerText(), { timeout: 30_000 }).toContain('– (no breathing signal during sleep)');
    expect(await ahi.innerText()).not.toContain('0.00');
    expect(await ahi.innerText()).toContain("This night's breathing signal was recorded during none of its sleep");
    // The sleep itself is there: 5:26:30 of it.
    expect(await page.getByTestId('summary-panel').getByTestId('summary-recording').innerText()).toContain('5:26:30');

    // The same scoring as a cohort ships it (NSRR XML beside the EDF), picked with the EDF: one
    // upload, the same night and sleep, and its scored events the night's (decision 1048).
    const xml = path.join(dir, 'sleepedf_SC4001E0_short_psg-nsrr.xml');
    await writeFile(xml, nsrrXmlOf(new Uint8Array(await readFile(path.join(REAL, 'sleepedf_SC4001EC_hypnogram.edf'))), SCORED));
    await openPatient(page, 'NCT1003');
    await importThroughScreen(page, [path.join(REAL, 'sleepedf_SC4001E0_short_psg.edf'), xml]);
    const done = page.getByTestId('import-done');
    await expect.poll(() => done.textContent(), { timeout: 30_000 }).toContain('22:05:00');
    expect(await done.textContent()).toContain('5 device-scored events kept as annotations.');
    await page.getByTestId('annotation-sidebar').waitFor({ timeout: 30_000 });
    // Each scored event by its own name in the window's list: the arousal is no "Apnea".
    const listed = page.getByTestId('window-annotations');
    await expect.poll(() => listed.innerText(), { timeout: 30_000 }).toContain('ASDA arousal');
    expect((await listed.innerText()).match(/Obstructive apnea/g)).toHaveLength(2);
    expect(await listed.innerText()).not.toMatch(/^Apnea\b/m);
    // The annotation list says who scored them: the file's scorer, not a device.
    await expect.poll(() => page.getByTestId('annotation-row-device').first().innerText(), { timeout: 30_000 }).toContain('Scorer (NSRR XML)');
    await page.getByTestId('tab-summary').click();
    await expect.poll(() => page.getByTestId('summary-panel').getByTestId('summary-recording').innerText(), { timeout: 30_000 }).toContain('5:26:30');
    await expect.poll(() => page.getByTestId('summary-device-events').innerText(), { timeout: 30_000 }).toContain('Scored events (NSRR XML)');
    expect(await page.getByTestId('summary-device-events').innerText()).toContain('Scorer (NSRR XML)');
    expect(await page.getByTestId('device-apneas').innerText()).toBe('2');
    expect(await page.getByTestId('device-hypopneas').innerText()).toBe('1');
    // Nocturne could score nothing here: its counts are "–", as its AHI is, not 0.
    expect(await page.getByTestId('nocturne-apneas').innerText()).toBe('–');
    expect(await page.getByTestId('nocturne-hypopneas').innerText()).toBe('–');
    // The scorer's AHI as a lab reports it: 3 events over 5.44 h of sleep, not over the recording's 22 h.
    expect(await page.getByTestId('summary-agreement').innerText()).toContain('NSRR XML AHI (its events per hour of sleep, 5.44 h)');
    expect(await page.getByTestId('agreement-device-ahi').innerText()).toBe((3 / ((653 * 30) / 3600)).toFixed(2));
    expect(await page.getByTestId('agreement-rules').innerText()).toContain('Rules: NSRR XML as its scorer scored it;');
    // The 5-min PSG's flow covers none of the sleep: Nocturne could score nothing, so nothing is compared (no "0 %").
    expect(await page.getByTestId('agreement-not-compared').innerText()).toBe('Not compared (no breathing signal during sleep): Nocturne could score no apnea or hypopnea in this night.');
    for (const id of ['agreement-matched', 'agreement-missed', 'agreement-sensitivity', 'agreement-ppv', 'agreement-apneas']) expect(await page.getByTestId(id).innerText(), id).toBe('–');
    expect(await page.getByTestId('summary-agreement').innerText()).toContain('Missed (scorer only)');
    expect(errors).toEqual([]);
    await context.close();
  });
  it("a PSG imported alone, then its lab's hypnogram through \"Import scoring file\" on the night: the night's sleep staging, as if uploaded together (decision 1051)", async () => {
    const { context, page, errors } = await newPage(browser, server.url);
    await page.goto('/app/signin');
    await signInThroughForm(page, server.url, DEMO.physician);
    await openPatient(page, 'NCT1002');
    await importThroughScreen(page, [path.join(REAL, 'sleepedf_SC4001E0_short_psg.edf')]);
    await expect.poll(() => page.getByTestId('import-done').textContent(), { timeout: 30_000 }).toContain('00:05:00 long');
    await page.getByTestId('annotation-sidebar').waitFor({ timeout: 30_000 });
    await page.getByTestId('tab-summary').click();
    const tst = page.getByTestId('summary-panel').getByTestId('summary-recording');
    await expect.poll(() => tst.innerText(), { timeout: 30_000 }).toContain('no sleep staging');
    expect(await tst.innerText()).not.toContain('5:26:30');
    // The lab's hypnogram picked in the night's scoring files (beside the annotations): the night's staging, said so.
    await page.getByTestId('tab-overview').click();
    await page.getByTestId('import-scoring-file').setInputFiles(path.join(REAL, 'sleepedf_SC4001EC_hypnogram.edf'));
    const notice = page.getByTestId('annotations-notice');
    await expect.poll(() => notice.innerText(), { timeout: 30_000 }).toMatch(/^sleepedf_SC4001EC_hypnogram\.edf: its 2,650 sleep-stage epochs are now this night's sleep staging; the file is listed with the night's files\.$/);
    // The Summary's sleep, without a reload: 5:26:30 of it, as from the upload of both files.
    await page.getByTestId('tab-summary').click();
    await expect.poll(() => tst.innerText(), { timeout: 30_000 }).toContain('5:26:30');
    expect(await tst.innerText()).not.toContain('no sleep staging');
    expect(errors).toEqual([]);
    await context.close();
  });
});
