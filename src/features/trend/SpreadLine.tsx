import { useTranslation } from 'react-i18next';
import { formatValue } from '../../charts/core/format';
import { FEW_NIGHTS, indexSpread } from '../../../contract/trendSpread';

/**
 * An index over the shown nights (issue 31 point 8): mean with its 95 % t-interval, the
 * night-to-night SD, the severity of the mean and how many nights it rests on, with a warning
 * under FEW_NIGHTS nights or when the interval reaches another severity class.
 */
export function SpreadLine({ values }: { values: readonly number[] }) {
  const { t, i18n } = useTranslation();
  const s = indexSpread(values);
  if (!s) return null;
  const f = (v: number) => formatValue(v, 2, i18n.language);
  return (
    <div className="trend-spread" data-testid="trend-spread">
      <p>
        {t('nightBasis.spread', { count: s.nights, mean: f(s.mean), severity: t(`nightBasis.severity.${s.severity}`) })}
        {s.ci95 && s.sd !== null && <> {t('nightBasis.spreadInterval', { lo: f(s.ci95[0]), hi: f(s.ci95[1]), sd: f(s.sd) })}</>}
      </p>
      {s.fewNights && <p className="muted" data-testid="trend-few-nights">{t('nightBasis.fewNights', { count: s.nights, few: FEW_NIGHTS })}</p>}
      {s.severityUncertain && <p className="muted" data-testid="trend-severity-uncertain">{t('nightBasis.severityUncertain')}</p>}
    </div>
  );
}
