// Render: the report's content as a PDF (pdfkit). Tables are text, charts are vector paths
// drawn from the engine's downsampled views; every page carries the patient, the practice
// and "page n of N". A value the night does not have prints "–".
import PDFDocument from 'pdfkit';
import { formatHours } from '../../engine/duration';
import type { ChartView, NightContent, ReportContent } from './content';
import { fill, reportTitle, TEXTS, type ReportTexts } from './texts';
import { reportChannelName, reportChannelsLine } from './names';
import { channelCell, indexCell, measuredSection, noStagingNote, odiCell, sleepCell, vitalsNotes, trendSpreadSection } from './measured';
import { CONTENT_W, DASH, GRID, INK, MARGIN, MUTED, PAGE, Writer, type Doc } from './writer';
import { VITAL_UNITS } from '../../contract/vital-units';

/** A count beside an index with no basis: nothing could be scored, so "–" (the index gives the reason), not 0. */
const countCell = (count: number, none: boolean) => (none ? DASH : String(count));

const clock = (msUtc: number, zone: string, seconds = false) =>
  new Date(msUtc).toLocaleTimeString('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', ...(seconds ? { second: '2-digit' } : {}) });

/** The y of value v in a chart box. */
const scaleY = (v: number, lo: number, hi: number, top: number, h: number) => top + h - ((Math.min(hi, Math.max(lo, v)) - lo) / (hi - lo)) * h;

/** Hour ticks under a night chart, in the night's time zone. */
function timeAxis(doc: Doc, view: ChartView, zone: string, left: number, width: number, y: number) {
  const span = view.t1 - view.t0;
  if (span <= 0) return;
  const hour = 3_600_000;
  const step = span > 12 * hour ? 2 * hour : hour;
  doc.font('Helvetica').fontSize(7).fillColor(MUTED);
  for (let t = Math.ceil(view.t0 / step) * step; t <= view.t1; t += step) {
    const x = left + ((t - view.t0) / span) * width;
    doc.moveTo(x, y).lineTo(x, y + 3).lineWidth(0.4).strokeColor(MUTED).stroke();
    doc.text(clock(t, zone), x - 12, y + 4, { width: 24, align: 'center', lineBreak: false });
  }
  doc.fillColor(INK);
}

/** SpO2: a vertical stroke per column from its min to its max, on 50-100 %, the red line at 90. */
function spo2Chart(w: Writer, night: NightContent) {
  const { doc, t } = w;
  // The heading stays with its chart.
  w.need(170);
  w.heading(t.spo2Chart, 10);
  if (!night.spo2 || !night.spo2.max.some((v) => v !== null)) return w.note(fill(t.noData, { channel: 'SpO2' }));
  const h = 120;
  w.need(h + 24);
  const left = MARGIN.left + 24;
  const width = CONTENT_W - 24;
  const top = doc.y + 4;
  const lo = 50;
  const hi = 100;
  doc.font('Helvetica').fontSize(7).fillColor(MUTED);
  for (const g of [50, 60, 70, 80, 90, 100]) {
    const y = scaleY(g, lo, hi, top, h);
    doc.moveTo(left, y).lineTo(left + width, y).lineWidth(0.3).strokeColor(GRID).stroke();
    doc.text(String(g), MARGIN.left, y - 3, { width: 20, align: 'right', lineBreak: false });
  }
  const v = night.spo2;
  // Time a manual correction leaves out of the analysis, shaded under the trace.
  const span = v.t1 - v.t0;
  for (const b of night.excluded) {
    if (span <= 0) break;
    const x0 = left + (Math.max(v.t0, b.startMs) - v.t0) / span * width;
    const x1 = left + (Math.min(v.t1, b.endMs) - v.t0) / span * width;
    if (x1 > x0) doc.rect(x0, top, x1 - x0, h).fillColor('#e5e7eb').fill();
  }
  const colW = width / v.max.length;
  doc.lineWidth(Math.max(0.6, colW)).strokeColor('#2563eb');
  v.max.forEach((mx, i) => {
    const mn = v.min[i];
    if (mx === null || mn === null) return;
    const x = left + (i + 0.5) * colW;
    const y1 = scaleY(mx, lo, hi, top, h);
    const y0 = Math.max(y1 + 0.6, scaleY(mn, lo, hi, top, h));
    doc.moveTo(x, y0).lineTo(x, y1);
  });
  doc.stroke();
  const y90 = scaleY(90, lo, hi, top, h);
  doc.moveTo(left, y90).lineTo(left + width, y90).lineWidth(1).strokeColor('#dc2626').stroke();
  timeAxis(doc, v, night.recording.timezone, left, width, top + h);
  doc.x = MARGIN.left;
  doc.y = top + h + 16;
}

