// Value axes of chart blocks: coded axes of stages, sleep/awake and bed (spec 2 §9),
// automatic ranges for the rest.
import { formatNumber } from '../../format';
import type { CodedAxis } from './channels';

/** Catalogue keys of the labels of coded axes, by chart value. */
export const CODED_LABELS: Record<CodedAxis, readonly (readonly [number, string])[]> = {
  stages: [[0, 'night.axis.deep'], [1, 'night.axis.light'], [2, 'night.axis.rem'], [3, 'night.axis.awake']],
  sleepAwake: [[0, 'night.axis.awakeSA'], [1, 'night.axis.sleep']],
  bed: [[0, 'night.axis.outOfBed'], [1, 'night.axis.inBed']],
};

/** A padded value range around [min, max]; a flat or empty series gets a unit range. */
export function autoDomain(min: number, max: number, margin = 0.06): [number, number] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  if (max - min < 1e-9) return [min - 1, max + 1];
  const pad = (max - min) * margin;
  return [min - pad, max + pad];
}

/** Three readable labels for a value range: bottom, middle, top. */
function valueLabels(lo: number, hi: number): number[] {
  const digits = hi - lo >= 20 ? 0 : hi - lo >= 2 ? 1 : 2;
  // `+ 0` turns a rounded -0 (a label just below zero) into 0: an axis never reads "-0".
  const round = (v: number) => Number(v.toFixed(digits)) + 0;
  return [round(lo + (hi - lo) * 0.1), round((lo + hi) / 2), round(hi - (hi - lo) * 0.1)];
}

/**
 * Fixed physiological value ranges, the per-channel alternative to auto-scaling (a
 * clinician comparing nights wants the same axis every time). Channels not listed fix
 * their axis to the whole night's min and max.
 */
export const PHYSIOLOGICAL_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  BR: [0, 40],
  HR: [30, 140],
  PR: [30, 160],
  SPO2: [70, 100],
  SPO2_PSG: [70, 100],
  BRV: [0, 30],
  HRV: [0, 200],
};

/** Writes three value labels into a y-axis element, outside React (they follow every frame). */
export function paintValueLabels(el: HTMLElement, lo: number, hi: number, language: string): void {
  const values = valueLabels(lo, hi);
  while (el.children.length < values.length) el.append(document.createElement('span'));
  while (el.children.length > values.length) el.lastElementChild!.remove();
  values.forEach((v, i) => {
    const span = el.children[i] as HTMLElement;
    // As many decimals as the rounded label has (0.1, not 0.10), in the language's writing.
    span.textContent = formatNumber(v, language, (String(v).split('.')[1] ?? '').length);
    span.style.insetBlockEnd = `${((v - lo) / Math.max(1e-12, hi - lo)) * 100}%`;
  });
  el.dataset.lo = String(lo);
  el.dataset.hi = String(hi);
}
