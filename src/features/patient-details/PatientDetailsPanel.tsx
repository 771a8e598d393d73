import { DateTime } from 'luxon';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/messages';
import { Alert } from '../../ui/Alert';
import type { PatientInfo } from '../night/types';
import {
  useCheckupChange, useCheckups, useConditionChange, useDiseases,
} from './api';
import { HistoryCard } from './HistoryCard';
import { AccessLog } from './AccessLog';
import { Comments } from './Comments';
import { QuestionnaireCard } from './QuestionnaireCard';
import '../../styles/patient-details.css';
import { browserZone, formatIsoDay } from '../../format';
import { conditionName } from '../../builtInNames';

/** The "None" condition (spec 2 §3). */
const NONE_ID = 1;

/**
 * The Patient details tab (spec 2 §2): conditions with search, questionnaire answers, the
 * histories of symptoms, medication and diet plan, check-ups (hidden until shown) with
 * upcoming and past lists, and comments with pagination. Annotators read but do not change
 * any of them (spec 2 §6).
 */
export function PatientDetailsPanel({ patient, readOnly, zone }: { patient: PatientInfo; readOnly: boolean; zone?: string | null }) {
  // Histories and answers are dated in the patient's zone: their nights', else their device booking's.
  const patientZone = zone ?? patient.timezone ?? browserZone();
  return (
    <div className="patient-details" data-testid="patient-details">
      <Conditions patient={patient} readOnly={readOnly} />
      <QuestionnaireCard patientId={patient.patient_id} zone={patientZone} readOnly={readOnly} />
      <HistoryCard patientId={patient.patient_id} zone={patientZone} readOnly={readOnly} />
      <Checkups patientId={patient.patient_id} readOnly={readOnly} />
      <Comments patientId={patient.patient_id} readOnly={readOnly} />
      {!readOnly && <AccessLog patientId={patient.patient_id} />}
    </div>
  );
}

function Conditions({ patient, readOnly }: { patient: PatientInfo; readOnly: boolean }) {
  const { t } = useTranslation();
  const diseases = useDiseases();
  const change = useConditionChange(patient.patient_id);
  const [search, setSearch] = useState('');
  const ids = (patient.diseaseIds ?? '').split(',').filter(Boolean).map(Number);
  const byId = new Map((diseases.data ?? []).map((d) => [d.disease_id, d]));
  const query = search.trim().toLowerCase();
  const matches = query
    ? (diseases.data ?? []).filter((d) => !ids.includes(d.disease_id) && [d.disease_description, conditionName(t, d)!].some((n) => n.toLowerCase().includes(query))).slice(0, 8)
    : [];
  return (
    <section className="details-card" data-testid="conditions">
      <h3>{t('details.conditions.title')}</h3>
      <ul className="condition-chips">
        {ids.map((id) => (
          <li key={id} className="condition-chip" data-testid={`condition-${id}`}>
            {conditionName(t, byId.get(id)) ?? id}
            {!readOnly && (
              <button
                type="button"
                aria-label={t('details.conditions.remove', { name: conditionName(t, byId.get(id)) ?? id })}
                disabled={ids.length <= 1 || change.isPending}
                title={ids.length <= 1 ? t('details.conditions.lastOne') : undefined}
                onClick={() => change.mutate({ type: 'delete', diseaseId: id })}
                data-testid={`condition-remove-${id}`}
              >
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
      {!readOnly && (
        <div className="condition-search">
          <input
            type="search"
            value={search}
            placeholder={t('details.conditions.search')}
            aria-label={t('details.conditions.search')}
            onChange={(e) => setSearch(e.target.value)}
            data-testid="condition-search"
          />
          {matches.length > 0 && (
            <ul className="condition-matches" role="listbox">
              {matches.map((d) => (
                <li key={d.disease_id}>
                  <button
                    type="button"
                    role="option"
                    aria-selected="false"
                    onClick={() => {
                      change.mutate({ type: 'update', diseaseId: d.disease_id });
                      setSearch('');
                    }}
                    data-testid={`condition-add-${d.disease_id}`}
                  >
                    {conditionName(t, d)}
                    {d.disease_id === NONE_ID && <span className="muted"> — {t('details.conditions.noneHint')}</span>}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {change.isError && <Alert tone="error" testId="condition-error">{errorText(t, change.error)}</Alert>}
    </section>
  );
}

function Checkups({ patientId, readOnly }: { patientId: number; readOnly: boolean }) {
  const { t, i18n } = useTranslation();
  const [shown, setShown] = useState(false);
  const list = useCheckups(patientId, shown);
  const change = useCheckupChange(patientId);
  const tomorrow = DateTime.now().plus({ days: 1 }).toISODate()!;
  const [date, setDate] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const taken = new Set([...(list.data?.upcoming ?? []), ...(list.data?.past ?? [])].map((c) => c.checkup_date));
  const format = (iso: string) => formatIsoDay(iso, i18n.language);
  const add = () => {
    if (!date || date < tomorrow) return setProblem(t('details.checkups.fromTomorrow'));
    if (taken.has(date)) return setProblem(t('details.checkups.taken'));
    setProblem(null);
    change.mutate({ add: date }, { onSuccess: () => setDate('') });
  };
  return (
    <section className="details-card" data-testid="checkups">
      <header className="details-card-head">
        <h3>{t('details.checkups.title')}</h3>
        <button type="button" className="button button-small" aria-expanded={shown} onClick={() => setShown(!shown)} data-testid="checkups-toggle">
          {shown ? t('details.checkups.hide') : t('details.checkups.show')}
        </button>
      </header>
      {shown && (
        <>
          {!readOnly && (
            <div className="checkup-add">
              <input type="date" min={tomorrow} value={date} onChange={(e) => setDate(e.target.value)} aria-label={t('details.checkups.date')} data-testid="checkup-date" />
              <button type="button" className="button button-small" onClick={add} disabled={change.isPending} data-testid="checkup-add">{t('details.checkups.add')}</button>
            </div>
          )}
          {problem && <p className="error-text" role="alert" data-testid="checkup-problem">{problem}</p>}
          {change.isError && <Alert tone="error" testId="checkup-error">{errorText(t, change.error)}</Alert>}
          {(['upcoming', 'past'] as const).map((group) => (
            <div key={group} className="checkup-group" data-testid={`checkups-${group}`}>
              <h4>{t(`details.checkups.${group}`)}</h4>
              {(list.data?.[group] ?? []).length === 0 ? (
                <p className="muted">{t(`details.checkups.${group}Empty`)}</p>
              ) : (
                <ul>
                  {list.data![group].map((c) => (
                    <li key={c.checkup_date_id}>
                      <label>
                        <input
                          type="checkbox"
                          checked={c.mark_as_complete_flag === 1}
                          disabled={readOnly || change.isPending}
                          onChange={() => change.mutate({ toggle: c.checkup_date_id })}
                          data-testid={`checkup-${c.checkup_date}`}
                        />
                        {format(c.checkup_date)}
                      </label>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          ))}
        </>
      )}
    </section>
  );
}
