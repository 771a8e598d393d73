import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useTranslation } from 'react-i18next';
import type { ChartScreen } from '../../charts/screen';
import { errorText } from '../../api/messages';
import { useFormat } from '../../format';
import type { NightInfo } from '../night/types';
import { session } from '../../state/session';
import { Adjudication } from './Adjudication';
import { AgreementView } from './AgreementView';
import '../../styles/scoring.css';
import { useAnnotators, useQuality, useRound, useRoundWrites, type NightKey, type ScoringRound } from './api';

/**
 * Double scoring of the night (issue 36 point 2): the physician assigns it to two or more
 * annotators, each scores blind and submits; then the agreement is shown, the physician settles
 * every disagreement and the consensus becomes the night's marks of record.
 */
export function DoubleScoringPanel({ patientId, night, screen, isAnnotator }: { patientId: number; night: NightInfo; screen: ChartScreen; isAnnotator: boolean }) {
  const { t } = useTranslation();
  const key: NightKey = { patientId, night: night.night };
  const query = useRound(key);
  const round = query.data ?? null;
  const live = round !== null && round.status !== 'cancelled';
  // Opened by itself when the night asks something of the reader (scoring blind, disagreements to settle); closed only by them.
  const [open, setOpen] = useState(false);
  const asks = round?.blind === true || round?.status === 'agreement';
  useEffect(() => {
    if (asks) setOpen(true);
  }, [asks]);
  return (
    <>
      {round?.blind && (
        <p className="scoring-blind" role="status" data-testid="scoring-blind">
          {t(round.show_automatic ? 'doubleScoring.blindWithAutomatic' : 'doubleScoring.blind')}
        </p>
      )}
      <details className="double-scoring" data-testid="double-scoring" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>
          {t('doubleScoring.title')}
          {live && (
            <span className={`badge scoring-status scoring-status-${round.status}`} data-testid="scoring-status">
              {t(`doubleScoring.status.${round.status}`)}
            </span>
          )}
        </summary>
        {query.isError && <p className="error-text" role="alert">{errorText(t, query.error)}</p>}
        {/* Rendered only while open: a closed panel holds no keys (] and [ jump annotations again) and shades nothing. */}
        {query.isSuccess && open && <RoundBody round={live ? round : null} night={night} nightKey={key} screen={screen} isAnnotator={isAnnotator} />}
      </details>
    </>
  );
}

function RoundBody({ round, night, nightKey, screen, isAnnotator }: { round: ScoringRound | null; night: NightInfo; nightKey: NightKey; screen: ChartScreen; isAnnotator: boolean }) {
  const { t } = useTranslation();
  if (round === null) return isAnnotator ? <p className="muted" data-testid="scoring-none">{t('doubleScoring.noneAnnotator')}</p> : <AssignForm nightKey={nightKey} />;
  if (round.status === 'scoring') return <ScoringProgress round={round} nightKey={nightKey} isAnnotator={isAnnotator} />;
  return (
    <>
      <RoundHeader round={round} zone={night.timezone} />
      <AgreementView roundId={round.round_id} />
      {round.status === 'agreement' && !isAnnotator && <Adjudication round={round} night={night} nightKey={nightKey} screen={screen} />}
      {round.status === 'agreement' && isAnnotator && <p className="muted">{t('doubleScoring.waitingForAdjudication')}</p>}
      {/* A consensus made can be scored again: the next one, finished, replaces it as the night's marks of record. */}
      {round.status === 'adjudicated' && !isAnnotator && (
        <details className="scoring-again" data-testid="scoring-again">
          <summary>{t('doubleScoring.again')}</summary>
          <AssignForm nightKey={nightKey} />
        </details>
      )}
    </>
  );
}

/** Who assigned the round and when, and once adjudicated, who finished it. */
function RoundHeader({ round, zone }: { round: ScoringRound; zone: string }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  return (
    <p className="muted" data-testid="scoring-header">
      {t('doubleScoring.assignedBy', { name: round.created_by_name, when: fmt.dateTime(Date.parse(round.created_at), zone) })}
      {round.status === 'adjudicated' && round.finished_at && (
        <>
          {' · '}
          <strong data-testid="scoring-consensus">{t('doubleScoring.consensusBy', { name: round.finished_by_name ?? '', when: fmt.dateTime(Date.parse(round.finished_at), zone) })}</strong>
        </>
      )}
    </p>
  );
}

