import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { ChartScreen } from '../../charts/screen';
import { errorText } from '../../api/messages';
import { useFormat } from '../../format';
import { clockToMs, excludedSpans, MIN_CORRECTION_MS, msToClock, useCorrectionWrite, useNightCorrections, type Correction, type CorrectionKind, type NightCorrections } from './corrections';
import type { NightInfo } from './types';

/**
 * Manual corrections (spec 2 §2 Actions): the physician moves the night's bed-in/bed-out or
 * marks a span invalid, with a reason; every correction is listed with who made it and when,
 * and can be undone (it stays listed as undone). Annotators see the list, not the form. The
 * charts shade what the analysis leaves out.
 */
export function NightCorrectionsPanel({ patientId, night, screen }: { patientId: number; night: NightInfo; screen: ChartScreen }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const query = useNightCorrections(patientId, night.night);
  const data = query.data;
  useEffect(() => {
    screen.setExcluded(excludedSpans(data));
  }, [screen, data]);
  const zone = night.timezone;
  const clock = (ms: number) => fmt.time(ms, zone);
  return (
    <details className="night-corrections" data-testid="night-corrections">
      <summary>
        {t('night.corrections.title')}
        {data?.corrected && <span className="badge corrections-badge" data-testid="corrections-badge">{t('night.corrections.applied')}</span>}
      </summary>
      {query.isError && <p className="error-text" role="alert">{errorText(t, query.error)}</p>}
      {data && (
        <>
          <p className="muted" data-testid="corrections-window">
            {data.corrected
              ? t('night.corrections.window', { from: clock(data.window.bed_in_time), to: clock(data.window.bed_out_time), count: data.window.invalid_spans.length })
              : data.window.bed_times_from === 'lights'
                ? t('night.corrections.lights', { from: clock(data.window.bed_in_time), to: clock(data.window.bed_out_time) })
                : t('night.corrections.none')}
          </p>
          {data.can_correct ? <CorrectionForm patientId={patientId} night={night} data={data} screen={screen} /> : <p className="muted" data-testid="corrections-read-only">{t('night.corrections.readOnly')}</p>}
          <CorrectionList patientId={patientId} night={night} data={data} />
        </>
      )}
    </details>
  );
}

/** The form: kind, the two times (24-hour hh:mm:ss in the night's zone, as every clinical time here), the reason. */
function CorrectionForm({ patientId, night, data, screen }: { patientId: number; night: NightInfo; data: NightCorrections; screen: ChartScreen }) {
  const { t } = useTranslation();
  const zone = night.timezone;
  const [kind, setKind] = useState<CorrectionKind>('invalid_span');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { add } = useCorrectionWrite(patientId, night.night);
  const start = data.recording_start_time;
  const stop = data.recording_stop_time;

  const pick = (next: CorrectionKind) => {
    setKind(next);
    setProblem(null);
    // Bed times start from those in force, so moving one leaves the other as it is.
    if (next === 'bed_times') {
      setFrom(msToClock(data.window.bed_in_time, zone));
      setTo(msToClock(data.window.bed_out_time, zone));
    }
  };
  const fromView = () => {
    const r = screen.view.store.state.range;
    setFrom(msToClock(Math.max(start, r.t0), zone));
    setTo(msToClock(Math.min(stop, r.t1), zone));
    setProblem(null);
  };
  const submit = () => {
    const span = correctionSpan(t, { from, to, reason }, zone, start, stop);
    if (typeof span === 'string') return setProblem(span);
    setProblem(null);
    add.mutate(
      { kind, start_ms: span.a, end_ms: span.b, reason: reason.trim() },
      {
        onSuccess: () => setReason(''),
        onError: (e) => setProblem(errorText(t, e)),
      },
    );
  };
  const labels = kind === 'bed_times' ? [t('night.corrections.bedIn'), t('night.corrections.bedOut')] : [t('night.corrections.from'), t('night.corrections.to')];
  return (
    <form
      className="corrections-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      data-testid="corrections-form"
    >
      <KindChoice kind={kind} onPick={pick} />
      <div className="corrections-times">
        <label>
          {labels[0]}
          <input type="text" inputMode="numeric" className="corrections-clock" value={from} onChange={(e) => setFrom(e.target.value)} required data-testid="correction-from" />
        </label>
        <label>
          {labels[1]}
          <input type="text" inputMode="numeric" className="corrections-clock" value={to} onChange={(e) => setTo(e.target.value)} required data-testid="correction-to" />
        </label>
        {kind === 'invalid_span' && (
          <button type="button" className="button button-small button-quiet" onClick={fromView} data-testid="correction-from-view">
            {t('night.corrections.fromView')}
          </button>
        )}
      </div>
      <label className="corrections-reason">
        {t('night.corrections.reason')}
        <input type="text" maxLength={500} value={reason} placeholder={t('night.corrections.reasonHint')} onChange={(e) => setReason(e.target.value)} data-testid="correction-reason" />
      </label>
      <button type="submit" className="button button-small" disabled={add.isPending} data-testid="correction-save">
        {t('night.corrections.save')}
      </button>
      {problem && <p className="error-text" role="alert" data-testid="correction-problem">{problem}</p>}
    </form>
  );
}