/** Hypnogram: the stage of each column as a step line (awake on top, deep at the bottom). */
function hypnogram(w: Writer, night: NightContent) {
  const { doc, t } = w;
  w.need(120);
  w.heading(t.hypnogram, 10);
  const v = night.hypnogram;
  const LEVEL: Record<number, number> = { 1: 0, 2: 1, 4: 2, 5: 3 };
  if (!v || !v.max.some((x) => x !== null && x in LEVEL)) return w.note(fill(t.noData, { channel: reportChannelName(w.content.language, 'SLP_STGS') }));
  const h = 70;
  w.need(h + 24);
  const left = MARGIN.left + 44;
  const width = CONTENT_W - 44;
  const top = doc.y + 4;
  const labels = [t.deep, t.light, t.rem, t.awake];
  doc.font('Helvetica').fontSize(7).fillColor(MUTED);
  labels.forEach((label, level) => {
    const y = top + h - (level / 3) * h;
    doc.moveTo(left, y).lineTo(left + width, y).lineWidth(0.3).strokeColor(GRID).stroke();
    doc.text(label, MARGIN.left, y - 3, { width: 40, align: 'right', lineBreak: false });
  });
  const colW = width / v.max.length;
  let open = false;
  doc.lineWidth(1).strokeColor('#7c3aed');
  v.max.forEach((code, i) => {
    const level = code === null ? undefined : LEVEL[Math.round(code)];
    if (level === undefined) {
      open = false;
      return;
    }
    const y = top + h - (level / 3) * h;
    const x = left + i * colW;
    if (open) doc.lineTo(x, y);
    else doc.moveTo(x, y);
    doc.lineTo(x + colW, y);
    open = true;
  });
  doc.stroke();
  timeAxis(doc, v, night.recording.timezone, left, width, top + h);
  doc.x = MARGIN.left;
  doc.y = top + h + 16;
}

/** The RII scale 0-50 with its bands (< 5, 5-15, 15-30, > 30) and the nights' values marked. */
function riiScale(w: Writer, values: Array<number | null>) {
  const { doc, t } = w;
  w.need(70);
  w.heading(t.riiScale, 10);
  const h = 14;
  w.need(h + 34);
  const left = MARGIN.left;
  const width = CONTENT_W;
  const top = doc.y + 4;
  const x = (v: number) => left + (Math.min(50, Math.max(0, v)) / 50) * width;
  const bands: Array<[number, number, string, string]> = [
    [0, 5, '#dcfce7', t.riiNormal],
    [5, 15, '#fef9c3', t.riiMild],
    [15, 30, '#fed7aa', t.riiModerate],
    [30, 50, '#fecaca', t.riiSevere],
  ];
  for (const [a, b, color, label] of bands) {
    doc.rect(x(a), top, x(b) - x(a), h).fill(color);
    doc.font('Helvetica').fontSize(6.5).fillColor(MUTED).text(label, x(a) + 2, top + h + 10, { width: x(b) - x(a) - 4, lineBreak: false });
  }
  doc.font('Helvetica').fontSize(7).fillColor(MUTED);
  for (const mark of [0, 5, 15, 30, 50]) {
    doc.moveTo(x(mark), top).lineTo(x(mark), top + h + 3).lineWidth(0.5).strokeColor(MUTED).stroke();
    doc.text(String(mark), x(mark) - 8, top + h + 2, { width: 16, align: 'center', lineBreak: false });
  }
  for (const v of values) {
    if (v === null) continue;
    const cx = x(v);
    doc.moveTo(cx, top - 2).lineTo(cx - 3, top - 7).lineTo(cx + 3, top - 7).closePath().fill(INK);
    doc.moveTo(cx, top).lineTo(cx, top + h).lineWidth(1.2).strokeColor(INK).stroke();
  }
  doc.fillColor(INK);
  doc.x = MARGIN.left;
  doc.y = top + h + 22;
}

/** The vital rows, each with its figures' unit as the Summary prints it (decision 1044). */
const VITALS: Array<[string, string]> = [
  ['BR', `BR (${VITAL_UNITS.BR})`],
  ['HR', `HR (${VITAL_UNITS.HR})`],
  ['SPO2', `SpO2 (${VITAL_UNITS.SPO2})`],
  ['PR', `PR (${VITAL_UNITS.PR})`],
  ['MOV', 'MOV'],
];

