import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chartsSettled, DEMO, newPage, signedInSuite, signInThroughForm, tracePixels } from './harness';

// The single-night review (issue 5) through the real app: the demo seed gives NCT1001
// several simulated nights, the latest 10 hours or more.

// The real server with the demo nights simulated at start (the harness turns them off by
// default), one page signed in as the physician.
const suite = signedInSuite(DEMO.physician, 'dashboard', { SEED_NIGHTS: '1' });
let base = '';
let browser: Browser;
let page: Page;
let errors: string[];
beforeAll(() => ({ base, browser, page, errors } = suite));

interface Stats {
  frames: number;
  drawCalls: number;
  lastFrameComplete: boolean;
  renders: Record<string, number>;
}
const stats = () => page.evaluate(() => JSON.parse(JSON.stringify(window.__nocturneStats)) as Stats);
const renders = (s: Stats) => Object.values(s.renders).reduce((a, b) => a + b, 0);
const readout = () => page.getByTestId('span-readout');
const spanMs = async () => Number(await readout().getAttribute('data-span'));
const startMs = async () => Number(await readout().getAttribute('data-t0'));

/** Waits until the GL frames stop and the last one drew final data. */
const settled = () => chartsSettled(page);

/** Pixels of one plot as the compositor shows them (the GL canvas under the DOM box). */
const plotPixels = async (code: string) => (await page.getByTestId(`plot-${code}`).screenshot()).toString('base64');

/** The night key of NCT1001's longest night (the seed gives it one of 10 hours or more). */
async function longestNight(patientId: string): Promise<number> {
  return page.evaluate(async (id) => {
    const token = JSON.parse(localStorage.getItem('nocturne.session') ?? '{}').token as string;
    const res = await fetch(`/api/v1/patient/available-nights?patient_id=${id}`, { headers: { Authorization: `Bearer ${token}` } });
    const nights = (await res.json()).data.nights as { night: number; recording_start_time: number; recording_stop_time: number }[];
    return nights.reduce((a, b) => (b.recording_stop_time - b.recording_start_time > a.recording_stop_time - a.recording_start_time ? b : a)).night;
  }, patientId);
}

/** Opens NCT1001 from the patient list, picks its 10-hour night and waits for the visible channels to load. */
async function openNight(): Promise<void> {
  await page.goto('/app/patients');
  await page.getByTestId('patient-link').filter({ hasText: 'NCT1001' }).click();
  await page.getByTestId('night-page').waitFor();
  const id = /id=(\d+)/.exec(page.url())![1]!;
  const night = await longestNight(id);
  if ((await page.getByTestId('night-picker').getAttribute('data-night')) !== String(night)) {
    // The calendar offers only days with a recording; the seeded nights are all in view of the latest month or the one before.
    const date = new Date(night * 1000).toISOString().slice(0, 10);
    await page.getByTestId('night-picker').click();
    const day = page.getByTestId(`night-day-${date}`);
    if (!(await day.count())) await page.getByRole('button', { name: 'Previous month' }).click();
    await day.click();
    await page.waitForURL((u) => u.search === `?night=${night}`);
  }
  await page.getByTestId('chart-stack').waitFor({ timeout: 60_000 });
  await expect.poll(() => page.getByTestId('channel-BR').isEnabled(), { timeout: 90_000 }).toBe(true);
  await settled();
}