/** The span a form names, in ms, or what is wrong with it: outside the recording, backwards, too short, or without a reason. */
function correctionSpan(t: TFunction, form: { from: string; to: string; reason: string }, zone: string, start: number, stop: number): { a: number; b: number } | string {
  const a = clockToMs(form.from, zone, start, stop);
  const b = clockToMs(form.to, zone, start, stop);
  if (a === null || b === null) return t('night.corrections.errors.outside', { from: msToClock(start, zone), to: msToClock(stop, zone) });
  if (b <= a) return t('night.corrections.errors.order');
  if (b - a < MIN_CORRECTION_MS) return t('night.corrections.errors.short');
  if (!form.reason.trim()) return t('night.corrections.errors.reason');
  return { a, b };
}

function KindChoice({ kind, onPick }: { kind: CorrectionKind; onPick: (k: CorrectionKind) => void }) {
  const { t } = useTranslation();
  return (
    <fieldset className="corrections-kind">
      <legend>{t('night.corrections.kind')}</legend>
      <label className="check">
        <input type="radio" name="correction-kind" checked={kind === 'invalid_span'} onChange={() => onPick('invalid_span')} data-testid="correction-kind-invalid" />
        {t('night.corrections.kinds.invalid_span')}
      </label>
      <label className="check">
        <input type="radio" name="correction-kind" checked={kind === 'bed_times'} onChange={() => onPick('bed_times')} data-testid="correction-kind-bed" />
        {t('night.corrections.kinds.bed_times')}
      </label>
    </fieldset>
  );
}

/** The audit trail: every correction, active or not, with who made (and undid) it, when and why. */
function CorrectionList({ patientId, night, data }: { patientId: number; night: NightInfo; data: NightCorrections }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const { undo } = useCorrectionWrite(patientId, night.night);
  const [problem, setProblem] = useState<string | null>(null);
  if (data.corrections.length === 0) return null;
  const zone = night.timezone;
  const when = (iso: string) => fmt.dateTime(Date.parse(iso), zone);
  const line = (c: Correction) =>
    t(c.kind === 'bed_times' ? 'night.corrections.bedLine' : 'night.corrections.spanLine', { from: fmt.time(c.start_ms, zone), to: fmt.time(c.end_ms, zone) });
  return (
    <>
      <ul className="corrections-list" data-testid="corrections-list">
        {[...data.corrections].reverse().map((c) => (
          <li key={c.id} className={`correction correction-${c.status}`} data-testid={`correction-${c.id}`} data-status={c.status}>
            <strong>{line(c)}</strong> — {c.reason}
            <div className="muted">
              {t('night.corrections.by', { name: c.created_by_name, when: when(c.created_at) })}
              {' · '}
              {c.status === 'undone' && c.undone_at
                ? t('night.corrections.undoneBy', { name: c.undone_by_name ?? '', when: when(c.undone_at) })
                : t(`night.corrections.status.${c.status}`)}
            </div>
            {data.can_correct && c.status !== 'undone' && (
              <button
                type="button"
                className="button button-small button-quiet"
                disabled={undo.isPending}
                onClick={() => {
                  setProblem(null);
                  undo.mutate(c.id, { onError: (e) => setProblem(errorText(t, e)) });
                }}
                data-testid={`correction-undo-${c.id}`}
              >
                {t('night.corrections.undo')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {problem && <p className="error-text" role="alert">{problem}</p>}
    </>
  );
}
