// The in-page half of bench:annotations: each action started from inside the page (a key
// on the window, a click on a button, as a user's would arrive) and timed to the first
// animation frame whose DOM shows its effect (that frame paints it), counting the frames that
// began before it: 0 when the very next frame shows it. The ms include the wait for that frame
// (up to one 60-Hz frame) and its work before its animation callbacks. Only UI both the
// current build and the peer have is used, so the same steps time both.
import type { Page } from 'playwright-core';

export type Action = 'next' | 'prev' | 'add' | 'undo' | 'redo' | 'edit' | 'delete' | 'filter';

/** What one timed action took: ms to the frame showing it, and frames begun before that one (0: the next). */
export interface Timed {
  ms: number;
  late: number;
}

/** Runs in the page: starts `kind` and resolves with the ms until a frame shows its effect. */
function inPage({ kind, text }: { kind: Action; text: string }): Promise<Timed> {
  const q = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
  const custom = () => Number(q('annotations-count-custom')?.textContent);
  const readout = () => q('span-readout')?.getAttribute('data-t0') ?? '';
  const key = (k: string, mods: KeyboardEventInit = {}) => window.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...mods }));
  const rows = () => {
    const all = document.querySelectorAll('[data-testid="annotation-row"]');
    return `${all.length}:${all[0]?.getAttribute('data-id') ?? ''}:${all[all.length - 1]?.getAttribute('data-id') ?? ''}`;
  };
  const count = custom();
  const t0 = readout();
  const listed = rows();
  const plans: Record<Action, { go(): void; done(): boolean }> = {
    next: { go: () => key(']'), done: () => readout() !== t0 },
    prev: { go: () => key('['), done: () => readout() !== t0 },
    add: { go: () => q('annotation-save')!.click(), done: () => custom() === count + 1 },
    undo: { go: () => key('z', { ctrlKey: true }), done: () => custom() === count - 1 },
    redo: { go: () => key('z', { ctrlKey: true, shiftKey: true }), done: () => custom() === count + 1 },
    edit: { go: () => q('annotation-save')!.click(), done: () => [...document.querySelectorAll('[data-testid="annotation-row-comment"]')].some((e) => e.textContent === text) },
    delete: { go: () => document.querySelector<HTMLElement>('dialog[open] [data-testid="confirm-accept"]')!.click(), done: () => custom() === count - 1 },
    filter: { go: () => q('annotations-show-custom')!.click(), done: () => rows() !== listed },
  };
  const plan = plans[kind];
  const start = performance.now();
  plan.go();
  // The action's own task (and its microtasks) ends before any frame's callbacks run: the first
  // callback is the first frame that can show it, whatever the frame's phase when it began.
  let frames = 0;
  return new Promise((resolve, reject) => {
    const tick = () => {
      if (plan.done()) resolve({ ms: performance.now() - start, late: frames });
      else if (performance.now() - start > 30_000) reject(new Error(`${kind}: no effect in 30 s`));
      else {
        frames += 1;
        requestAnimationFrame(tick);
      }
    };
    requestAnimationFrame(tick);
  });
}

/** Waits until no dialog is open and no write is on its way (the current build says so on the sidebar). */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('dialog[open]') && (document.querySelector('[data-testid="annotation-sidebar"]')?.getAttribute('data-saving') ?? '0') === '0', undefined, { timeout: 60_000, polling: 'raf' });
  // Two frames more, so the next action does not share a frame with this one's last render.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** What an action needs before its timed step (a popup open and filled, a row selected); untimed. */
async function prepare(page: Page, kind: Action, text: string): Promise<void> {
  if (kind === 'add') {
    await page.getByTestId('annotation-add').click();
    await page.getByTestId('annotation-popup').waitFor();
    const kpi = page.locator('[data-testid="annotation-popup"] [data-testid^="annotation-kpi-"]').first();
    if (!(await kpi.isChecked())) await kpi.check();
  } else if (kind === 'edit') {
    // Untimed steps click through the DOM: the timed ones are what is measured.
    await page.getByTestId('annotation-row-edit').first().evaluate((b: HTMLElement) => b.click());
    await page.getByTestId('annotation-comment').fill(text);
  } else if (kind === 'delete') {
    await page.locator('[data-testid="annotation-row"] input[type="checkbox"]').first().evaluate((b: HTMLElement) => b.click());
    await page.getByTestId('annotations-delete-selected').click();
    await page.locator('dialog[open] [data-testid="confirm-accept"]').waitFor();
  }
}

/** One timed action: prepared, timed in the page, then let settle. */
export async function timeAction(page: Page, kind: Action, round: number): Promise<Timed> {
  const text = `bench edit ${round}`;
  await prepare(page, kind, text);
  const timed = await page.evaluate(inPage, { kind, text });
  await settled(page);
  return timed;
}

/**
 * Opens the night and times it to the first frame with the chart's data drawn and every one of
 * the `expected` custom annotations counted (ms from navigation start).
 */
export async function firstDraw(page: Page, url: string, expected: number): Promise<number> {
  await page.goto('about:blank');
  await page.goto(url);
  // Polled in the page each frame: the time is the frame's, not when the bench heard of it.
  const ms = await page.evaluate(
    (n) =>
      new Promise<number>((resolve, reject) => {
        const tick = () => {
          if (performance.getEntriesByName('nocturne:first-chart').length > 0 && Number(document.querySelector('[data-testid="annotations-count-custom"]')?.textContent) === n) resolve(performance.now());
          else if (performance.now() > 120_000) reject(new Error(`the night did not show ${n} annotations`));
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    expected,
  );
  await settled(page);
  return ms;
}
