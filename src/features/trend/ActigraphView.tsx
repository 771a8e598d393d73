import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActigraphNight } from '../../../contract/analytics';
import { call } from '../../api/client';
import { errorText } from '../../api/messages';
import { formatClock } from '../../charts/core/format';
import { formatHours } from '../../../engine/duration';
import { Alert } from '../../ui/Alert';
import type { DateSpan } from './model';
import { useWidth } from './TrendChart';

/** One date of GET /analytics/patient/actigraph (spec 2 §3 "Actigraph per date"). */
export type ActigraphDay = ActigraphNight;
type Band = ActigraphDay['sleep_bands'][number];

/** Chart height (spec 2 §9). */
const HEIGHT = 150;
const PAD = { left: 8, right: 8, top: 8, bottom: 22 };
const HOUR_MS = 3_600_000;


function ActigraphChart({ date, day }: { date: string; day: ActigraphDay }) {
  const { t } = useTranslation();
  const [box, width] = useWidth<HTMLDivElement>();
  const { graph_start_time: t0, graph_stop_time: t1 } = day.meta_data;
  const plotW = width - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (ms: number) => PAD.left + ((ms - t0) / Math.max(1, t1 - t0)) * plotW;
  const values = day.line_data.flatMap(([, v]) => (v === null ? [] : [v]));
  const top = Math.max(1e-9, ...values);
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const points = day.line_data.flatMap(([ms, v]) => (v === null ? [] : [`${x(ms).toFixed(1)},${y(v).toFixed(1)}`])).join(' ');
  const hours: number[] = [];
  for (let h = Math.ceil(t0 / HOUR_MS) * HOUR_MS; h <= t1; h += HOUR_MS) hours.push(h);
  const band = (kind: 'sleep' | 'awake' | 'undefined', b: Band) => (
    <rect key={`${kind}-${b.from}`} className={`acti-band acti-${kind}`} x={x(b.from)} width={Math.max(0.5, x(b.to) - x(b.from))} y={PAD.top} height={plotH} />
  );
  const m = day.meta_data;
  return (
    <section className="actigraph-day" data-testid={`actigraph-${date}`}>
      <h4>{date}</h4>
      <div ref={box}>
      <svg direction="ltr" width={width} height={HEIGHT} role="img" aria-label={t('trend.actigraph.chartLabel', { date })}>
        {day.sleep_bands.map((b) => band('sleep', b))}
        {day.awake_bands.map((b) => band('awake', b))}
        {day.undefined_bands.map((b) => band('undefined', b))}
        {points && <polyline className="acti-line" points={points} />}
        {hours.map((h) => (
          <text key={h} className="trend-day" x={x(h)} y={HEIGHT - 6} textAnchor="middle">{formatClock(h, day.timezone)}</text>
        ))}
      </svg>
      </div>
      <p className="actigraph-caption" data-testid="actigraph-caption">
        {t('trend.actigraph.caption', {
          waso: m.waso ?? '–', tst: formatHours(m.total_sleep_time), sol: m.sol ?? '–',
          bedIn: m.bed_in_time ?? '--:--', bedOut: m.bed_out_time ?? '--:--',
        })}
      </p>
    </section>
  );
}

/**
 * Actigraph view of the trend (spec 2 §2): for each date with data, movement density over
 * the night on sleep, awake and unknown bands, and WASO, TST, SOL, bed-in and bed-out;
 * the Available Dates picker chooses which dates show.
 */
export function ActigraphView({ patientId, span }: { patientId: number; span: DateSpan }) {
  const { t } = useTranslation();
  const data = useQuery({
    queryKey: ['patient', patientId, 'actigraph', span.from, span.to],
    queryFn: async ({ signal }) =>
      (await call('GET /analytics/patient/actigraph', { query: { patient_id: patientId, start_date: span.from, end_date: span.to } }, { signal })).data,
  });
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  if (data.isError) return <Alert tone="error" testId="actigraph-error">{errorText(t, data.error)}</Alert>;
  if (!data.data) return <p className="muted loading" role="status">{t('common.loading')}</p>;
  const dates = Object.keys(data.data).sort();
  if (dates.length === 0) return <p className="muted" data-testid="actigraph-empty">{t('trend.actigraph.empty')}</p>;
  return (
    <div className="actigraph-view" data-testid="actigraph-view">
      <div className="actigraph-head">
        <div className="actigraph-dates" role="group" aria-label={t('trend.actigraph.dates')}>
          <span className="muted">{t('trend.actigraph.dates')}</span>
          {dates.map((d) => (
            <button
              key={d}
              type="button"
              className={`channel-button${hidden.has(d) ? '' : ' on'}`}
              aria-pressed={!hidden.has(d)}
              onClick={() => {
                const next = new Set(hidden);
                if (next.has(d)) next.delete(d);
                else next.add(d);
                setHidden(next);
              }}
              data-testid={`actigraph-date-${d}`}
            >
              {d}
            </button>
          ))}
        </div>
        <ul className="actigraph-legend">
          {(['sleep', 'awake', 'undefined'] as const).map((k) => (
            <li key={k}><span className={`legend-swatch acti-${k}`} aria-hidden="true" />{t(`trend.actigraph.legend.${k}`)}</li>
          ))}
        </ul>
      </div>
      {dates.filter((d) => !hidden.has(d)).map((d) => <ActigraphChart key={d} date={d} day={data.data[d]!} />)}
    </div>
  );
}
