import { memo, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatClock } from '../../charts/core/format';
import type { ViewController } from '../../state/view';
import { isReadOnly, startIndex, type Annotation, type Category } from './model';
import { SCORING_DIGITS, type Bindings } from './scoringKeys';
import { ChannelsText } from './channelNames';
import { categoryName } from '../../builtInNames';

/**
 * At most this many annotations are listed: a whole night holds hundreds, and the list must not
 * push the Annotations panel below it off the screen (the rest are a count; zooming in shows them).
 */
const LISTED = 25;

/**
 * Annotations overlapping [t0, t1), in start order, from a list in start order whose longest
 * annotation is at most `longestMs` long: those starting before t1, back to t0 − longestMs (a
 * binary search and the window's few, not a pass over the night's 10,000).
 */
export function overlapping(list: readonly Annotation[], t0: number, t1: number, longestMs: number): Annotation[] {
  const out: Annotation[] = [];
  for (let i = startIndex(list, t1) - 1; i >= 0 && list[i].start_ms + longestMs > t0; i--) if (list[i].end_ms > t0) out.push(list[i]);
  return out.reverse();
}

/**
 * Beside the charts in scoring: the annotations of the window on screen (updated as the
 * window moves, rendered only when that list changes) and the number-key bindings, each
 * editable.
 */
export const ScoringPanel = memo(function ScoringPanel({ view, annotations, longestMs, categories, bindings, timezone, onBind, status }: {
  view: ViewController;
  /** The night's annotations, in start order. */
  annotations: readonly Annotation[];
  /** At least the longest annotation's length (ms). */
  longestMs: number;
  categories: readonly Category[];
  bindings: Bindings;
  timezone: string;
  onBind(key: string, labelId: number | null): void;
  status: string | null;
}) {
  const { t } = useTranslation();
  const [inWindow, setInWindow] = useState<Annotation[]>([]);
  // What the list shows; null: nothing yet (an empty list is a real state to set after a delete).
  const shown = useRef<Annotation[] | null>(null);
  useEffect(() => {
    const update = (r: { t0: number; t1: number }) => {
      const next = overlapping(annotations, r.t0, r.t1, longestMs);
      // The same annotations (the same objects: a changed one is a new object): nothing to draw.
      const now = shown.current;
      if (now && now.length === next.length && next.every((a, i) => a === now[i])) return;
      shown.current = next;
      setInWindow(next);
    };
    update(view.store.state.range);
    return view.onRange(update);
  }, [view, annotations, longestMs]);
  const name = (id: number) => categoryName(t, categories.find((c) => c.label_id === id)) ?? String(id);

  return (
    <section className="scoring-panel" aria-label={t('night.scoring.inWindow')} data-testid="scoring-panel">
      <h3>{t('night.scoring.inWindow')}</h3>
      {inWindow.length === 0 ? (
        <p className="muted" data-testid="window-annotations-empty">{t('night.scoring.noneInWindow')}</p>
      ) : (
        <ul className="window-annotations" data-testid="window-annotations">
          {inWindow.slice(0, LISTED).map((a) => (
            // A device-scored event by its own text ("ASDA arousal", "Central Apnea"), as the annotation list names it.
            <WindowAnnotation key={a.annotation_map_id} a={a} name={isReadOnly(a) ? a.comment : name(a.label)} timezone={timezone} />
          ))}
        </ul>
      )}
      {inWindow.length > LISTED && <p className="muted" data-testid="window-annotations-more">{t('night.scoring.shownOf', { shown: LISTED, total: inWindow.length })}</p>}
      {status && <p className="muted" role="status" data-testid="scoring-status">{status}</p>}
      <ScoringKeys categories={categories} bindings={bindings} onBind={onBind} />
    </section>
  );
});

/** One annotation of the window; drawn again only when it changed (its clock time is a time-zone conversion). */
const WindowAnnotation = memo(function WindowAnnotation({ a, name, timezone }: { a: Annotation; name: string; timezone: string }) {
  return (
    <li data-testid="window-annotation">
      <span className="swatch" style={{ background: a.color_code }} aria-hidden="true" />
      <strong>{name}</strong> <span className="mono">{formatClock(a.start_ms, timezone, true)}</span> · {a.duration}
      {a.kpiList.length > 0 && <ChannelsText codes={a.kpiList} className="muted" prefix=" · " />}
    </li>
  );
});

/** The number keys' bindings, each editable; drawn again only when a binding or a category changes. */
const ScoringKeys = memo(function ScoringKeys({ categories, bindings, onBind }: { categories: readonly Category[]; bindings: Bindings; onBind(key: string, labelId: number | null): void }) {
  const { t } = useTranslation();
  return (
    <details className="scoring-keys" data-testid="scoring-keys">
      <summary>{t('night.scoring.keysTitle')}</summary>
      <p className="muted">{t('night.scoring.focusHint')}</p>
      {SCORING_DIGITS.map((d) => (
        <label key={d} className="scoring-key">
          <kbd>{d}</kbd>
          <select
            value={bindings[d] ?? ''}
            onChange={(e) => onBind(d, e.target.value === '' ? null : Number(e.target.value))}
            aria-label={t('night.scoring.keyFor', { key: d })}
            data-testid={`scoring-key-${d}`}
          >
            <option value="">{t('night.scoring.unbound')}</option>
            {categories.map((c) => (
              <option key={c.label_id} value={c.label_id}>{categoryName(t, c)}</option>
            ))}
          </select>
        </label>
      ))}
    </details>
  );
});
