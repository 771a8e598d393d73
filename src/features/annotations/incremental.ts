// Lists derived from the night's annotations, brought up to date for what changed rather than
// derived again from all of them (issue 36 point 1). Every change of the cached list (listCache.ts)
// keeps the objects of the annotations it did not touch, in order, so a new list differs from
// the one before in one stretch: the changed span (charts/core/changedSpan.ts). Only the span's
// annotations are looked at again, and each list made here records its own span for the next.
import { changedSpan, madeFrom } from '../../charts/core/changedSpan';


export { changedSpan } from '../../charts/core/changedSpan';

/** A span this long or longer (a filter shown or hidden, a reload) is derived again in full. */
const WHOLE = 2048;

/** How many of `sub` (a subsequence of `list`, in its order) lie in list[0, end). */
function leading<T>(sub: readonly T[], list: readonly T[], end: number): number {
  let k = 0;
  for (let i = 0; i < end && k < sub.length; i++) if (sub[k] === list[i]) k++;
  return k;
}

/** How many of `sub` (a subsequence of `list`) lie in list[start, length). */
function trailing<T>(sub: readonly T[], list: readonly T[], start: number): number {
  let k = 0;
  for (let i = list.length - 1; i >= start && k < sub.length; i--) if (sub[sub.length - 1 - k] === list[i]) k++;
  return k;
}

/**
 * `list.filter(keep)`, kept up to date: a new list is filtered only in its changed span, and the
 * answer is the previous array itself when nothing it holds changed. `keep` must depend on the
 * item alone (make a new filter when what it reads changes).
 */
export function incrementalFilter<T>(keep: (item: T) => boolean): (list: readonly T[]) => readonly T[] {
  let input: readonly T[] | null = null;
  let output: readonly T[] = [];
  return (list) => {
    if (list === input) return output;
    const prev = input;
    input = list;
    const span = prev ? changedSpan(prev, list) : null;
    if (!prev || !span || span.nextEnd - span.from >= WHOLE || span.prevEnd - span.from >= WHOLE) {
      output = list.filter(keep);
      return output;
    }
    const head = leading(output, prev, span.from);
    const tail = trailing(output, prev, span.prevEnd);
    const middle: T[] = [];
    for (let i = span.from; i < span.nextEnd; i++) if (keep(list[i])) middle.push(list[i]);
    const dropped = output.length - head - tail;
    if (dropped === 0 && middle.length === 0) return output;
    const next = output.slice(0, head);
    for (const item of middle) next.push(item);
    for (let i = output.length - tail; i < output.length; i++) next.push(output[i]);
    madeFrom(output, next, { from: head, prevEnd: output.length - tail, nextEnd: head + middle.length });
    output = next;
    return output;
  };
}

/** `list.map(f)`, kept up to date: only the changed span is mapped again (`f` must depend on the item alone). */
export function incrementalMap<T, U>(f: (item: T) => U): (list: readonly T[]) => readonly U[] {
  let input: readonly T[] | null = null;
  let output: readonly U[] = [];
  return (list) => {
    if (list === input) return output;
    const prev = input;
    input = list;
    if (!prev) {
      output = list.map(f);
      return output;
    }
    const span = changedSpan(prev, list);
    if (span.from === span.prevEnd && span.from === span.nextEnd) return output;
    const next = output.slice(0, span.from);
    for (let i = span.from; i < span.nextEnd; i++) next.push(f(list[i]));
    for (let i = span.prevEnd; i < prev.length; i++) next.push(output[i]);
    madeFrom(output, next, span);
    output = next;
    return output;
  };
}
