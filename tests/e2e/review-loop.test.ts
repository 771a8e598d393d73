import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chartsSettled, DEMO, keyDebouncePassed, trackArrowKeys, signedInSuite, tracePixels } from './harness';

// The annotator's review loop (issue 14) through the real app and real Chromium: drawings
// that follow every layout shift, value axes that follow the window, the scoring mode.

const suite = signedInSuite(DEMO.physician, 'dashboard', { SEED_NIGHTS: '1' }, 240_000);
let page: Page;
let errors: string[];
beforeAll(() => {
  ({ page, errors } = suite);
  // Two cores shared with other work: waits are generous, assertions are not.
  page.setDefaultTimeout(120_000);
  page.setDefaultNavigationTimeout(120_000);
});

/** expect.poll with room for a busy machine (the default second is not enough for a refetch). */
const poll = <T,>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 30_000 });
const readout = () => page.getByTestId('span-readout');
const startMs = async () => Number(await readout().getAttribute('data-t0'));

/** Waits until the GL frames stop and the last one drew final data. */
const settled = () => chartsSettled(page);

/**
 * The pixels the page shows inside a plot's frame, taken without scrolling (an element
 * screenshot would scroll it into view, and a scroll redraws the charts anyway).
 */
async function framePixels(code: string): Promise<Buffer> {
  const box = (await page.getByTestId(`plot-${code}`).boundingBox())!;
  const view = page.viewportSize()!;
  const y0 = Math.max(0, box.y);
  const y1 = Math.min(view.height, box.y + box.height);
  expect(y1 - y0, `plot-${code} in view`).toBeGreaterThan(20);
  return page.screenshot({ clip: { x: box.x, y: y0, width: box.width, height: y1 - y0 } });
}


/** Opens NCT1001 (the demo seed gives it several nights) and waits for its charts. */
async function openPatient(): Promise<void> {
  await page.goto('/app/patients', { waitUntil: 'domcontentloaded' });
  await page.getByTestId('patient-link').filter({ hasText: 'NCT1001' }).click();
  await page.getByTestId('night-page').waitFor();
  await page.getByTestId('chart-stack').waitFor({ timeout: 60_000 });
  await expect.poll(() => page.getByTestId('channel-BR').isEnabled(), { timeout: 90_000 }).toBe(true);
  await settled();
}

