// The report's page: its size, margins and inks, and the Writer that puts headings, notes and
// tables on it, page breaks included (render.ts draws the charts, measured.ts the measured sections).
import type { ReportContent } from './content';
import { TEXTS, type ReportTexts } from './texts';

export type Doc = PDFKit.PDFDocument;

export const PAGE = { width: 595.28, height: 841.89 };
export const MARGIN = { top: 70, bottom: 56, left: 48, right: 48 };
export const CONTENT_W = PAGE.width - MARGIN.left - MARGIN.right;
export const INK = '#1f2933';
export const MUTED = '#6b7280';
export const GRID = '#d1d5db';
export const DASH = '–';

/** Numbers as the language writes them, fixed decimals; null prints "–". */
function numberFormat(language: 'de' | 'en') {
  const cache = new Map<number, Intl.NumberFormat>();
  return (v: number | null | undefined, digits = 1): string => {
    if (v === null || v === undefined || !Number.isFinite(v)) return DASH;
    let f = cache.get(digits);
    if (!f) cache.set(digits, (f = new Intl.NumberFormat(language === 'de' ? 'de-AT' : 'en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false })));
    return f.format(v);
  };
}

export class Writer {
  readonly t: ReportTexts;
  readonly n: ReturnType<typeof numberFormat>;
  constructor(
    readonly doc: Doc,
    readonly content: ReportContent,
  ) {
    this.t = TEXTS[content.language];
    this.n = numberFormat(content.language);
  }

  get y() {
    return this.doc.y;
  }

  /** Room for `h` points on this page, else a new page. */
  need(h: number) {
    if (this.doc.y + h > PAGE.height - MARGIN.bottom) this.doc.addPage();
  }

  heading(text: string, size = 12) {
    this.need(size + 24);
    this.doc.moveDown(0.6).font('Helvetica-Bold').fontSize(size).fillColor(INK).text(text, MARGIN.left, this.doc.y, { width: CONTENT_W });
    this.doc.moveDown(0.25);
  }

  note(text: string) {
    this.need(16);
    this.doc.font('Helvetica-Oblique').fontSize(8.5).fillColor(MUTED).text(text, MARGIN.left, this.doc.y, { width: CONTENT_W });
    this.doc.fillColor(INK);
  }

  /** A table: optional header row, then rows; widths are fractions of the content width. */
  table(header: string[] | null, rows: string[][], widths: number[], size = 9) {
    const doc = this.doc;
    const rowH = size + 6;
    const cols = widths.map((w) => w * CONTENT_W);
    const drawRow = (cells: string[], bold: boolean) => {
      this.need(rowH);
      const y = doc.y;
      let x = MARGIN.left;
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(size).fillColor(INK);
      cells.forEach((cell, i) => {
        doc.text(cell, x + 2, y + 3, { width: cols[i]! - 4, height: rowH, lineBreak: false, ellipsis: true });
        x += cols[i]!;
      });
      doc.moveTo(MARGIN.left, y + rowH).lineTo(MARGIN.left + CONTENT_W, y + rowH).lineWidth(0.4).strokeColor(GRID).stroke();
      doc.x = MARGIN.left;
      doc.y = y + rowH;
    };
    if (header) drawRow(header, true);
    for (const r of rows) drawRow(r, false);
    doc.moveDown(0.3);
  }

  /** Label/value rows in two columns. */
  pairs(rows: Array<[string, string]>) {
    this.table(null, rows.map(([a, b]) => [a, b]), [0.55, 0.45]);
  }
}