describe('single-night review', () => {
  it('opens the latest night, then the 10-hour night on Full Night, with the patient header', async () => {
    await page.goto('/app/patients');
    await page.getByTestId('patient-link').filter({ hasText: 'NCT1001' }).click();
    await page.getByTestId('night-page').waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/app\/patients\/id=\d+$/);
    // Without ?night= the latest night is chosen, shown as dd MMM yyyy.
    const id = /id=(\d+)/.exec(page.url())![1]!;
    const latest = await page.evaluate(async (pid) => {
      const token = JSON.parse(localStorage.getItem('nocturne.session') ?? '{}').token as string;
      const res = await fetch(`/api/v1/patient/available-nights?patient_id=${pid}`, { headers: { Authorization: `Bearer ${token}` } });
      const nights = (await res.json()).data.nights as { night: number }[];
      return { last: nights.at(-1)!.night, all: nights.map((n) => n.night) };
    }, id);
    expect(await page.getByTestId('night-picker').getAttribute('data-night')).toBe(String(latest.last));
    expect(await page.getByTestId('night-picker').innerText()).toMatch(/^\d{2} [A-Z][a-z]{2} \d{4}/);
    // The calendar enables exactly the recorded days of the month shown.
    await page.getByTestId('night-picker').click();
    const enabled = await page.getByTestId('night-calendar').locator('button.night-day:enabled').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice(10)));
    const month = new Date(latest.last * 1000).toISOString().slice(0, 7);
    expect(enabled).toEqual(latest.all.map((n) => new Date(n * 1000).toISOString().slice(0, 10)).filter((d) => d.startsWith(month)));
    await page.getByTestId('night-picker').click();
    await openNight();
    await expect.poll(() => page.getByTestId('bio-header').innerText()).toContain('Anna Keller');
    expect(await page.getByTestId('range-preset').inputValue()).toBe('full');
    expect(await spanMs()).toBeGreaterThanOrEqual(10 * 3_600_000);
    // Stats of the visible window come from the engine.
    await expect.poll(() => page.getByTestId('stats-BR').innerText()).toMatch(/min \d.*p90 \d/);
    // In the channel's unit, as the tooltip gives it: a vital's is Nocturne's (decision 1044).
    expect(await page.getByTestId('stats-BR').innerText()).toMatch(/p90 [\d.]+ \(\/min\)$/);
    // A chart of two signals (radar I and Q) names the one its line reads.
    await expect.poll(() => page.getByTestId('stats-IQ').innerText()).toMatch(/^Radar signal I \(in-phase\): min -?\d/);
    // Coded channels (sleep stages, sleep/wake, in bed) have no min/max/percentiles of their codes.
    await page.getByTestId('chart-block-SLP_STGS').waitFor();
    expect(await page.getByTestId('stats-SLP_STGS').count()).toBe(0);
    // ODI (non-paid physician) has no series in a single night: the spec's empty message.
    expect(await page.getByTestId('no-data-ODI').innerText()).toBe('No data available for ODI.');
    // No values, so no value axis either (no invented 0.1-0.9 labels); a chart with data keeps its own.
    expect(await page.getByTestId('y-axis-ODI').evaluate((el) => getComputedStyle(el).visibility)).toBe('hidden');
    expect(await page.getByTestId('y-axis-BR').evaluate((el) => getComputedStyle(el).visibility)).toBe('visible');
    // Expanding a block gives it (window height - 200) / count.
    const collapsed = (await page.getByTestId('plot-HR').boundingBox())!.height;
    await page.getByTestId('expand-HR').click();
    await expect.poll(async () => (await page.getByTestId('plot-HR').boundingBox())!.height).toBe(800 - 200);
    await page.getByTestId('expand-HR').click();
    await expect.poll(async () => (await page.getByTestId('plot-HR').boundingBox())!.height).toBe(collapsed);
    // PSG channels are off by default and tagged.
    expect(await page.getByTestId('channel-NC_PSG').getAttribute('aria-pressed')).toBe('false');
    expect(await page.getByTestId('channel-NC_PSG').innerText()).toContain('PSG');
    // A night's two blood-pressure readings (evening and morning, at the night's ends) are
    // visible points, not 1–2-px specks cut by the edges.
    await page.getByTestId('plot-bp').scrollIntoViewIfNeeded();
    await settled();
    const box = (await page.getByTestId('plot-bp').boundingBox())!;
    const shot = await page.screenshot({ clip: { x: box.x, y: box.y, width: box.width, height: box.height } });
    // Two whole 6 × 6 systolic points (72 px): one at each end of the window, neither half cut off by its edge.
    expect(tracePixels(shot)).toBeGreaterThanOrEqual(64);
  });

  it('steps 30-second epochs with the arrow keys (Shift: 20 %): no React render, at most one draw per frame, new pixels each page', async () => {
    await page.getByTestId('range-preset').selectOption('30s');
    await settled();
    expect(await spanMs()).toBe(30_000);
    expect(await readout().innerText()).toMatch(/^00:00:30 /);
    const t0 = await startMs();
    const code = (await page.getByTestId('plot-Y_DIST').count()) ? 'Y_DIST' : 'BR';
    // Animation frames of the page, counted beside the renderer's draws.
    await page.evaluate(() => {
      const w = window as unknown as { __ticks: number };
      w.__ticks = 0;
      const tick = () => {
        w.__ticks++;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const ticks = () => page.evaluate(() => (window as unknown as { __ticks: number }).__ticks);
    const before = await stats();
    const ticksBefore = await ticks();
    const first = await plotPixels(code);
    await page.keyboard.press('ArrowRight');
    await settled();
    const second = await plotPixels(code);
    expect(second).not.toBe(first);
    // A plain arrow steps one whole epoch (issue 14); Shift + arrow pages 20 % without the debounce.
    expect(await startMs()).toBe(t0 + 30_000);
    for (let i = 1; i < 20; i++) await page.keyboard.press('Shift+ArrowRight');
    for (let i = 0; i < 5; i++) await page.keyboard.press('Shift+ArrowLeft');
    await settled();
    const after = await stats();
    const ticksAfter = await ticks();
    expect(await startMs()).toBe(t0 + 30_000 + 14 * 6_000);
    expect(await spanMs()).toBe(30_000);
    expect(await plotPixels(code)).not.toBe(second);
    // 26 page steps: frames were drawn, never two in one animation frame, no component rendered.
    expect(after.frames).toBeGreaterThan(before.frames);
    expect(after.frames - before.frames).toBeLessThanOrEqual(ticksAfter - ticksBefore);
    expect(renders(after)).toBe(renders(before));
    // The → button steps like the key in 30 Sec: from this window off the grid (Shift paged it
    // there) to the next whole epoch on the grid, never 20 %.
    const offGrid = await startMs();
    await page.getByTestId('page-right').click();
    await expect.poll(startMs).toBeGreaterThan(offGrid);
    const onGrid = await startMs();
    expect((onGrid - t0) % 30_000).toBe(0);
    expect(onGrid - offGrid).toBeLessThanOrEqual(60_000);
    expect(await spanMs()).toBe(30_000);
  });

  it('double-click zooms to 3 minutes then 30 seconds; undo and redo walk back and forth', async () => {
    await page.getByTestId('range-preset').selectOption('full');
    await settled();
    const plot = page.getByTestId('plot-BR');
    await plot.dblclick();
    await expect.poll(spanMs).toBe(180_000);
    await plot.dblclick();
    await expect.poll(spanMs).toBe(30_000);
    await page.getByTestId('zoom-undo').click();
    await expect.poll(spanMs).toBe(180_000);
    await page.getByTestId('zoom-undo').click();
    await expect.poll(spanMs).toBeGreaterThanOrEqual(10 * 3_600_000);
    await page.getByTestId('zoom-redo').click();
    await expect.poll(spanMs).toBe(180_000);
    expect(await page.getByTestId('range-preset').inputValue()).toBe('');
    await page.getByTestId('zoom-reset').click();
    await expect.poll(spanMs).toBeGreaterThanOrEqual(10 * 3_600_000);
  });

  it('drag-selects a window', async () => {
    await page.getByTestId('plot-HR').scrollIntoViewIfNeeded();
    const box = (await page.getByTestId('plot-HR').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    // A quarter of the plot's width: about a quarter of the night.
    await expect.poll(spanMs).toBeLessThan(4 * 3_600_000);
    expect(await spanMs()).toBeGreaterThan(2 * 3_600_000);
    await page.getByTestId('zoom-reset').click();
    await expect.poll(spanMs).toBeGreaterThanOrEqual(10 * 3_600_000);
  });

  it('Ctrl + wheel zooms around the pointer (one undo step a gesture); a wheel without Ctrl scrolls the page', async () => {
    await page.getByTestId('zoom-reset').click();
    await expect.poll(spanMs).toBeGreaterThanOrEqual(10 * 3_600_000);
    await page.getByTestId('plot-HR').scrollIntoViewIfNeeded();
    const box = (await page.getByTestId('plot-HR').boundingBox())!;
    const full = { t0: await startMs(), span: await spanMs() };
    // The pointer a quarter of the way across the plot: that time stays under it.
    const at = full.t0 + full.span * 0.25;
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2);
    await page.keyboard.down('Control');
    for (let i = 0; i < 3; i++) await page.mouse.wheel(0, -100);
    await page.keyboard.up('Control');
    // Three notches in: 0.78³ of the night (about 4.7 of its 10 hours).
    await expect.poll(spanMs).toBeLessThan(full.span * 0.55);
    const span = await spanMs();
    expect(span).toBeGreaterThan(full.span * 0.4);
    expect(Math.abs((at - (await startMs())) / span - 0.25)).toBeLessThan(0.02);
    expect(await page.getByTestId('range-preset').inputValue()).toBe('');
    // The browser's page zoom stayed where it was.
    expect(await page.evaluate(() => window.visualViewport?.scale ?? 1)).toBe(1);
    // One gesture, one undo step. The notches above are a user's, each sent once the page took
    // the one before: on a loaded machine they may come more than a gesture's 400 ms apart (CI).
    // Three notches in one burst are one gesture on any machine: one undo gives the window back.
    await page.getByTestId('zoom-reset').click();
    await expect.poll(spanMs).toBe(full.span);
    await page.evaluate(() => {
      const plot = document.querySelector('[data-testid="plot-HR"]')!;
      const r = plot.getBoundingClientRect();
      const at = { clientX: r.left + r.width * 0.25, clientY: r.top + r.height / 2 };
      const notches = () => {
        for (let i = 0; i < 3; i++) plot.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, ctrlKey: true, ...at, bubbles: true, cancelable: true }));
      };
      // A gesture, Reset zoom, and a second gesture, all within a gesture's 400 ms: the reset ends
      // the first gesture, so the second is an undo step of its own (it once continued the first,
      // and undo then went back past the reset, to the first gesture's window).
      notches();
      document.querySelector<HTMLButtonElement>('[data-testid="zoom-reset"]')!.click();
      notches();
    });
    await expect.poll(spanMs).toBeLessThan(full.span * 0.55);
    await page.getByTestId('zoom-undo').click();
    await expect.poll(spanMs).toBe(full.span);
    // Without Ctrl the wheel scrolls the page and leaves the window.
    const scrolled = await page.evaluate(() => window.scrollY);
    await page.mouse.wheel(0, 200);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled);
    expect(await spanMs()).toBe(full.span);
  });

  it("keyboard focus moving up or down the charts lands in view, never under the sticky navigator or time axis", async () => {
    /** Where the focused control lies against the two sticky bars (null: not a chart's control). */
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        if (!el?.closest('[data-testid="chart-stack"]') || el.closest('.x-axis-row')) return null;
        const b = el.getBoundingClientRect();
        const nav = document.querySelector('[data-testid="navigator"]')!.getBoundingClientRect();
        const axis = document.querySelector('.x-axis-row.sticky-bottom')!.getBoundingClientRect();
        return { label: el.getAttribute('aria-label') ?? el.textContent, clear: b.top >= nav.bottom && b.bottom <= axis.top };
      });
    const walk = async (key: 'Tab' | 'Shift+Tab') => {
      const hidden: string[] = [];
      let seen = 0;
      for (let i = 0; i < 24; i++) {
        await page.keyboard.press(key);
        const f = await focused();
        if (!f) continue;
        seen++;
        if (!f.clear) hidden.push(String(f.label));
      }
      // Several charts' controls were passed, each in view.
      expect(seen).toBeGreaterThan(10);
      expect(hidden).toEqual([]);
    };
    // From the last chart up (the page scrolls down under the navigator) …
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.locator('[data-testid="chart-stack"] .info-tip').last().focus();
    await walk('Shift+Tab');
    // … and from the first chart down (the charts pass under the time axis).
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('[data-testid="chart-stack"] .info-tip').first().focus();
    await walk('Tab');
  });

  it('shows and hides the threshold bands', async () => {
    await settled();
    const plain = await plotPixels('SPO2');
    await page.getByTestId('toggle-thresholds').check();
    await settled();
    expect(await plotPixels('SPO2')).not.toBe(plain);
    await page.getByTestId('toggle-thresholds').uncheck();
    await settled();
    expect(await plotPixels('SPO2')).toBe(plain);
  });

  it('shades bad-signal stretches (SQB) when artefacts are on', async () => {
    const plain = await plotPixels('BR');
    await page.getByTestId('toggle-artefacts').check();
    await settled();
    expect(await plotPixels('BR')).not.toBe(plain);
    await page.getByTestId('toggle-artefacts').uncheck();
    await settled();
    expect(await plotPixels('BR')).toBe(plain);
  });

  it('zooms X and Y together in XY mode; reset zoom restores both', async () => {
    await page.getByTestId('zoom-mode-HR').click();
    await page.getByTestId('plot-HR').scrollIntoViewIfNeeded();
    const box = (await page.getByTestId('plot-HR').boundingBox())!;
    const labels = () => page.getByTestId('chart-block-HR').locator('.y-axis span').allInnerTexts();
    const before = await labels();
    await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.8, { steps: 4 });
    await page.mouse.up();
    await expect.poll(spanMs).toBeLessThan(3 * 3_600_000);
    await expect.poll(labels).not.toEqual(before);
    await page.getByTestId('zoom-reset').click();
    await expect.poll(labels).toEqual(before);
    await page.getByTestId('zoom-mode-HR').click();
  });

  it('opens the window view of BR with a histogram and its threshold bands', async () => {
    // Opened from far down the page: the view's title bar comes out from under the sticky navigator.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.getByTestId('window-BR').click();
    await page.getByTestId('window-view').waitFor();
    await expect
      .poll(() =>
        page.evaluate(() => {
          const close = document.querySelector('[data-testid="window-close"]')!.getBoundingClientRect();
          const navigator = document.querySelector('.navigator.sticky-top')!.getBoundingClientRect();
          return close.top >= navigator.bottom && close.bottom <= window.innerHeight;
        }),
      )
      .toBe(true);
    await expect.poll(() => page.getByTestId('histogram-bar').count()).toBeGreaterThan(10);
    await expect.poll(() => page.getByTestId('histogram-bands').innerText()).toMatch(/moderate \d+/);
    // The window's chart has its own time axis under it, as wide as its plot.
    await expect.poll(() => page.getByTestId('window-time-axis').innerText()).toMatch(/\d{2}:\d{2}/);
    const plot = (await page.getByTestId('window-view').locator('[data-testid^="plot-"]').first().boundingBox())!;
    const axis = (await page.getByTestId('window-time-axis').boundingBox())!;
    expect(Math.abs(axis.x - plot.x)).toBeLessThan(2);
    expect(Math.abs(axis.width - plot.width)).toBeLessThan(2);
    expect(axis.y).toBeGreaterThanOrEqual(plot.y + plot.height - 1);
    expect(await page.getByTestId('chart-stack').count()).toBe(0);
    await page.getByTestId('window-close').click();
    await page.getByTestId('chart-stack').waitFor();
  });

  it('turns a PSG channel on and off, and saves the channel order with a one-second loader', async () => {
    await page.getByTestId('channel-NC_PSG').click();
    await page.getByTestId('chart-block-NC_PSG').waitFor();
    await expect.poll(() => page.getByTestId('channel-BR').isEnabled(), { timeout: 60_000 }).toBe(true);
    await expect.poll(() => page.getByTestId('stats-NC_PSG').innerText()).toMatch(/min -?\d/);
    await page.getByTestId('channel-NC_PSG').click();
    await expect.poll(() => page.getByTestId('chart-block-NC_PSG').count()).toBe(0);
    // How long the loader is in the page, measured in the page as it comes and goes (a poll
    // from here can miss a whole second while a loaded machine holds the page's thread).
    const loaderMs = page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let since = 0;
          const observer = new MutationObserver(() => {
            const shown = document.querySelector('[data-testid="save-loader"]') !== null;
            if (shown && since === 0) since = performance.now();
            if (!shown && since !== 0) {
              observer.disconnect();
              resolve(performance.now() - since);
            }
          });
          observer.observe(document.body, { childList: true, subtree: true });
        }),
    );
    // On a busy page (the CPU slowed 8×) the loader is painted late; it still stays its second.
    const cdp = await suite.context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 });
    try {
      await page.getByTestId('save-order').click();
      expect(await loaderMs).toBeGreaterThanOrEqual(950);
    } finally {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await cdp.detach();
    }
    await page.getByTestId('save-done').waitFor();
  });

  it('reorders blocks by drag and keeps the order after a reload', async () => {
    const order = () => page.getByTestId('chart-stack').locator('[data-code]').evaluateAll((els) => els.map((e) => e.getAttribute('data-code')));
    const initial = await order();
    const [a, b] = initial;
    const saved = page.waitForResponse((r) => r.url().includes('/patient/update-kpi-preferences') && r.ok());
    // Dropped on the other chart's trace (its plot), not only on its title.
    await page.getByTestId(`drag-${b}`).dragTo(page.getByTestId(`plot-${a}`));
    await saved;
    const moved = await order();
    expect(moved.slice(0, 2)).toEqual([b, a]);
    const fetched: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/analytics/patient/channel-data')) fetched.push(r.url());
    });
    await page.reload();
    await page.getByTestId('chart-stack').waitFor({ timeout: 60_000 });
    expect(new URL(page.url()).search).toMatch(/^\?night=\d+$/);
    await expect.poll(order).toEqual(moved);
    // Channel data came from the IndexedDB cache this time.
    await expect.poll(() => page.getByTestId('channel-BR').isEnabled(), { timeout: 60_000 }).toBe(true);
    expect(fetched).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('offers annotators the I and Q channels besides IQ', async () => {
    const annotator = await newPage(browser, base);
    await annotator.page.goto('/');
    await signInThroughForm(annotator.page, base, DEMO.annotator);
    await annotator.page.getByTestId('patients-table').waitFor();
    await annotator.page.getByTestId('patient-link').filter({ hasText: 'NCT1001' }).click();
    await annotator.page.getByTestId('channel-selector').waitFor();
    for (const code of ['IQ', 'I', 'Q']) expect(await annotator.page.getByTestId(`channel-${code}`).count()).toBe(1);
    expect(await page.getByTestId('channel-I').count()).toBe(0);
    expect(annotator.errors).toEqual([]);
    await annotator.context.close();
  });

  it('asks for the low-latency path where WebGL draws on the CPU (SwiftShader here) and draws through it', async () => {
    // Learnt once per browser (the idle probe or the first chart); the charts made after it use it.
    await expect.poll(() => page.evaluate(() => localStorage.getItem('nocturne.webglSoftware'))).toBe('1');
    await page.reload();
    await page.getByTestId('night-page').waitFor();
    await settled();
    const attributes = await page.getByTestId('chart-canvas').first().evaluate((c) => (c as HTMLCanvasElement).getContext('webgl')?.getContextAttributes());
    expect(attributes?.desynchronized).toBe(true);
    await page.getByTestId('plot-BR').scrollIntoViewIfNeeded();
    await settled();
    expect(tracePixels(await page.getByTestId('plot-BR').screenshot())).toBeGreaterThan(200);
  });

  it('clears the channel cache and the remembered nights on logout', async () => {
    const cached = () => page.evaluate(() => new Promise<number>((resolve) => {
      const open = indexedDB.open('nocturne-cache');
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('channel-data')) return resolve(0);
        const count = db.transaction('channel-data').objectStore('channel-data').count();
        count.onsuccess = () => { db.close(); resolve(count.result); };
      };
    }));
    const remembered = () => page.evaluate(() => localStorage.getItem('nocturne.overviewRequests'));
    expect(await cached()).toBeGreaterThan(5);
    // The nights opened are remembered for a reload's early overview request.
    expect(await remembered()).toContain('"recordingId"');
    await page.getByTestId('logout-button').click();
    await page.getByTestId('logout-confirm').click();
    await page.getByTestId('signin-email').waitFor();
    expect(await cached()).toBe(0);
    expect(await remembered()).toBeNull();
  });
});
