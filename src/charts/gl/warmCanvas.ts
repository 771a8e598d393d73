// The night screen's first canvas, made before the screen renders (decision 1029). A 2D
// canvas gets its picture memory at its first drawing call: 15–55 ms for the viewport-sized
// canvas on a machine without a GPU (shared memory handed to the compositor), and the first
// canvas of a page with a GPU opens the page's channel to it (~65 ms). The first paint paid
// that inside the task that drew the first chart. A reload of a night makes the canvas at the
// size its last visit drew, while the page waits for the night list, and the screen takes it.
import { readItem, writeItem } from '../../state/storage';

/** Where the size of the last first-paint canvas is kept (device pixels; nothing that names a patient). */
const SIZE_KEY = 'nocturne.firstCanvasSize';

/** The canvas made ahead, until a screen takes it. */
let warm: HTMLCanvasElement | null = null;

function rememberedSize(): { width: number; height: number } | null {
  const [width, height] = (readItem('localStorage', SIZE_KEY) ?? '').split('x').map(Number);
  return Number.isInteger(width) && Number.isInteger(height) && width! >= 1 && height! >= 1 ? { width: width!, height: height! } : null;
}

/** Remembers the size a first-paint canvas was drawn at, for the next visit's {@link warmFirstCanvas}. */
export function rememberFirstCanvasSize(width: number, height: number): void {
  if (readItem('localStorage', SIZE_KEY) !== `${width}x${height}`) writeItem('localStorage', SIZE_KEY, `${width}x${height}`);
}

/**
 * Makes a 2D canvas of the remembered size and draws into it once, so its picture memory is
 * there before the screen needs it. Nothing without a remembered size (a first visit).
 */
export function warmFirstCanvas(): void {
  const size = rememberedSize();
  if (!size || warm || typeof document === 'undefined') return;
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.clearRect(0, 0, 1, 1);
  // Read by the first-chart mark (and the e2e test): the first paint drew on memory made ahead.
  canvas.dataset.madeAhead = '';
  warm = canvas;
}

/** The canvas made ahead (once), or a new one. */
export function takeFirstCanvas(): HTMLCanvasElement {
  const canvas = warm ?? document.createElement('canvas');
  warm = null;
  return canvas;
}
