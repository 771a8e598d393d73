import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { AgreementReason, RoundScorer } from '../../../contract/scoring-rounds';
import { errorText } from '../../api/messages';
import { useFormat } from '../../format';
import { useAgreement, type Agreement } from './api';

/** A scorer as the tables name them: the annotator's name, or Nocturne, the device, the consensus. */
export function scorerName(t: TFunction, scorers: readonly RoundScorer[], key: string): string {
  const s = scorers.find((x) => x.key === key);
  if (!s) return key;
  return s.kind === 'human' ? s.name : t(`doubleScoring.scorerKinds.${s.kind}`);
}

/**
 * Each pair once, the scorer listed first (annotators, then Nocturne and the device) as the
 * reference: the reverse pair only swaps sensitivity and PPV, and F1 is the same.
 */
export function onePerPair<R extends { a: string; b: string }>(rows: readonly R[], scorers: readonly RoundScorer[]): R[] {
  const rank = (key: string) => {
    const i = scorers.findIndex((s) => s.key === key);
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  return rows.filter((r) => rank(r.a) < rank(r.b));
}

/** "–" with the reason, for a figure without a basis (the title carries the reason too). */
function Dash({ reason }: { reason: AgreementReason | null }) {
  const { t } = useTranslation();
  const why = t(`doubleScoring.reasons.${reason ?? 'no_events'}`);
  return (
    <span title={why} data-testid="agreement-dash">
      – <span className="muted">({why})</span>
    </span>
  );
}

/** The agreement of a round whose scorers have all submitted: AHI per scorer, staging κ, events F1. */
export function AgreementView({ roundId }: { roundId: number }) {
  const { t } = useTranslation();
  const query = useAgreement(roundId);
  if (query.isError) return <p className="error-text" role="alert">{errorText(t, query.error)}</p>;
  const a = query.data;
  if (!a) return <p className="muted">{t('common.loading')}</p>;
  return (
    <section className="agreement" data-testid="agreement">
      <h4>{t('doubleScoring.agreementTitle')}</h4>
      <AhiTable a={a} />
      <StageTable a={a} />
      <EventTable a={a} />
      <p className="muted" data-testid="agreement-rule">{t('doubleScoring.matchingRule', { epoch: a.epoch_s })}</p>
    </section>
  );
}

function AhiTable({ a }: { a: Agreement }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  return (
    <table className="data-table agreement-table" data-testid="agreement-ahi">
      <caption>{t('doubleScoring.ahiCaption')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('doubleScoring.scorer')}</th>
          <th scope="col">{t('doubleScoring.events')}</th>
          <th scope="col">{t('doubleScoring.hours')}</th>
          <th scope="col">{t('doubleScoring.ahi')}</th>
        </tr>
      </thead>
      <tbody>
        {a.ahi.map((r) => (
          <tr key={r.scorer} data-testid={`agreement-ahi-${r.scorer}`}>
            <th scope="row">{scorerName(t, a.scorers, r.scorer)}</th>
            <td>{fmt.number(r.events)}</td>
            <td>{r.hours === null ? '–' : `${fmt.number(r.hours, 2)} ${r.basis ? t(`doubleScoring.basis.${r.basis}`) : ''}`}</td>
            <td>{r.ahi === null ? <Dash reason={r.reason} /> : fmt.number(r.ahi, 1)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function StageTable({ a }: { a: Agreement }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  // Nobody staged the night by hand: one line, not a table of dashes.
  if (a.staging.every((r) => r.reason === 'no_stage_marks')) return <p className="muted" data-testid="agreement-no-staging">{t('doubleScoring.noStaging')}</p>;
  return (
    <table className="data-table agreement-table" data-testid="agreement-staging">
      <caption>{t('doubleScoring.stageCaption', { epoch: a.epoch_s })}</caption>
      <thead>
        <tr>
          <th scope="col">{t('doubleScoring.pair')}</th>
          <th scope="col">{t('doubleScoring.epochs')}</th>
          <th scope="col">{t('doubleScoring.percent')}</th>
          <th scope="col">{t('doubleScoring.kappa')}</th>
        </tr>
      </thead>
      <tbody>
        {onePerPair(a.staging, a.scorers).map((r) => (
          <tr key={`${r.a}|${r.b}`} data-testid={`agreement-stage-${r.a}-${r.b}`}>
            <th scope="row">{t('doubleScoring.pairName', { a: scorerName(t, a.scorers, r.a), b: scorerName(t, a.scorers, r.b) })}</th>
            <td>{fmt.number(r.epochs)}</td>
            <td>{r.percent === null ? <Dash reason={r.reason} /> : `${fmt.number(r.percent, 1)} %`}</td>
            <td data-testid="agreement-kappa">{r.kappa === null ? <Dash reason={r.reason} /> : fmt.number(r.kappa, 2)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function EventTable({ a }: { a: Agreement }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const ratio = (v: number | null) => (v === null ? '–' : fmt.number(v, 2));
  if (a.events.length === 0) return <p className="muted">{t('doubleScoring.noEvents')}</p>;
  return (
    <table className="data-table agreement-table" data-testid="agreement-events">
      <caption>{t('doubleScoring.eventCaption')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('doubleScoring.category')}</th>
          <th scope="col">{t('doubleScoring.pair')}</th>
          <th scope="col">{t('doubleScoring.counts')}</th>
          <th scope="col">{t('doubleScoring.matched')}</th>
          <th scope="col">{t('doubleScoring.sensitivity')}</th>
          <th scope="col">{t('doubleScoring.ppv')}</th>
          <th scope="col">{t('doubleScoring.f1')}</th>
        </tr>
      </thead>
      <tbody>
        {onePerPair(a.events, a.scorers).map((r) => (
          <tr key={`${r.category}|${r.a}|${r.b}`} data-testid={`agreement-event-${r.category}-${r.a}-${r.b}`}>
            <th scope="row">{t(`doubleScoring.categories.${r.category}`, { defaultValue: r.category })}</th>
            <td>{t('doubleScoring.pairName', { a: scorerName(t, a.scorers, r.a), b: scorerName(t, a.scorers, r.b) })}</td>
            <td>
              {fmt.number(r.a_count)} / {fmt.number(r.b_count)}
            </td>
            <td>{fmt.number(r.matched)}</td>
            <td>{ratio(r.sensitivity)}</td>
            <td>{ratio(r.ppv)}</td>
            <td data-testid="agreement-f1">{ratio(r.f1)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
