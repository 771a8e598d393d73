import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { formatHours } from '../../../engine/duration';
import { errorText } from '../../api/messages';
import { formatNightDate, formatValue } from '../../charts/core/format';
import type { Rgba } from '../../charts/gl/block';
import { Alert } from '../../ui/Alert';
import { SERIES_COLORS } from '../night/palette';
import { useTriage, type TriageNight, type TriagePatient } from './api';
import { SparklineBoard, type SparkPoint } from './sparklines';
import { DAY_MS } from '../../../engine/constants';
import { ahiBasisReason } from '../summary/basis';

/** Half a day around the first and last night, so their points are not on the cell's edge. */
const EDGE_MS = DAY_MS / 2;

type Figure = 'ahi' | 'odi' | 'lowest_spo2' | 'hours';
const FIGURES: ReadonlyArray<{ key: Figure; digits: number; label: 'dashboard.triage.odi' | 'dashboard.triage.spo2' | 'dashboard.triage.hours' | null }> = [
  // As many digits as the night's summary shows, so the two read the same.
  { key: 'ahi', digits: 2, label: null },
  { key: 'odi', digits: 2, label: 'dashboard.triage.odi' },
  { key: 'lowest_spo2', digits: 1, label: 'dashboard.triage.spo2' },
  { key: 'hours', digits: 0, label: 'dashboard.triage.hours' },
];

const nightHref = (p: TriagePatient) => `/app/patients/id=${p.patient_id}${p.last ? `?night=${p.last.night}` : ''}`;

