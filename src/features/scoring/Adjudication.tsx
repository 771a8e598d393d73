import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { Decision, Disagreement } from '../../../contract/scoring-rounds';
import type { ChartScreen } from '../../charts/screen';
import { errorText } from '../../api/messages';
import { useFormat } from '../../format';
import { isTextEntry } from '../../ui/keys';
import { categoryName } from '../../builtInNames';
import { useCategories } from '../annotations/queries';
import { clockToMs, msToClock } from '../night/corrections';
import type { NightInfo } from '../night/types';
import { scorerName } from './AgreementView';
import { useDisagreements, useRoundWrites, type NightKey, type ScoringRound } from './api';

/** Signal shown either side of a disagreement, so it is judged in its context. */
const CONTEXT_MS = 30_000;

/** The window the charts move to for a disagreement: the span with context either side. */
export function adjudicationWindow(item: Pick<Disagreement, 'start_ms' | 'end_ms'>, night: { startMs: number; stopMs: number }): { t0: number; t1: number } {
  const t0 = Math.max(night.startMs, item.start_ms - CONTEXT_MS);
  const t1 = Math.min(night.stopMs, item.end_ms + CONTEXT_MS);
  return t1 > t0 ? { t0, t1 } : { t0: night.startMs, t1: night.stopMs };
}

/** What a decision says, for the item's line. */
function decisionText(t: TFunction, round: ScoringRound, d: Decision | null): string {
  if (d === null) return t('doubleScoring.undecided');
  if (d.kind === 'none') return t('doubleScoring.decided.none');
  if (d.kind === 'mark') return t('doubleScoring.decided.mark');
  return t('doubleScoring.decided.scorer', { name: scorerName(t, round.scorers, d.scorer) });
}

/**
 * The adjudication: every disagreement in turn, the charts moved to it, one scorer's marks, none,
 * or a new mark taken; ] and [ step to the next and previous one. Finishing writes the consensus.
 */
export function Adjudication({ round, night, nightKey, screen }: { round: ScoringRound; night: NightInfo; nightKey: NightKey; screen: ChartScreen }) {
  const { t } = useTranslation();
  const query = useDisagreements(round.round_id);
  const { decide, finish } = useRoundWrites(nightKey);
  const [index, setIndex] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const items = query.data?.items ?? [];
  const item = items[Math.min(index, items.length - 1)];
  const show = useCallback(
    (i: number) => {
      const next = items[i];
      if (!next) return;
      setIndex(i);
      screen.view.dispatch({ type: 'zoom', range: adjudicationWindow(next, { startMs: night.recording_start_time, stopMs: night.recording_stop_time }) });
      // The item at the top of the screen, the charts it moved right below it.
      document.querySelector('[data-testid="adjudication-item"]')?.scrollIntoView({ block: 'start' });
    },
    [items, screen, night.recording_start_time, night.recording_stop_time],
  );
  useStepKeys(items.length, index, show);
  useHighlight(screen, item);
  const choose = (decision: Decision) => {
    if (!item) return;
    setProblem(null);
    decide.mutate({ round_id: round.round_id, item: item.item, decision }, { onError: (e) => setProblem(errorText(t, e)), onSuccess: () => show(Math.min(index + 1, items.length - 1)) });
  };
  if (query.isError) return <p className="error-text" role="alert">{errorText(t, query.error)}</p>;
  if (!query.data) return null;
  const undecided = items.filter((i) => i.decision === null).length;
  return (
    <section className="adjudication" data-testid="adjudication">
      <h4>{t('doubleScoring.adjudicationTitle')}</h4>
      <p className="muted" data-testid="adjudication-progress">{t('doubleScoring.progress', { decided: items.length - undecided, total: items.length, agreed: query.data.agreed })}</p>
      {item && <Item item={item} position={index} count={items.length} round={round} night={night} onChoose={choose} onStep={show} busy={decide.isPending} patientId={nightKey.patientId} />}
      <button
        type="button"
        className="button button-small"
        disabled={undecided > 0 || finish.isPending}
        onClick={() => finish.mutate(round.round_id, { onError: (e) => setProblem(errorText(t, e)) })}
        data-testid="adjudication-finish"
      >
        {t('doubleScoring.finish')}
      </button>
      {undecided > 0 && <span className="muted"> {t('doubleScoring.finishHint', { n: undecided })}</span>}
      {problem && <p className="error-text" role="alert" data-testid="adjudication-problem">{problem}</p>}
    </section>
  );
}

/** The disagreement in hand shaded on every chart; cleared when the adjudication closes. */
function useHighlight(screen: ChartScreen, item: Disagreement | undefined) {
  const start = item?.start_ms;
  const end = item?.end_ms;
  useEffect(() => {
    screen.setHighlighted(start === undefined || end === undefined ? [] : [{ startMs: start, endMs: end }]);
  }, [screen, start, end]);
  useEffect(() => () => screen.setHighlighted([]), [screen]);
}

/** ] and [ step through the disagreements (before the night's own annotation jump hears them). */
function useStepKeys(count: number, index: number, show: (i: number) => void) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.key !== ']' && e.key !== '[') || e.ctrlKey || e.metaKey || e.altKey || isTextEntry(e.target) || count === 0) return;
      e.preventDefault();
      e.stopPropagation();
      show(Math.max(0, Math.min(count - 1, index + (e.key === ']' ? 1 : -1))));
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [count, index, show]);
}