describe('a drawing that is always true', { timeout: 600_000 }, () => {
  it('keeps every trace inside its frame when panels open and close above the charts, without a scroll', async () => {
    await openPatient();
    // Tall enough that the first chart stays in view with every panel open.
    await page.setViewportSize({ width: 1280, height: 1800 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await settled();
    // A chart with a trace; every panel below opens above it.
    const code = 'Y_DIST';
    // Each action shifts or resizes the blocks; none scrolls the page.
    const actions: [string, () => Promise<void>][] = [
      ['open Downloads', () => page.locator('[data-testid="night-downloads"] > summary').click()],
      ['open Info', () => page.getByTestId('bio-info-toggle').click()],
      ['expand BR', () => page.getByTestId('expand-BR').click()],
      ['close Info', () => page.getByTestId('bio-info-toggle').click()],
      ['close Downloads', () => page.locator('[data-testid="night-downloads"] > summary').click()],
      ['collapse BR', () => page.getByTestId('expand-BR').click()],
    ];
    let moved = 0;
    for (const [name, act] of actions) {
      const scrollBefore = await page.evaluate(() => window.scrollY);
      const before = await page.getByTestId(`plot-${code}`).boundingBox();
      await act();
      await settled();
      expect(await page.evaluate(() => window.scrollY), name).toBe(scrollBefore);
      const after = await page.getByTestId(`plot-${code}`).boundingBox();
      if (after!.y !== before!.y || after!.height !== before!.height) moved++;
      const seen = await framePixels(code);
      // What a fresh draw of the current layout shows in the same frame.
      await page.evaluate(() => window.dispatchEvent(new Event('resize')));
      await settled();
      const fresh = await framePixels(code);
      expect(tracePixels(seen), `${name}: a trace in the frame`).toBeGreaterThan(200);
      expect(seen.equals(fresh), `${name}: the trace drawn where its frame is now (moved ${Math.round((after!.y - before!.y))} px)`).toBe(true);
    }
    // The layout did shift (otherwise this test proves nothing).
    expect(moved).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});

describe('y that follows the data', { timeout: 300_000 }, () => {
  it('auto-scales each chart to the visible window without clipping, with a fixed range per channel on request', async () => {
    await page.getByTestId('range-preset').selectOption('full');
    await settled();
    const axis = async (code: string) => {
      const el = page.getByTestId(`y-axis-${code}`);
      return [Number(await el.getAttribute('data-lo')), Number(await el.getAttribute('data-hi'))] as const;
    };
    const [fullLo, fullHi] = await axis('BR');
    await page.getByTestId('range-preset').selectOption('30s');
    await page.keyboard.press('Shift+ArrowRight');
    await settled();
    const [lo, hi] = await axis('BR');
    // The 30-s window's own range: narrower than the night's.
    expect(hi - lo).toBeLessThan((fullHi - fullLo) * 0.8);
    // Never clipping: the engine's min and max of the window lie inside the axis.
    const text = await page.getByTestId('stats-BR').innerText();
    const min = Number(/min (-?[\d.]+)/.exec(text)![1]);
    const max = Number(/max (-?[\d.]+)/.exec(text)![1]);
    expect(lo).toBeLessThanOrEqual(min);
    expect(hi).toBeGreaterThanOrEqual(max);
    // Fixed: the physiological range of BR, remembered for the channel.
    await page.getByTestId('y-mode-BR').click();
    await settled();
    expect(await axis('BR')).toEqual([0, 40]);
    await page.getByTestId('y-mode-BR').click();
    await settled();
    const [lo2, hi2] = await axis('BR');
    expect(lo2).toBeLessThanOrEqual(min);
    expect(hi2).toBeLessThan(40);
  });
});

/** The night's annotations as the API lists them (the screen's own token). */
async function apiAnnotations(): Promise<{ annotation_map_id: number; start_ms: number; end_ms: number; label: number; kpiList: string[] }[]> {
  const night = await page.getByTestId('night-picker').getAttribute('data-night');
  const id = /id=(\d+)/.exec(page.url())![1]!;
  return page.evaluate(async ({ id, night }) => {
    const token = JSON.parse(localStorage.getItem('nocturne.session') ?? '{}').token as string;
    const res = await fetch('/api/v1/analytics/patient/get-annotations', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ patient_id: Number(id), night: Number(night) }),
    });
    return (await res.json()).data.annotations;
  }, { id, night });
}

/** Key presses dispatched in one task, as a fast typist's burst reaches the page. */
const burst = (key: string, count: number, init: { shiftKey?: boolean; repeat?: boolean } = {}): Promise<void> =>
  page.evaluate((a: { key: string; count: number; shiftKey: boolean; repeat: boolean }) => {
    for (let i = 0; i < a.count; i++) window.dispatchEvent(new KeyboardEvent('keydown', { key: a.key, bubbles: true, shiftKey: a.shiftKey, repeat: a.repeat }));
  }, { key, count, shiftKey: init.shiftKey ?? false, repeat: init.repeat ?? false });

describe('scoring mode', { timeout: 600_000 }, () => {
  it('steps whole epochs with the 500 ms debounce, Shift for 20 %, scrubs while held, and counts epochs', async () => {
    await page.getByTestId('range-preset').selectOption('full');
    await page.getByTestId('range-preset').selectOption('30s');
    await settled();
    const counter = page.getByTestId('epoch-counter');
    await poll(() => counter.innerText()).toMatch(/^epoch [\d,]+ \/ [\d,]+$/);
    const epoch = async () => Number(await counter.getAttribute('data-epoch'));
    const total = Number(/\/ ([\d,]+)/.exec(await counter.innerText())![1]!.replace(/,/g, ''));
    expect(total).toBeGreaterThan(100);
    await trackArrowKeys(page);
    const t0 = await startMs();
    const e0 = await epoch();
    await page.keyboard.press('ArrowRight');
    await poll(startMs).toBe(t0 + 30_000);
    expect(await epoch()).toBe(e0 + 1);
    // Ten presses inside 500 ms are one step (the spec's debounce).
    await keyDebouncePassed(page);
    await burst('ArrowRight', 10);
    await poll(startMs).toBe(t0 + 60_000);
    // Still one step once the debounce window of the burst has passed.
    await keyDebouncePassed(page);
    expect(await startMs()).toBe(t0 + 60_000);
    // Shift + arrow: 20 % of the window, not debounced.
    await burst('ArrowRight', 2, { shiftKey: true });
    await poll(startMs).toBe(t0 + 72_000);
    expect(await epoch()).toBe(e0 + 2);
    // The next plain step lands on the epoch grid again: back to the epoch the window starts in
    // (epoch 3, shown only from its 12th second), none skipped unseen (decision 1036).
    await page.keyboard.press('ArrowLeft');
    await poll(startMs).toBe(t0 + 60_000);
    await keyDebouncePassed(page);
    await page.keyboard.press('ArrowLeft');
    await poll(startMs).toBe(t0 + 30_000);
    // Holding the key scrubs (repeats move the window every frame), and the release snaps to an epoch.
    await keyDebouncePassed(page);
    await burst('ArrowRight', 1, { repeat: true });
    // Held until the scrub has carried the window two epochs on.
    await poll(startMs).toBeGreaterThanOrEqual(t0 + 90_000);
    await page.evaluate(() => window.dispatchEvent(new KeyboardEvent('keyup', { key: 'ArrowRight', bubbles: true })));
    await settled();
    const scrubbed = await startMs();
    expect(scrubbed).toBeGreaterThanOrEqual(t0 + 60_000);
    expect((scrubbed - t0) % 30_000).toBe(0);
    // The overview strip stays in view at the top while the page scrolls, and a click moves to the epoch clicked.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await settled();
    const strip = (await page.getByTestId('overview').boundingBox())!;
    expect(strip.y).toBeGreaterThanOrEqual(0);
    expect(strip.y + strip.height).toBeLessThanOrEqual(page.viewportSize()!.height);
    await page.getByTestId('overview').click({ position: { x: strip.width / 2, y: strip.height / 2 } });
    await poll(async () => ((await startMs()) - t0) % 30_000).toBe(0);
    expect(Math.abs((await epoch()) - total / 2)).toBeLessThan(total * 0.05);
  });

  it('assigns the bound category to the epoch with a number key, lists it beside the charts, undoes and redoes it', async () => {
    await page.getByTestId('range-preset').selectOption('30s');
    await settled();
    const before = await apiAnnotations();
    // Bind key 1 to Hypoapnea (visible and editable bindings) and put BR in focus.
    await page.locator('[data-testid="scoring-keys"] > summary').click();
    await page.getByTestId('scoring-key-1').selectOption({ label: 'Hypoapnea' });
    await page.locator('[data-testid="scoring-keys"] > summary').click();
    await page.getByTestId('focus-BR').click();
    expect(await page.getByTestId('focus-BR').getAttribute('aria-pressed')).toBe('true');
    const t0 = await startMs();
    await page.keyboard.press('1');
    await poll(async () => (await apiAnnotations()).length).toBe(before.length + 1);
    const added = (await apiAnnotations()).find((a) => !before.some((b) => b.annotation_map_id === a.annotation_map_id))!;
    expect(added.start_ms).toBe(t0);
    expect(added.end_ms).toBe(t0 + 30_000);
    expect(added.kpiList).toEqual(['BR']);
    expect(added.label).toBe(3);
    await poll(() => page.getByTestId('window-annotation').count()).toBe(1);
    expect(await page.getByTestId('window-annotation').innerText()).toContain('Hypoapnea');
    // Ctrl+Z takes it back; Ctrl+Shift+Z makes it again.
    await page.keyboard.press('Control+z');
    await poll(async () => (await apiAnnotations()).length).toBe(before.length);
    await poll(() => page.getByTestId('window-annotation').count()).toBe(0);
    await page.keyboard.press('Control+Shift+z');
    await poll(async () => (await apiAnnotations()).length).toBe(before.length + 1);
    await poll(() => page.getByTestId('window-annotation').count()).toBe(1);
    // An edit is undone as an edit (issue 32.1): 30 s → 45 s, Save, Ctrl+Z gives back the 30-s version, Ctrl+Shift+Z the 45-s one.
    const remade = (await apiAnnotations()).find((a) => !before.some((b) => b.annotation_map_id === a.annotation_map_id))!;
    const lengthS = async () => {
      const a = (await apiAnnotations()).find((x) => x.start_ms === remade.start_ms && x.label === remade.label);
      return a ? (a.end_ms - a.start_ms) / 1000 : null;
    };
    await page.locator(`[data-testid=annotation-row][data-id="${remade.annotation_map_id}"]`).getByTestId('annotation-row-edit').click();
    await page.getByTestId('annotation-duration-s').fill('45');
    await page.getByTestId('annotation-save').click();
    await page.getByTestId('annotation-popup').waitFor({ state: 'detached' });
    await poll(lengthS).toBe(45);
    await page.keyboard.press('Control+z');
    await poll(lengthS).toBe(30);
    expect((await apiAnnotations()).length).toBe(before.length + 1);
    await page.keyboard.press('Control+Shift+z');
    await poll(lengthS).toBe(45);
    await page.keyboard.press('Control+z');
    await poll(lengthS).toBe(30);
    // Stepping on leaves the scored epoch behind.
    await page.keyboard.press('ArrowRight');
    await poll(() => page.getByTestId('window-annotation').count()).toBe(0);
    await page.getByTestId('focus-BR').click();
  });

  it('pages one epoch on the grid with the on-screen ← → buttons, and [ / ] land on the epoch holding an annotation start (issue 32.8)', async () => {
    await page.getByTestId('range-preset').selectOption('30s');
    await settled();
    const epoch = async () => Number(await page.getByTestId('epoch-counter').getAttribute('data-epoch'));
    const a = await startMs();
    const e = await epoch();
    await page.getByTestId('page-right').click();
    await poll(startMs).toBe(a + 30_000);
    expect(await epoch()).toBe(e + 1);
    await page.getByTestId('page-left').click();
    await poll(startMs).toBe(a);
    // An annotation off the grid: Shift+→ moves 6 s, M marks that window with the last category.
    await page.keyboard.press('Shift+ArrowRight');
    await poll(startMs).toBe(a + 6_000);
    await page.keyboard.press('m');
    await poll(async () => (await apiAnnotations()).some((x) => x.start_ms === a + 6_000)).toBe(true);
    // Back from 6 s into the epoch: that epoch, then the one before.
    await page.getByTestId('page-left').click();
    await poll(startMs).toBe(a);
    await page.getByTestId('page-left').click();
    await poll(startMs).toBe(a - 30_000);
    await page.keyboard.press(']');
    await poll(startMs).toBe(a);
    expect(await epoch()).toBe(e);
    await page.getByTestId('page-right').click();
    await poll(startMs).toBe(a + 30_000);
    const starts = (await apiAnnotations()).map((x) => x.start_ms).filter((t) => t < a + 30_000);
    const previous = Math.max(...starts);
    await page.keyboard.press('[');
    await poll(startMs).toBe(a - Math.ceil((a - previous) / 30_000) * 30_000);
  });

  it('goes to the previous and next night with P and N (and the ‹ › buttons), and lists every key on ?', async () => {
    const first = await page.getByTestId('night-picker').getAttribute('data-night');
    await page.keyboard.press('p');
    await poll(() => page.getByTestId('night-picker').getAttribute('data-night')).not.toBe(first);
    const previous = await page.getByTestId('night-picker').getAttribute('data-night');
    expect(Number(previous)).toBeLessThan(Number(first));
    await page.getByTestId('chart-stack').waitFor();
    await page.keyboard.press('n');
    await poll(() => page.getByTestId('night-picker').getAttribute('data-night')).toBe(first);
    await page.getByTestId('night-previous').click();
    await poll(() => page.getByTestId('night-picker').getAttribute('data-night')).toBe(previous);
    await page.getByTestId('night-next').click();
    await poll(() => page.getByTestId('night-picker').getAttribute('data-night')).toBe(first);
    await page.keyboard.press('?');
    await page.getByTestId('key-help').waitFor();
    const text = await page.getByTestId('key-help').innerText();
    for (const k of ['Shift + ← / →', '1 – 9', 'Ctrl + Z', 'N / P', 'M', '] / [', 'Mouse']) expect(text).toContain(k);
    await page.getByTestId('key-help-close').click();
    expect(errors).toEqual([]);
  });

  it('switching nights 50 times, often before a night finished loading, leaves only the night on screen in the worker, in the same memory', async () => {
    const engine = () => page.evaluate(async () => ({ channels: await window.__nocturneEngine!.channels(), memory: await window.__nocturneEngine!.memory() }));
    // Settled frames may still be drawn from the overviews: the night's channels have all
    // loaded once the charts are no longer busy.
    const loaded = async () => {
      await settled();
      await page.locator('.night-charts[aria-busy="false"]').waitFor();
    };
    await loaded();
    const night = await page.getByTestId('night-picker').getAttribute('data-night');
    const before = await engine();
    const nights = new Set(before.channels.map((c) => c.night));
    expect(nights.size).toBe(1);
    expect(before.memory.channels).toBeGreaterThan(3);
    // Back and forth between this night and the one before: most switches come while the
    // other night's channels are still on their way (as soon as the route changed, or once the
    // engine holds one, two or three of them), some after it settled.
    // The engine names a night's channels by patient and recording (p<id>r<recording>).
    const refs = await page.evaluate(async () => {
      const pid = /id=(\d+)/.exec(location.pathname)![1]!;
      const token = JSON.parse(localStorage.getItem('nocturne.session') ?? '{}').token as string;
      const res = await fetch(`/api/v1/patient/available-nights?patient_id=${pid}`, { headers: { Authorization: `Bearer ${token}` } });
      const list = (await res.json()).data.nights as { night: number; recording_id: number }[];
      return Object.fromEntries(list.map((n) => [String(n.night), `p${pid}r${n.recording_id}`]));
    });
    const holding = (want: number) =>
      page.waitForFunction(
        async ({ n, byNight }) => {
          const ref = byNight[document.querySelector('[data-testid=night-picker]')?.getAttribute('data-night') ?? ''];
          return (await window.__nocturneEngine!.channels()).filter((c) => c.night === ref).length >= n;
        },
        { n: want, byNight: refs },
      );
    for (let k = 0; k < 50; k++) {
      const from = await page.getByTestId('night-picker').getAttribute('data-night');
      await page.keyboard.press(k % 2 === 0 ? 'p' : 'n');
      if (k % 10 === 9) await settled();
      else {
        await poll(() => page.getByTestId('night-picker').getAttribute('data-night')).not.toBe(from);
        if (k % 4 > 0) await holding(k % 4);
      }
    }
    // Back on the first night (a press that came while the route changed may have been taken once more).
    for (let i = 0; i < 4; i++) {
      await settled();
      const shown = await page.getByTestId('night-picker').getAttribute('data-night');
      if (shown === night) break;
      await page.keyboard.press(Number(shown) < Number(night) ? 'n' : 'p');
    }
    await poll(() => page.getByTestId('night-picker').getAttribute('data-night')).toBe(night);
    await loaded();
    await poll(async () => (await engine()).memory.channels).toBe(before.memory.channels);
    const after = await engine();
    // Only this night's channels, each once: nothing of a cancelled load stayed behind.
    expect(new Set(after.channels.map((c) => c.night))).toEqual(nights);
    expect(after.channels.map((c) => c.code).sort()).toEqual(before.channels.map((c) => c.code).sort());
    // The engine's allocator holds what it held before (the same channels), and its memory stopped growing.
    expect(after.memory.liveBytes).toBeLessThanOrEqual(before.memory.liveBytes * 1.05);
    expect(after.memory.heapBytes).toBeLessThanOrEqual(Math.max(before.memory.heapBytes * 2, before.memory.heapBytes + 64 * 1024 * 1024));
    expect(errors).toEqual([]);
  });
});

describe('a layout made for reading signals', { timeout: 600_000 }, () => {
  it('fits every chart shown into the viewport, hides the panels on request, names channels and shows durations', async () => {
    await page.getByTestId('chart-stack').waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByTestId('layout-fit').click();
    // Fitting brings the fitted charts into view: the navigator stuck under the 60-px header.
    await poll(async () => Math.round((await page.getByTestId('navigator').boundingBox())!.y)).toBe(60);
    await page.getByTestId('layout-channels').click();
    await page.getByTestId('channel-selector').waitFor({ state: 'detached' });
    await page.evaluate(() => window.scrollTo(0, 0));
    await settled();
    // Scroll so the navigator is stuck at the top: then every plot lies between it and the time axis.
    const navBox = (await page.getByTestId('navigator').boundingBox())!;
    await page.evaluate((y) => window.scrollTo(0, y), navBox.y - 60);
    await settled();
    const plots = await page.locator('[data-testid^="plot-"]').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ top: r.top, bottom: r.bottom })));
    expect(plots.length).toBeGreaterThan(8);
    const height = page.viewportSize()!.height;
    for (const p of plots) {
      expect(p.top).toBeGreaterThanOrEqual(0);
      expect(p.bottom).toBeLessThanOrEqual(height);
    }
    const axis = (await page.getByTestId('time-axis').boundingBox())!;
    expect(axis.y + axis.height).toBeLessThanOrEqual(height);
    // A montage chart shows its name over the trace; its statistics and tools only under the pointer.
    // (Nothing of BR in focus: an earlier test's click on its Y button keeps the keyboard there.)
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.mouse.move(5, 5);
    expect(await page.getByTestId('focus-BR').isVisible()).toBe(true);
    expect(await page.getByTestId('stats-BR').isVisible()).toBe(false);
    expect(await page.getByTestId('zoom-mode-BR').isVisible()).toBe(false);
    const plotBox = (await page.getByTestId('plot-BR').boundingBox())!;
    await page.mouse.move(plotBox.x + 20, plotBox.y + plotBox.height / 2);
    await poll(() => page.getByTestId('zoom-mode-BR').isVisible()).toBe(true);
    // The annotation panel folds away and the charts widen.
    const wide = (await page.getByTestId('plot-BR').boundingBox())!.width;
    await page.getByTestId('layout-annotations').click();
    await poll(async () => (await page.getByTestId('plot-BR').boundingBox())!.width).toBeGreaterThan(wide + 100);
    await page.getByTestId('layout-annotations').click();
    await page.getByTestId('layout-channels').click();
    await page.getByTestId('layout-fit').click();
    // The list shows each annotation's duration; the popup names channels, not codes, with the patient's zone.
    await poll(() => page.getByTestId('annotation-row').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('annotation-row-duration').first().innerText()).toMatch(/\d/);
    await page.getByTestId('annotation-add').click();
    const popup = page.getByTestId('annotation-popup');
    await popup.waitFor();
    const text = await popup.innerText();
    expect(text).toContain('Chest displacement');
    expect(text).not.toMatch(/\bY_DIST\b|\bSLP_STGS\b/);
    expect(await page.getByTestId('annotation-zone').innerText()).toMatch(/^[A-Za-z_]+\/[A-Za-z_]+ \(GMT [+-][\d.]+\)$/);
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
  });
});