/** The physician's form: two or more of their annotators, and whether scorers see the automatic events. */
function AssignForm({ nightKey }: { nightKey: NightKey }) {
  const { t } = useTranslation();
  const annotators = useAnnotators(nightKey.patientId, true);
  const { create } = useRoundWrites(nightKey);
  const [chosen, setChosen] = useState<number[]>([]);
  const [automatic, setAutomatic] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const list = annotators.data ?? [];
  const flip = (id: number) => setChosen((c) => (c.includes(id) ? c.filter((x) => x !== id) : [...c, id]));
  const submit = () => {
    if (chosen.length < 2) return setProblem(t('doubleScoring.errors.twoScorers'));
    setProblem(null);
    create.mutate({ scorer_ids: chosen, show_automatic: automatic }, { onError: (e) => setProblem(errorText(t, e)) });
  };
  if (annotators.isSuccess && list.length < 2) return <p className="muted" data-testid="scoring-too-few">{t('doubleScoring.tooFewAnnotators', { n: list.length })}</p>;
  return (
    <form
      className="scoring-assign"
      data-testid="scoring-assign"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <p className="muted">{t('doubleScoring.assignHint')}</p>
      <fieldset>
        <legend>{t('doubleScoring.scorers')}</legend>
        {list.map((a) => (
          <ScorerChoice key={a.id} id={a.id} name={a.name} email={a.email} checked={chosen.includes(a.id)} onFlip={flip} />
        ))}
      </fieldset>
      <label className="check">
        <input type="checkbox" checked={automatic} onChange={(e) => setAutomatic(e.target.checked)} data-testid="scoring-show-automatic" />
        {t('doubleScoring.showAutomatic')}
      </label>
      <button type="submit" className="button button-small" disabled={create.isPending} data-testid="scoring-assign-submit">
        {t('doubleScoring.assign')}
      </button>
      {problem && <p className="error-text" role="alert" data-testid="scoring-problem">{problem}</p>}
    </form>
  );
}

/** One annotator to tick, with their agreement with consensus so far (issue 36 point 3). */
function ScorerChoice({ id, name, email, checked, onFlip }: { id: number; name: string; email: string; checked: boolean; onFlip: (id: number) => void }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const quality = useQuality(id).data;
  const figures =
    quality && quality.nights.length > 0
      ? t('doubleScoring.qualityShort', { kappa: quality.mean_kappa === null ? '–' : fmt.number(quality.mean_kappa, 2), f1: quality.mean_event_f1 === null ? '–' : fmt.number(quality.mean_event_f1, 2), n: quality.nights.length })
      : t('doubleScoring.qualityNone');
  return (
    <label className="check scorer-choice">
      <input type="checkbox" checked={checked} onChange={() => onFlip(id)} data-testid={`scoring-scorer-${id}`} />
      <span>
        {name} <span className="muted">({email})</span>
        <br />
        <span className="muted" data-testid={`scoring-quality-${id}`}>{figures}</span>
      </span>
    </label>
  );
}

/** While scoring: each scorer's state; the scorer's Submit; the physician's Cancel. */
function ScoringProgress({ round, nightKey, isAnnotator }: { round: ScoringRound; nightKey: NightKey; isAnnotator: boolean }) {
  const { t } = useTranslation();
  const { submit, cancel } = useRoundWrites(nightKey);
  const [problem, setProblem] = useState<string | null>(null);
  const fail = (e: unknown) => setProblem(errorText(t, e));
  const me = Number(useSnapshot(session).user_id);
  const mine = round.scorers.find((s) => s.user_id === me);
  return (
    <>
      <ul className="scoring-scorers" data-testid="scoring-scorers">
        {round.scorers.map((s) => (
          <li key={s.key} data-testid={`scoring-progress-${s.user_id}`} data-submitted={s.submitted_at !== null}>
            {s.name} — {s.submitted_at ? t('doubleScoring.submitted') : t('doubleScoring.scoring')}
          </li>
        ))}
      </ul>
      {round.blind && !mine?.submitted_at && (
        <button
          type="button"
          className="button button-small"
          disabled={submit.isPending}
          onClick={() => {
            if (window.confirm(t('doubleScoring.submitConfirm'))) submit.mutate(round.round_id, { onError: fail });
          }}
          data-testid="scoring-submit"
        >
          {t('doubleScoring.submit')}
        </button>
      )}
      {mine?.submitted_at && <p className="muted" data-testid="scoring-waiting">{t('doubleScoring.waitingForOthers')}</p>}
      {!isAnnotator && (
        <button type="button" className="button button-small button-quiet" disabled={cancel.isPending} onClick={() => cancel.mutate(round.round_id, { onError: fail })} data-testid="scoring-cancel">
          {t('doubleScoring.cancel')}
        </button>
      )}
      {problem && <p className="error-text" role="alert">{problem}</p>}
    </>
  );
}
