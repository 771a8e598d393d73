import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { NightAgreement } from '../../../contract/analytics';
import { call } from '../../api/client';
import { formatValue } from '../../charts/core/format';
import { vendorName } from '../annotations/model';
import type { NightInfo } from '../night/types';

function useNightAgreement(patientId: number, night: NightInfo | null) {
  return useQuery({
    queryKey: ['patient', patientId, 'agreement', night?.night],
    queryFn: async ({ signal }) => (await call('GET /analytics/patient/agreement', { query: { patient_id: patientId, night: night!.night } }, { signal })).data,
    enabled: night !== null,
  });
}

/**
 * The device's own scoring beside Nocturne's, and their agreement (issue 12): shown only for
 * a night with device- or PSG-scored events.
 */
export function AgreementTables({ patientId, night }: { patientId: number; night: NightInfo | null }) {
  const { t, i18n } = useTranslation();
  const pct = (v: number | null) => (v === null ? '–' : `${formatValue(v * 100, 0, i18n.language)} %`);
  const num = (v: number | null | undefined) => (v === null || v === undefined ? '–' : formatValue(v, 2, i18n.language));
  const q = useNightAgreement(patientId, night);
  const a = q.data;
  if (!a?.has_reference) return null;
  const vendor = a.vendors.map(vendorName).join(', ');
  const basis = t(`summary.agreement.basis.${a.index_basis}`);
  // Without a breathing signal (during sleep) Nocturne could score nothing: no count is a comparison.
  const compared = a.nocturne_basis === 'breathing_signal';
  const count = (n: number) => (compared ? n : '–');
  return (
    <div className="summary-panel summary-agreement" data-testid="summary-agreement-block">
      <DeviceEvents a={a} vendor={vendor} />
      <section className="summary-table" data-testid="summary-agreement">
        <h4>{t('summary.agreement.title', { vendor })}</h4>
        {!compared && (
          <p className="muted" data-testid="agreement-not-compared">
            {t('summary.agreement.notCompared', { reason: t(a.nocturne_basis === 'no_breathing_signal' ? 'nightBasis.noBreathing' : 'nightBasis.noBreathingInSleep') })}
          </p>
        )}
        <table>
          <tbody>
            <tr><th scope="row">{t('summary.agreement.matched')}</th><td data-testid="agreement-matched">{count(a.matched)}</td></tr>
            <tr><th scope="row">{t(a.rules?.device === 'scorer' ? 'summary.agreement.missedScorer' : 'summary.agreement.missed')}</th><td data-testid="agreement-missed">{count(a.missed)}</td></tr>
            <tr><th scope="row">{t('summary.agreement.extra')}</th><td data-testid="agreement-extra">{count(a.extra)}</td></tr>
            <tr><th scope="row">{t('summary.agreement.sensitivity')}</th><td data-testid="agreement-sensitivity">{pct(a.sensitivity)}</td></tr>
            <tr><th scope="row">{t('summary.agreement.ppv')}</th><td data-testid="agreement-ppv">{pct(a.ppv)}</td></tr>
            {a.nocturne_ahi !== undefined && (
              <tr><th scope="row">{t('summary.agreement.nocturneAhi', { basis })}</th><td data-testid="agreement-nocturne-ahi">{num(a.nocturne_ahi)}</td></tr>
            )}
            {a.device_ahi !== undefined && (
              <tr>
                <th scope="row">
                  {a.device_ahi_basis === 'device_summary'
                    ? t('nightFiles.deviceAhiSummary', { vendor })
                    : a.device_ahi_basis === 'device_recording_time'
                      ? t('nightFiles.deviceAhiOwn', { vendor, hours: num(a.device_hours) })
                      : a.device_ahi_basis === 'scorer_sleep_time'
                        ? t('nightFiles.deviceAhiSleep', { vendor, hours: num(a.device_hours) })
                        : t('summary.agreement.deviceAhi', { vendor, basis })}
                </th>
                <td data-testid="agreement-device-ahi">{num(a.device_ahi)}</td>
              </tr>
            )}
            {a.by_kind && (
              <>
                <tr><th scope="row">{t('nightFiles.apneasByKind')}</th><td data-testid="agreement-apneas">{compared ? t('nightFiles.byKind', a.by_kind.apneas) : '–'}</td></tr>
                <tr><th scope="row">{t('nightFiles.hypopneasByKind')}</th><td data-testid="agreement-hypopneas">{compared ? t('nightFiles.byKind', a.by_kind.hypopneas) : '–'}</td></tr>
              </>
            )}
          </tbody>
        </table>
        <p className="muted">{t('summary.agreement.note', { seconds: a.tolerance_s })}</p>
        {a.rules && (
          <p className="muted" data-testid="agreement-rules">
            {t(a.rules.device === 'scorer' ? 'nightFiles.rulesScorer' : 'nightFiles.rules', { vendor, rule: t(a.rules.nocturne === 'aasm' ? 'nightFiles.ruleAasm' : 'nightFiles.ruleFlowOnly') })}
          </p>
        )}
      </section>
    </div>
  );
}

/** The device's own counts beside Nocturne's, and the files they come from. */
function DeviceEvents({ a, vendor }: { a: NightAgreement; vendor: string }) {
  const { t } = useTranslation();
  // A PSG's scoring file was scored by a person or a lab's software, not by a device.
  const scorer = a.rules?.device === 'scorer';
  // Where Nocturne could score nothing (no breathing signal during sleep), its counts are no 0 but "–", as its AHI (decision 1050).
  const counted = a.nocturne_basis === 'breathing_signal';
  return (
    <section className="summary-table" data-testid="summary-device-events">
      <h4>{t(scorer ? 'summary.agreement.scorerTitle' : 'summary.agreement.deviceTitle', { vendor })}</h4>
      <table>
        <thead>
          <tr>
            <th scope="col" />
            <th scope="col">{t('summary.agreement.nocturne')}</th>
            <th scope="col">{t(scorer ? 'summary.agreement.scorer' : 'summary.agreement.device', { vendor })}</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">{t('summary.fields.apneas')}</th>
            <td data-testid="nocturne-apneas">{counted ? a.nocturne.apneas : '–'}</td>
            <td data-testid="device-apneas">{a.device.apneas}</td>
          </tr>
          <tr>
            <th scope="row">{t('summary.fields.hypopneas')}</th>
            <td data-testid="nocturne-hypopneas">{counted ? a.nocturne.hypopneas : '–'}</td>
            <td data-testid="device-hypopneas">{a.device.hypopneas}</td>
          </tr>
          {a.device.desaturations > 0 && (
            <tr>
              <th scope="row">{t('summary.fields.desaturations')}</th>
              <td>–</td>
              <td>{a.device.desaturations}</td>
            </tr>
          )}
        </tbody>
      </table>
      <p className="muted">{t('summary.agreement.files', { files: a.files.join(', ') })}</p>
    </section>
  );
}
