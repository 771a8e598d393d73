/**
 * The list call's compact answer (get-annotation-columns, decision 0994) made into the list's
 * annotations: the users' own from the columns, the device-scored events merged in by start.
 */
import type { AnnotationColumns } from '../../../contract/annotations';
import { formatDuration } from '../../../engine/duration';
import type { Annotation } from './model';

/** Whether `a` goes before `b` in the list's (start_ms, annotation_map_id) order. */
const before = (a: Annotation, b: Annotation) => a.start_ms < b.start_ms || (a.start_ms === b.start_ms && a.annotation_map_id < b.annotation_map_id);

/** A page's own annotations (not its device events), appended to `into` (pages come in order). */
export function fromColumns(page: AnnotationColumns, into: Annotation[] = []): Annotation[] {
  const c = page.columns;
  const names = new Map(page.authors.map((u) => [u.id, u.name]));
  for (let i = 0; i < c.annotation_map_id.length; i++) {
    const start = c.start_ms[i]!;
    const end = c.end_ms[i]!;
    const kpi = c.kpi[i]!;
    into.push({
      annotation_map_id: c.annotation_map_id[i]!,
      type: c.type[i]!,
      night: c.night[i]!,
      kpi,
      kpiList: kpi.split(','),
      start_ms: start,
      end_ms: end,
      duration: formatDuration(end - start),
      comment: c.comment[i]!,
      label: c.label[i]!,
      color_code: c.color_code[i]!,
      created_by: c.created_by[i]!,
      created_by_name: names.get(c.created_by[i]!) ?? '',
      updated_by: c.updated_by[i]!,
      delete_flag: c.delete_flag[i]!,
      version: c.version[i]!,
    });
  }
  return into;
}

/** The users' annotations (in order) with the device events merged in by start: the list. */
export function withDevice(own: Annotation[], device: readonly Annotation[]): Annotation[] {
  if (device.length === 0) return own;
  const events = [...device].sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  const out: Annotation[] = [];
  let d = 0;
  for (const a of own) {
    while (d < events.length && before(events[d]!, a)) out.push(events[d++]!);
    out.push(a);
  }
  while (d < events.length) out.push(events[d++]!);
  return out;
}