/** The recording device, or why there is none: a night imported from files names no Nocturne device. */
function deviceText(night: NightContent, t: ReportTexts): string {
  if (night.recording.device_id) return night.recording.device_id;
  if (night.fileCount === 0) return DASH;
  return night.fileCount === 1 ? t.importedFile : fill(t.importedFiles, { n: night.fileCount });
}

function singleNight(w: Writer, night: NightContent, first: boolean) {
  const { doc, t, n } = w;
  const s = night.summary;
  const zone = night.recording.timezone;
  if (!first) doc.addPage();
  doc.font('Helvetica-Bold').fontSize(15).fillColor(INK).text(`${reportTitle(w.content.type, t)} ${DASH} ${night.date}`, MARGIN.left, doc.y, { width: CONTENT_W });
  doc.font('Helvetica').fontSize(9).fillColor(MUTED).text(`${t.device}: ${deviceText(night, t)}`, { width: CONTENT_W });
  doc.fillColor(INK);
  w.heading(t.recording, 11);
  w.pairs([
    [t.start, clock(s.recording_start_time, zone)],
    [t.stop, clock(s.recording_stop_time, zone)],
    [t.bedIn, s.bed_in_time ?? DASH],
    [t.bedOut, s.bed_out_time ?? DASH],
    [t.totalBedTime, formatHours(s.total_bed_time)],
    [t.totalSleepTime, sleepCell(w, s.total_sleep_time === null ? null : formatHours(s.total_sleep_time), s.sleep_basis)],
    [t.sleepEfficiency, sleepCell(w, s.sleep_efficiency === null ? null : n(s.sleep_efficiency), s.sleep_basis)],
    [t.sol, sleepCell(w, s.sol === null ? null : n(s.sol, 0), s.sleep_basis)],
    [t.waso, sleepCell(w, s.waso === null ? null : n(s.waso, 0), s.sleep_basis)],
    [t.goodSignal, channelCell(w, s.good_signal_duration, 'noSqbChannel')],
    [t.breathingTime, channelCell(w, s.total_breathing_time, 'noBrChannel')],
    [t.weight, n(s.recorded_weight)],
  ]);
  if (night.corrections.length > 0) {
    const items = night.corrections.map((c) => `${fill(c.kind === 'bed_times' ? t.correctionBed : t.correctionInvalid, { from: clock(c.startMs, zone), to: clock(c.endMs, zone) })} (${c.reason}; ${c.by})`);
    w.note(`${t.corrected} ${items.join('; ')}`);
  }
  const rei = s.index_basis === 'monitoring';
  // Counts beside an index with no basis are "–" (countCell).
  const noAhi = 'ahi' in s && s.ahi === null && s.ahi_basis !== 'breathing_signal';
  const noOdi = 'odi' in s && s.odi === null && s.odi_basis !== undefined && s.odi_basis !== 'spo2';
  w.heading(t.indices, 11);
  w.pairs([
    [t.rii, indexCell(w, s.rii, s.ahi_basis)],
    [t.riiDivisor, s.rii_divisor],
    ...('ahi' in s
      ? ([
          [rei ? t.rei : t.ahi, indexCell(w, s.ahi, s.ahi_basis)],
          [t.apneas, countCell(s.apneas, noAhi)],
          [t.hypopneas, countCell(s.hypopneas, noAhi)],
          [t.odi, odiCell(w, s.odi, s.odi_basis)],
          [t.desaturations, countCell(s.desaturations, noOdi)],
        ] as Array<[string, string]>)
      : []),
    [t.rule, String(s.desaturation_rule)],
    [t.lowestSpo2, n(s.lowest_spo2)],
  ]);
  riiScale(w, [s.rii]);
  measuredSection(w, night);
  w.heading(t.vitals, 11);
  w.table(
    [t.channel, t.median, t.p10, t.p90, t.mean, t.min, t.max],
    VITALS.map(([code, label]) => {
      const p = s.percentiles[code];
      return [label, n(p?.medianPercentile), n(p?.lowerPercentile), n(p?.upperPercentile), n(p?.mean), n(p?.min), n(p?.max)];
    }),
    [0.22, 0.13, 0.13, 0.13, 0.13, 0.13, 0.13],
  );
  vitalsNotes(
    w,
    VITALS.filter(([code]) => !s.percentiles[code]).map(([, label]) => label),
    VITALS.filter(([code]) => s.percentiles[code]?.count === 0).map(([, label]) => label),
  );
  w.heading(t.customizedIndex, 11);
  w.table(null, [Object.keys(s.customized_index), Object.values(s.customized_index).map(String)], Object.keys(s.customized_index).map(() => 1 / Math.max(1, Object.keys(s.customized_index).length)), 8);
  spo2Chart(w, night);
  hypnogram(w, night);
  w.heading(t.annotations, 11);
  if (night.annotations.length === 0) w.note(t.noAnnotations);
  else {
    const MAX = 300;
    w.table(
      [t.time, t.duration, t.category, t.channels, t.comment],
      night.annotations.slice(0, MAX).map((a) => [clock(a.startMs, zone, true), formatHours((a.endMs - a.startMs) / 3_600_000), a.label, reportChannelsLine(w.content.language, a.kpi), a.comment.replace(/\s+/g, ' ')]),
      [0.14, 0.12, 0.18, 0.18, 0.38],
      8,
    );
    if (night.annotations.length > MAX) w.note(fill(t.moreAnnotations, { n: night.annotations.length - MAX }));
  }
}

