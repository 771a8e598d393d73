import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/messages';
import { useFormat } from '../../format';
import { Alert } from '../../ui/Alert';
import { entriesUpTo, HISTORY_KINDS, type HistoryKind } from '../../../contract/questionnaire-rules';
import type { NightInfo } from '../night/types';
import { useHistory } from '../patient-details/historyApi';
import { nightDayEnd } from '../patient-details/historyTime';

const TITLES = {
  symptom: 'summary.tables.symptoms',
  medication: 'summary.tables.medication',
  diet_plan: 'summary.tables.dietPlan',
} as const;

/**
 * The Summary's histories of symptoms, medication and diet plan (spec 2 §2): for the night
 * shown, every entry dated up to the end of the day the night ends, in the patient's zone,
 * newest first. A kind without such entries shows no table.
 */
export function HistoryTables({ patientId, night }: { patientId: number; night: NightInfo }) {
  return (
    <div className="summary-panel summary-histories" data-testid="summary-histories">
      {HISTORY_KINDS.map((kind) => <HistoryTable key={kind} patientId={patientId} night={night} kind={kind} />)}
    </div>
  );
}

function HistoryTable({ patientId, night, kind }: { patientId: number; night: NightInfo; kind: HistoryKind }) {
  const { t } = useTranslation();
  const f = useFormat();
  const list = useHistory(patientId, kind);
  if (list.isError) return <Alert tone="error">{errorText(t, list.error)}</Alert>;
  const zone = night.timezone;
  const end = nightDayEnd(night.recording_stop_time, zone);
  const entries = entriesUpTo(list.data ?? [], end);
  if (entries.length === 0) return null;
  return (
    <section className="summary-table" data-testid={`summary-history-${kind}`}>
      <h4>{t(TITLES[kind])}</h4>
      <p className="muted summary-note">{t('summary.historyNote', { day: f.day(end - 1, zone) })}</p>
      <table>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id}>
              <th scope="row">{f.dateTime(e.timestamp, zone)}</th>
              <td>{e.symptom_medication_value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
