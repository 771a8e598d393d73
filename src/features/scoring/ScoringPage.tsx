import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { errorText } from '../../api/messages';
import { useFormat } from '../../format';
import { patientDetailPath } from '../../routes';
import { Alert } from '../../ui/Alert';
import '../../styles/scoring.css';
import { useUserQuery } from '../../api/hooks';
import { useAssignments, useQuality, type Assignment } from './api';

/** What the list says of a round: an annotator's own state while it is scored, else the round's (a physician's: where it stands). */
function stateKey(a: Assignment, annotator: boolean): 'scoring' | 'submitted' | 'agreement' | 'adjudicated' | 'cancelled' | 'beingScored' | 'toAdjudicate' {
  if (!annotator) return a.status === 'scoring' ? 'beingScored' : a.status === 'agreement' ? 'toAdjudicate' : a.status;
  if (a.status === 'scoring') return a.submitted_at ? 'submitted' : 'scoring';
  return a.status;
}

/**
 * /app/scoring: the nights an annotator was given to score blind (issue 36 point 2), and their
 * agreement with the consensus on the nights already adjudicated (point 3).
 */
export function ScoringPage() {
  const { t } = useTranslation();
  const list = useAssignments();
  const annotator = useUserQuery().data?.is_annotator === true;
  return (
    <section className="card scoring-page" data-testid="scoring-page" aria-labelledby="scoring-title">
      <h2 id="scoring-title">{t('doubleScoring.pageTitle')}</h2>
      <p className="muted">{t(annotator ? 'doubleScoring.pageIntro' : 'doubleScoring.pageIntroPhysician')}</p>
      {list.isPending && <p className="muted loading" role="status">{t('common.loading')}</p>}
      {list.isError && <Alert tone="error">{errorText(t, list.error)}</Alert>}
      {list.data && list.data.length === 0 && <p className="muted" data-testid="scoring-empty">{t(annotator ? 'doubleScoring.empty' : 'doubleScoring.emptyPhysician')}</p>}
      {list.data && list.data.length > 0 && <AssignmentTable rows={list.data} annotator={annotator} />}
      {annotator && <QualitySection />}
    </section>
  );
}

function AssignmentTable({ rows, annotator }: { rows: Assignment[]; annotator: boolean }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  return (
    <table className="data-table agreement-table" data-testid="scoring-assignments">
      <thead>
        <tr>
          <th scope="col">{t('doubleScoring.columns.patient')}</th>
          <th scope="col">{t('doubleScoring.columns.night')}</th>
          <th scope="col">{t('doubleScoring.columns.state')}</th>
          <th scope="col">{t('doubleScoring.columns.assignedBy')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((a) => (
          <tr key={a.round_id} data-testid={`scoring-assignment-${a.round_id}`}>
            <td>
              {a.patient_name} <span className="mono muted">{a.patient_code}</span>
            </td>
            <td>
              <Link href={patientDetailPath(a.patient_id, a.night)} data-testid="scoring-open-night">
                {fmt.isoDay(a.recording_date)}
              </Link>
            </td>
            <td data-testid="scoring-assignment-state">{t(`doubleScoring.state.${stateKey(a, annotator)}`)}</td>
            <td>{a.created_by_name}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The caller's agreement with consensus, night by night and on average. */
function QualitySection() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const quality = useQuality(null).data;
  if (!quality) return null;
  const value = (v: number | null) => (v === null ? '–' : fmt.number(v, 2));
  return (
    <section className="scoring-quality" data-testid="scoring-quality">
      <h3>{t('doubleScoring.qualityTitle')}</h3>
      {quality.nights.length === 0 ? (
        <p className="muted">{t('doubleScoring.qualityNone')}</p>
      ) : (
        <>
          <p data-testid="scoring-quality-mean">{t('doubleScoring.qualityMean', { kappa: value(quality.mean_kappa), f1: value(quality.mean_event_f1), n: quality.nights.length })}</p>
          <table className="data-table agreement-table" data-testid="scoring-quality-nights">
            <thead>
              <tr>
                <th scope="col">{t('doubleScoring.columns.night')}</th>
                <th scope="col">{t('doubleScoring.kappa')}</th>
                <th scope="col">{t('doubleScoring.f1')}</th>
              </tr>
            </thead>
            <tbody>
              {quality.nights.map((n) => (
                <tr key={n.round_id}>
                  <td>
                    <Link href={patientDetailPath(n.patient_id, n.night)}>{fmt.isoDay(new Date(n.night * 1000).toISOString().slice(0, 10))}</Link>
                  </td>
                  <td>{value(n.kappa)}</td>
                  <td>{value(n.event_f1)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted">{t('doubleScoring.qualityDashNote')}</p>
        </>
      )}
    </section>
  );
}
