// The charts "in focus" for the scoring keys: the user clicks chart titles to pick the
// channels a number key scores. Shared by the blocks (highlight) and the annotation keys.
import { proxy } from 'valtio';

/** Codes of the focused chart blocks, in the order they were picked. */
export const chartFocus = proxy<{ codes: string[] }>({ codes: [] });

/** Adds or removes a chart from the focus. */
export function toggleFocus(code: string): void {
  chartFocus.codes = chartFocus.codes.includes(code) ? chartFocus.codes.filter((c) => c !== code) : [...chartFocus.codes, code];
}
