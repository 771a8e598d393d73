import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { errorText } from '../../api/messages';
import { useFormat } from '../../format';
import { patientDetailPath } from '../../routes';
import { Alert } from '../../ui/Alert';
import { useSamplePatients } from './api';
import '../../styles/samples.css';

/** A night key (Unix seconds of 00:00 UTC of the local date) as yyyy-mm-dd. */
const isoOfNight = (key: number) => new Date(key * 1000).toISOString().slice(0, 10);

/**
 * /app/sample-patients: the practice's sample patients (spec 2 §2), for its physicians and
 * annotators. Each opens on its latest night in the ordinary, here read-only, night view.
 */
export function SamplePatientsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const samples = useSamplePatients();
  return (
    <section className="card samples-page" data-testid="samples-page" aria-labelledby="samples-title">
      <h2 id="samples-title">{t('samples.title')}</h2>
      <p className="muted">{t('samples.intro')}</p>
      {samples.isPending && <p className="muted loading" role="status">{t('common.loading')}</p>}
      {samples.isError && <Alert tone="error">{errorText(t, samples.error)}</Alert>}
      {samples.data && samples.data.length === 0 && <p className="muted" data-testid="samples-empty">{t('samples.empty')}</p>}
      {samples.data && samples.data.length > 0 && (
        <table className="samples-table" data-testid="samples-table">
          <thead>
            <tr>
              <th scope="col">{t('samples.columns.name')}</th>
              <th scope="col">{t('samples.columns.code')}</th>
              <th scope="col">{t('samples.columns.nights')}</th>
              <th scope="col">{t('samples.columns.latest')}</th>
            </tr>
          </thead>
          <tbody>
            {samples.data.map((s) => {
              const latest = s.nights.at(-1);
              return (
                <tr key={s.patient_id} data-testid={`sample-row-${s.patient_id}`}>
                  <td>
                    <Link href={patientDetailPath(s.patient_id, latest)} data-testid="sample-link">{s.name}</Link>
                  </td>
                  <td className="mono">{s.patient_code}</td>
                  <td>{format.number(s.night_count)}</td>
                  <td>{latest === undefined ? '–' : format.isoDay(isoOfNight(latest))}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