interface ItemProps {
  item: Disagreement;
  position: number;
  count: number;
  round: ScoringRound;
  night: NightInfo;
  onChoose: (d: Decision) => void;
  onStep: (i: number) => void;
  busy: boolean;
  patientId: number;
}

/** One disagreement: where, what each scorer marked, the decision so far, and the choices. */
function Item({ item, position, count, round, night, onChoose, onStep, busy, patientId }: ItemProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const zone = night.timezone;
  const span = (a: number, b: number) => `${fmt.time(a, zone)}–${fmt.time(b, zone)}`;
  return (
    <div className="adjudication-item" data-testid="adjudication-item" data-item={item.item}>
      <div className="adjudication-nav">
        <button type="button" className="button button-small button-quiet" disabled={position === 0} onClick={() => onStep(position - 1)} data-testid="adjudication-previous">
          {t('doubleScoring.previous')}
        </button>
        <strong>{t('doubleScoring.itemOf', { n: position + 1, total: count })}</strong>
        <button type="button" className="button button-small button-quiet" disabled={position >= count - 1} onClick={() => onStep(position + 1)} data-testid="adjudication-next">
          {t('doubleScoring.next')}
        </button>
        <button type="button" className="button button-small button-quiet" onClick={() => onStep(position)} data-testid="adjudication-show">
          {t('doubleScoring.showOnCharts')}
        </button>
        <span className="muted">{t('doubleScoring.stepKeys')}</span>
      </div>
      <p>
        {t(item.kind === 'stage' ? 'doubleScoring.stageItem' : 'doubleScoring.eventItem', { category: t(`doubleScoring.categories.${item.category}`, { defaultValue: item.category }), span: span(item.start_ms, item.end_ms) })}
        {' · '}
        <span data-testid="adjudication-decision">{decisionText(t, round, item.decision)}</span>
      </p>
      <ul className="adjudication-options">
        {item.options.map((o) => (
          <li key={o.scorer}>
            <button type="button" className="button button-small" disabled={busy} onClick={() => onChoose({ kind: 'scorer', scorer: o.scorer })} data-testid={`adjudication-take-${o.scorer}`}>
              {t('doubleScoring.take', { name: scorerName(t, round.scorers, o.scorer) })}
            </button>{' '}
            <span className="muted">{o.marks.length === 0 ? t('doubleScoring.noMark') : o.marks.map((m) => `${m.label_name} ${span(m.start_ms, m.end_ms)}`).join(', ')}</span>
          </li>
        ))}
      </ul>
      <button type="button" className="button button-small button-quiet" disabled={busy} onClick={() => onChoose({ kind: 'none' })} data-testid="adjudication-none">
        {t('doubleScoring.none')}
      </button>
      <NewMark item={item} night={night} patientId={patientId} onChoose={onChoose} busy={busy} />
    </div>
  );
}

/** A new mark instead of any scorer's: category and span (clock times in the night's zone). */
function NewMark({ item, night, patientId, onChoose, busy }: { item: Disagreement; night: NightInfo; patientId: number; onChoose: (d: Decision) => void; busy: boolean }) {
  const { t } = useTranslation();
  const categories = useCategories(patientId).data ?? [];
  const zone = night.timezone;
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [label, setLabel] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const start = () => {
    setFrom(msToClock(item.start_ms, zone));
    setTo(msToClock(item.end_ms, zone));
    setLabel(item.options.flatMap((o) => o.marks)[0]?.label ?? categories[0]?.label_id ?? null);
    setOpen(true);
  };
  const save = () => {
    const a = clockToMs(from, zone, night.recording_start_time, night.recording_stop_time);
    const b = clockToMs(to, zone, night.recording_start_time, night.recording_stop_time);
    if (a === null || b === null || b <= a || label === null) return setProblem(t('doubleScoring.errors.mark'));
    setProblem(null);
    setOpen(false);
    onChoose({ kind: 'mark', start_ms: a, end_ms: b, label });
  };
  if (!open)
    return (
      <button type="button" className="button button-small button-quiet" disabled={busy} onClick={start} data-testid="adjudication-new">
        {t('doubleScoring.newMark')}
      </button>
    );
  return (
    <div className="adjudication-new" data-testid="adjudication-new-form">
      <select value={label ?? ''} onChange={(e) => setLabel(Number(e.target.value))} aria-label={t('doubleScoring.category')} data-testid="adjudication-new-category">
        {categories.map((c) => (
          <option key={c.label_id} value={c.label_id}>
            {categoryName(t, c)}
          </option>
        ))}
      </select>
      <input type="text" className="corrections-clock" value={from} onChange={(e) => setFrom(e.target.value)} aria-label={t('doubleScoring.from')} data-testid="adjudication-new-from" />
      <input type="text" className="corrections-clock" value={to} onChange={(e) => setTo(e.target.value)} aria-label={t('doubleScoring.to')} data-testid="adjudication-new-to" />
      <button type="button" className="button button-small" onClick={save} data-testid="adjudication-new-save">
        {t('doubleScoring.saveMark')}
      </button>
      {problem && <p className="error-text" role="alert">{problem}</p>}
    </div>
  );
}