/** Box plots per night of one channel: box 10th-90th percentile, median line, whiskers min-max. */
function boxPlots(w: Writer, code: string, label: string, nights: NightContent[]) {
  const { doc, t } = w;
  w.need(140);
  w.heading(label, 10);
  const points = nights.map((n) => n.summary.percentiles[code] ?? null);
  const values = points.flatMap((p) => (p ? [p.min, p.max] : [])).filter((v): v is number => v !== null);
  if (values.length === 0) return w.note(fill(t.noData, { channel: label }));
  let lo = Math.floor(Math.min(...values));
  let hi = Math.ceil(Math.max(...values));
  if (hi - lo < 1) {
    lo -= 1;
    hi += 1;
  }
  const h = 90;
  w.need(h + 26);
  const left = MARGIN.left + 28;
  const width = CONTENT_W - 28;
  const top = doc.y + 4;
  doc.font('Helvetica').fontSize(7).fillColor(MUTED);
  for (let i = 0; i <= 4; i++) {
    const v = lo + ((hi - lo) * i) / 4;
    const y = scaleY(v, lo, hi, top, h);
    doc.moveTo(left, y).lineTo(left + width, y).lineWidth(0.3).strokeColor(GRID).stroke();
    doc.text(w.n(v, hi - lo < 8 ? 1 : 0), MARGIN.left, y - 3, { width: 24, align: 'right', lineBreak: false });
  }
  const colW = width / nights.length;
  const boxW = Math.max(1, Math.min(14, colW * 0.6));
  points.forEach((p, i) => {
    if (!p || p.min === null || p.max === null) return;
    const cx = left + (i + 0.5) * colW;
    doc.moveTo(cx, scaleY(p.min, lo, hi, top, h)).lineTo(cx, scaleY(p.max, lo, hi, top, h)).lineWidth(0.5).strokeColor(MUTED).stroke();
    if (p.lowerPercentile !== null && p.upperPercentile !== null) {
      const yTop = scaleY(p.upperPercentile, lo, hi, top, h);
      const yBot = scaleY(p.lowerPercentile, lo, hi, top, h);
      doc.rect(cx - boxW / 2, yTop, boxW, Math.max(0.5, yBot - yTop)).lineWidth(0.5).fillAndStroke('#bfdbfe', '#1d4ed8');
    }
    if (p.medianPercentile !== null) {
      const ym = scaleY(p.medianPercentile, lo, hi, top, h);
      doc.moveTo(cx - boxW / 2, ym).lineTo(cx + boxW / 2, ym).lineWidth(1).strokeColor('#1e3a8a').stroke();
    }
  });
  // Date labels: about ten along the axis.
  const every = Math.max(1, Math.ceil(nights.length / 10));
  doc.font('Helvetica').fontSize(6.5).fillColor(MUTED);
  nights.forEach((n, i) => {
    if (i % every !== 0) return;
    const cx = left + (i + 0.5) * colW;
    doc.text(n.date.slice(5), cx - 14, top + h + 3, { width: 28, align: 'center', lineBreak: false });
  });
  doc.fillColor(INK);
  doc.x = MARGIN.left;
  doc.y = top + h + 16;
}

