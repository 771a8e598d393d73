import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatClock } from '../../charts/core/format';
import type { ViewController } from '../../state/view';
import type { Annotation, Category } from './model';
import { SCORING_DIGITS, type Bindings } from './scoringKeys';
import { ChannelsText } from './channelNames';
import { categoryName } from '../../builtInNames';

/**
 * At most this many annotations are listed: a whole night holds hundreds, and the list must not
 * push the Annotations panel below it off the screen (the rest are a count; zooming in shows them).
 */
const LISTED = 25;

/** Annotations overlapping [t0, t1), as a stable key of their ids (re-render only on change). */
function overlapping(list: readonly Annotation[], t0: number, t1: number): Annotation[] {
  return list.filter((a) => a.start_ms < t1 && a.end_ms > t0);
}

/**
 * Beside the charts in scoring: the annotations of the window on screen (updated as the
 * window moves, rendered only when that list changes) and the number-key bindings, each
 * editable.
 */
export function ScoringPanel({ view, annotations, categories, bindings, timezone, onBind, status }: {
  view: ViewController;
  annotations: readonly Annotation[];
  categories: readonly Category[];
  bindings: Bindings;
  timezone: string;
  onBind(key: string, labelId: number | null): void;
  status: string | null;
}) {
  const { t } = useTranslation();
  const [inWindow, setInWindow] = useState<Annotation[]>([]);
  useEffect(() => {
    // null: nothing shown yet (an empty list is a real state to set after a delete).
    let key: string | null = null;
    const update = (r: { t0: number; t1: number }) => {
      const next = overlapping(annotations, r.t0, r.t1);
      const nextKey = next.map((a) => `${a.annotation_map_id}:${a.version}`).join(',');
      if (nextKey === key) return;
      key = nextKey;
      setInWindow(next);
    };
    update(view.store.state.range);
    return view.onRange(update);
  }, [view, annotations]);
  const name = (id: number) => categoryName(t, categories.find((c) => c.label_id === id)) ?? String(id);

  return (
    <section className="scoring-panel" aria-label={t('night.scoring.inWindow')} data-testid="scoring-panel">
      <h3>{t('night.scoring.inWindow')}</h3>
      {inWindow.length === 0 ? (
        <p className="muted" data-testid="window-annotations-empty">{t('night.scoring.noneInWindow')}</p>
      ) : (
        <ul className="window-annotations" data-testid="window-annotations">
          {inWindow.slice(0, LISTED).map((a) => (
            <li key={a.annotation_map_id} data-testid="window-annotation">
              <span className="swatch" style={{ background: a.color_code }} aria-hidden="true" />
              <strong>{name(a.label)}</strong> <span className="mono">{formatClock(a.start_ms, timezone, true)}</span> · {a.duration}
              {a.kpiList.length > 0 && <ChannelsText codes={a.kpiList} className="muted" prefix=" · " />}
            </li>
          ))}
        </ul>
      )}
      {inWindow.length > LISTED && <p className="muted" data-testid="window-annotations-more">{t('night.scoring.shownOf', { shown: LISTED, total: inWindow.length })}</p>}
      {status && <p className="muted" role="status" data-testid="scoring-status">{status}</p>}
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
    </section>
  );
}
