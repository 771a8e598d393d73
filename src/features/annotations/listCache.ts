// The night's annotation list as the query cache holds it, changed in place of a refetch
// (issue 36 point 1): an add, edit or delete shows at once (optimistically), and the server's
// answer then replaces the guess. With 10,000 annotations a refetch after every write took
// hundreds of milliseconds; a sorted insert into the cached list takes a fraction of one.
import { formatDuration } from '../../../engine/duration';
import type { AnnotationDraft } from './api';
import { madeFrom } from '../../charts/core/changedSpan';
import { parseDuration, type Annotation } from './model';

type Changes = Partial<AnnotationDraft> & { delete_flag?: 0 | 1 };

/** Stand-in ids of annotations not yet saved: below every device event's (negative) id. */
let nextTemporary = -1e12;

const before = (a: Pick<Annotation, 'start_ms' | 'annotation_map_id'>, b: Pick<Annotation, 'start_ms' | 'annotation_map_id'>) =>
  a.start_ms < b.start_ms || (a.start_ms === b.start_ms && a.annotation_map_id < b.annotation_map_id);

/** The list with `added` inserted where they belong in (start_ms, id) order; the list is not changed. */
export function insertSorted(list: readonly Annotation[], added: readonly Annotation[]): Annotation[] {
  const out = list.slice();
  let at = 0;
  for (const a of added) {
    let lo = 0;
    let hi = out.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(out[mid], a)) lo = mid + 1;
      else hi = mid;
    }
    out.splice(lo, 0, a);
    at = lo;
  }
  // One annotation added (a save, a key): where the list changed, for what is derived from it.
  if (added.length === 1) madeFrom(list, out, { from: at, prevEnd: at, nextEnd: at + 1 });
  return out;
}

/** The list without the annotations of `ids`. */
export function withoutIds(list: readonly Annotation[], ids: Iterable<number>): Annotation[] {
  const gone = new Set(ids);
  let first = -1;
  let last = -1;
  const out = list.filter((a, i) => {
    if (!gone.has(a.annotation_map_id)) return true;
    if (first < 0) first = i;
    last = i;
    return false;
  });
  if (first >= 0) madeFrom(list, out, { from: first, prevEnd: last + 1, nextEnd: last + 1 - (list.length - out.length) });
  return out;
}

/** A draft's duration ("10", "0:0:10", "00:10") in ms; null when unreadable. */
function draftDurationMs(text: string): number | null {
  if (/^\d+(\.\d+)?$/.test(text.trim())) return Number(text) * 1000;
  const s = parseDuration(text);
  return s === null ? null : s * 1000;
}

const unescape = (text: string) => text.replace(/\\(['\\])/g, '$1');

/** `a` with a draft's changes applied, as the server will save it (start, duration, channels, category…). */
function applied(a: Annotation, c: Changes): Annotation {
  const start = c.start_time ?? a.start_ms;
  const length = c.duration !== undefined ? (draftDurationMs(c.duration) ?? a.end_ms - a.start_ms) : a.end_ms - a.start_ms;
  const kpiList = c.kpi ?? a.kpiList;
  return {
    ...a,
    kpi: kpiList.join(','),
    kpiList,
    start_ms: start,
    end_ms: start + length,
    duration: formatDuration(length),
    label: c.label ?? a.label,
    color_code: c.color_code ?? a.color_code,
    comment: c.comment !== undefined ? unescape(c.comment) : a.comment,
  };
}

/** The annotation a draft will make, under a stand-in id until the server answers. */
export function provisional(draft: AnnotationDraft, author: { id: number; name: string }): Annotation {
  const blank: Annotation = {
    annotation_map_id: nextTemporary--,
    type: draft.type ?? 'custom',
    night: 0,
    kpi: '',
    kpiList: [],
    start_ms: draft.start_time,
    end_ms: draft.start_time,
    start_time: '',
    end_time: '',
    duration: '',
    comment: '',
    label: draft.label,
    color_code: draft.color_code,
    created_by: author.id,
    created_by_name: author.name,
    updated_by: author.id,
    updated_date: '',
    delete_flag: 0,
    version: 0,
  };
  return applied(blank, draft);
}

/** The list with its item at `at` replaced by `items` (none: taken out), the change recorded. */
function spliced(list: readonly Annotation[], at: number, items: Annotation[]): Annotation[] {
  const out = [...list.slice(0, at), ...items, ...list.slice(at + 1)];
  madeFrom(list, out, { from: at, prevEnd: at + 1, nextEnd: at + items.length });
  return out;
}

/** The list after an edit (a delete when `delete_flag` is 1), re-sorted only when the start moved. */
export function edited(list: readonly Annotation[], id: number, changes: Changes): Annotation[] {
  const at = list.findIndex((a) => a.annotation_map_id === id);
  if (at < 0) return list.slice();
  if (changes.delete_flag === 1) return spliced(list, at, []);
  const next = applied(list[at], changes);
  if (next.start_ms === list[at].start_ms) return spliced(list, at, [next]);
  return insertSorted([...list.slice(0, at), ...list.slice(at + 1)], [next]);
}

/** The list with the server's version of an annotation in place of the one of `id` (gone when deleted). */
export function replaced(list: readonly Annotation[], id: number, saved: Annotation): Annotation[] {
  // The write calls' answers do not name the author; the list's entry did.
  const name = saved.created_by_name ?? list.find((a) => a.annotation_map_id === id)?.created_by_name;
  const rest = withoutIds(list, [id, saved.annotation_map_id]);
  return saved.delete_flag === 1 ? rest : insertSorted(rest, [{ ...saved, ...(name !== undefined ? { created_by_name: name } : {}) }]);
}