function trend(w: Writer) {
  const { doc, t, n, content } = w;
  const nights = content.nights;
  doc.font('Helvetica-Bold').fontSize(15).fillColor(INK).text(reportTitle(content.type, t), MARGIN.left, doc.y, { width: CONTENT_W });
  const period = nights.length ? `${nights[0]!.date} ${DASH} ${nights[nights.length - 1]!.date}` : DASH;
  doc.font('Helvetica').fontSize(9).fillColor(MUTED).text(`${t.period}: ${period} · ${t.nights}: ${nights.length}`, { width: CONTENT_W });
  doc.fillColor(INK);
  riiScale(w, nights.map((x) => x.summary.rii));
  trendSpreadSection(w);
  w.heading(t.boxPlots, 9);
  for (const [code, label] of VITALS.slice(0, 4)) boxPlots(w, code, label, nights);
  const paid = nights.length > 0 && !('ahi' in nights[0]!.summary);
  const insomnia = content.type === 'en-us';
  const study = content.type !== 'en' && !insomnia;
  if (!insomnia || study) {
    w.heading(`${t.indices} ${DASH} ${t.perNight}`, 11);
    w.table(
      [t.date, t.rii, ...(paid ? [] : [t.ahi, t.odi]), t.lowestSpo2, 'BR', 'HR', 'SpO2'],
      nights.map((x) => {
        const s = x.summary;
        return [x.date, n(s.rii, 2), ...(paid ? [] : ['ahi' in s ? n(s.ahi, 2) : DASH, 'odi' in s ? n(s.odi, 2) : DASH]), n(s.lowest_spo2), n(s.percentiles.BR?.medianPercentile), n(s.percentiles.HR?.medianPercentile), n(s.percentiles.SPO2?.medianPercentile)];
      }),
      paid ? [0.2, 0.14, 0.18, 0.16, 0.16, 0.16] : [0.16, 0.11, 0.11, 0.11, 0.15, 0.12, 0.12, 0.12],
      8,
    );
  }
  if (insomnia || study) {
    w.heading(`${t.recording} ${DASH} ${t.perNight}`, 11);
    w.table(
      [t.date, t.bedIn, t.bedOut, t.totalBedTime, t.totalSleepTime, t.sleepEfficiency, t.sol, t.waso],
      nights.map((x) => {
        const s = x.summary;
        return [x.date, s.bed_in_time ?? DASH, s.bed_out_time ?? DASH, formatHours(s.total_bed_time), formatHours(s.total_sleep_time), n(s.sleep_efficiency), n(s.sol, 0), n(s.waso, 0)];
      }),
      [0.14, 0.1, 0.1, 0.13, 0.13, 0.14, 0.13, 0.13],
      7.5,
    );
    noStagingNote(w, nights);
  }
}

/** Patient and practice on top, "page n of N" at the bottom of every page. */
function frame(w: Writer) {
  const { doc, t, content } = w;
  const range = doc.bufferedPageRange();
  const who = `${t.patient}: ${content.patient.code}${content.patient.name ? ` (${content.patient.name})` : ''}`;
  const generated = `${t.generated}: ${new Date(content.generatedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC · ${content.type} · v${content.version}`;
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    const margins = doc.page.margins;
    doc.page.margins = { top: 0, bottom: 0, left: 0, right: 0 };
    doc.font('Helvetica-Bold').fontSize(8.5).fillColor(INK).text(who, MARGIN.left, 28, { width: CONTENT_W / 2, lineBreak: false });
    doc.font('Helvetica').fontSize(8.5).fillColor(INK).text(`${t.practice}: ${content.practice}`, MARGIN.left + CONTENT_W / 2, 28, { width: CONTENT_W / 2, align: 'right', lineBreak: false });
    doc.moveTo(MARGIN.left, 44).lineTo(PAGE.width - MARGIN.right, 44).lineWidth(0.5).strokeColor(GRID).stroke();
    doc.font('Helvetica').fontSize(7.5).fillColor(MUTED).text(generated, MARGIN.left, PAGE.height - 36, { width: CONTENT_W / 2, lineBreak: false });
    doc.text(fill(t.page, { n: i + 1, total: range.count }), MARGIN.left + CONTENT_W / 2, PAGE.height - 36, { width: CONTENT_W / 2, align: 'right', lineBreak: false });
    doc.page.margins = margins;
  }
}

/** The PDF of a report's content. */
export function renderReport(content: ReportContent): Promise<{ pdf: Buffer; pages: number }> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margins: MARGIN,
      bufferPages: true,
      info: { Title: `${reportTitle(content.type, TEXTS[content.language])} ${content.patient.code}`, Author: content.practice, Creator: 'Nocturne' },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('error', reject);
    doc.on('end', () => resolve({ pdf: Buffer.concat(chunks), pages }));
    const w = new Writer(doc, content);
    if (content.view === 'single') content.nights.forEach((night, i) => singleNight(w, night, i === 0));
    else trend(w);
    if (content.nights.length === 0) w.note(fill(w.t.noData, { channel: w.t.nights }));
    const pages = doc.bufferedPageRange().count;
    frame(w);
    doc.end();
  });
}