/** One sparkline cell: registers its box with the table's board. */
function Sparkline({ board, id, points, range, color, label }: { board: SparklineBoard | null; id: string; points: SparkPoint[]; range: { t0: number; t1: number }; color: Rgba; label: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  const key = JSON.stringify(points);
  useLayoutEffect(() => {
    if (!board || !ref.current) return;
    board.set(id, ref.current, points, range, color);
    return () => board.drop(id);
    // Redraw when the values change (key), not when a new array with the same values arrives.
  }, [board, id, key, range.t0, range.t1]);
  return <span ref={ref} className="triage-spark" role="img" aria-label={label} data-testid="triage-spark" data-points={points.filter((p) => p.v !== null).length} />;
}

function FigureCell({ patient, figure, board, span }: { patient: TriagePatient; figure: (typeof FIGURES)[number]; board: SparklineBoard | null; span: number }) {
  const { t, i18n } = useTranslation();
  const last = patient.last!;
  const value = last[figure.key];
  const text = figure.key === 'hours' ? formatHours(value) : value === null || value === undefined ? '–' : formatValue(value, figure.digits, i18n.language);
  const t1 = last.night * 1000;
  const range = { t0: t1 - (span - 1) * DAY_MS - EDGE_MS, t1: t1 + EDGE_MS };
  const points = patient.nights.map((n: TriageNight) => ({ t: n.night * 1000, v: n[figure.key] ?? null }));
  const name = figure.label ? t(figure.label) : last.index_basis === 'monitoring' ? t('dashboard.triage.rei') : t('dashboard.triage.ahi');
  // No breathing signal: "–" with the reason, never 0 (the sparkline leaves such nights out).
  const noBasis = figure.key === 'ahi' ? ahiBasisReason(last.ahi_basis) : undefined;
  return (
    <td className="triage-figure" data-testid={`triage-${figure.key}`}>
      <span className="triage-value" title={noBasis ? t(noBasis) : undefined}>{text}</span>
      {noBasis && <span className="muted" data-testid="triage-no-basis"> {t(noBasis)}</span>}
      <Sparkline board={board} id={`${patient.patient_id}-${figure.key}`} points={points} range={range} color={SERIES_COLORS[0]!} label={t('dashboard.triage.trend', { figure: name, count: span })} />
    </td>
  );
}

function TriageRow({ patient, figures, board, span }: { patient: TriagePatient; figures: typeof FIGURES; board: SparklineBoard | null; span: number }) {
  const { t, i18n } = useTranslation();
  const [, navigate] = useLocation();
  const last = patient.last;
  const level = patient.attention;
  return (
    <tr className="triage-row" data-testid="triage-row" data-code={patient.patient_code} data-attention={level ?? ''} onClick={() => navigate(nightHref(patient))}>
      <th scope="row">
        <a href={nightHref(patient)} onClick={(e) => { e.preventDefault(); e.stopPropagation(); navigate(nightHref(patient)); }} data-testid="triage-open">{patient.patient_code}</a>
        {patient.name && <span className="muted"> · {patient.name}</span>}
        {patient.flagged && <span className="badge badge-atRisk" data-testid="triage-flagged">{t('dashboard.triage.flagged')}</span>}
      </th>
      <td data-testid="triage-attention">
        {level === null ? '–' : <span className={`triage-level triage-level-${level}`}>{t(`dashboard.triage.levels.${level as 0 | 1 | 2 | 3}`)}</span>}
      </td>
      <td data-testid="triage-night">{last ? formatNightDate(last.night, i18n.language) : t('dashboard.triage.noNight')}</td>
      {last === null
        ? <td colSpan={figures.length} className="muted" />
        : !last.analysed
          ? <td colSpan={figures.length} className="muted" role="status">{t('dashboard.triage.notAnalysed')}</td>
          : figures.map((f) => <FigureCell key={f.key} patient={patient} figure={f} board={board} span={span} />)}
    </tr>
  );
}

/**
 * The dashboard's triage table (issue 14 point 6): the practice's patients under care with
 * last night's AHI/REI, ODI, lowest SpO2 and hours recorded, each with a sparkline of the
 * last nights drawn by our WebGL renderer (one context for the whole table), sorted by the
 * server's attention order; a click on a row opens that night.
 */
export function TriageTable() {
  const { t } = useTranslation();
  const { triage, prepareError } = useTriage();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [board, setBoard] = useState<SparklineBoard | null>(null);
  const data = triage.data;
  const hasRows = !!data && data.patients.length > 0;
  // The server leaves AHI and ODI out for a paid membership (spec 2 §1).
  const paid = hasRows && !data.patients.some((p) => p.last && 'ahi' in p.last);
  useLayoutEffect(() => {
    if (!hasRows || !canvasRef.current) return;
    const b = new SparklineBoard(canvasRef.current);
    setBoard(b);
    return () => {
      setBoard(null);
      b.destroy();
    };
  }, [hasRows]);
  const body = () => {
    if (triage.isError) return <Alert tone="error" testId="triage-error">{errorText(t, triage.error)}</Alert>;
    if (!data) return <p className="muted loading" role="status">{t('common.loading')}</p>;
    if (!hasRows) return <p className="muted" data-testid="triage-empty">{t('dashboard.triage.empty')}</p>;
    const withIndices = data.patients.some((p) => p.last && 'ahi' in p.last);
    const figures = withIndices ? FIGURES : FIGURES.filter((f) => f.key !== 'ahi' && f.key !== 'odi');
    return (
      <div className="triage-wrap">
        <div className="triage-inner">
          <table className="triage-table" data-testid="triage-table">
            <thead>
              <tr>
                <th scope="col">{t('dashboard.triage.patient')}</th>
                <th scope="col">{t('dashboard.triage.attention')}</th>
                <th scope="col">{t('dashboard.triage.lastNight')}</th>
                {figures.map((f) => (
                  <th scope="col" key={f.key} title={f.key === 'ahi' ? t('dashboard.triage.indexHint') : undefined}>
                    {f.label ? t(f.label) : `${t('dashboard.triage.ahi')} / ${t('dashboard.triage.rei')}`}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.patients.map((p) => <TriageRow key={p.patient_id} patient={p} figures={figures} board={board} span={data.nights} />)}
            </tbody>
          </table>
          <canvas ref={canvasRef} className="triage-canvas" aria-hidden="true" data-testid="triage-canvas" />
        </div>
      </div>
    );
  };
  return (
    <section className="card triage" data-testid="triage">
      <h3>{t('dashboard.triage.title')}</h3>
      {/* A paid membership sees no AHI or ODI (spec 2 §1): its severity is the lowest SpO2's alone, and says so. */}
      <p className="muted" data-testid="triage-caption">{t(paid ? 'dashboard.triage.captionPaid' : 'dashboard.triage.caption', { count: data?.nights ?? 14 })}</p>
      {data && data.pending > 0 && !prepareError && <p className="muted" role="status" data-testid="triage-pending">{t('dashboard.triage.pending', { count: data.pending })}</p>}
      {prepareError && <Alert tone="error" testId="triage-prepare-error">{errorText(t, prepareError)}</Alert>}
      {body()}
    </section>
  );
}
