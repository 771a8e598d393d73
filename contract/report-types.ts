// Report types, languages, steps and file names (spec 2 §7 "Reports"). No imports: the browser's
// report dialog and contract/reports.ts read the lists from here.

export const SINGLE_NIGHT_TYPES = ['en-RPM', 'en-pyn', 'de-pyn'] as const;
export const TREND_TYPES = ['en', 'en-us', 'en-py', 'de-py', 'du-pys', 'de-pys', 'en-pys'] as const;
export const REPORT_TYPES = [...SINGLE_NIGHT_TYPES, ...TREND_TYPES] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
export type ReportLanguage = 'de' | 'en';
export const REPORT_LANGUAGES: readonly ReportLanguage[] = ['de', 'en'];

/** The report provider's steps (spec 2 §7): process KPIs → create content → render → file. */
export const REPORT_STEPS = ['process_kpis', 'create_content', 'render', 'file'] as const;
export type ReportStep = (typeof REPORT_STEPS)[number];

/** Most nights one report covers (a trend of 90 nights and some slack). */
export const MAX_REPORT_DATES = 120;

export const viewOf = (type: ReportType): 'single' | 'trend' => ((SINGLE_NIGHT_TYPES as readonly string[]).includes(type) ? 'single' : 'trend');

/** The file-name suffix of each type (spec 2 §7). */
function fileSuffix(type: ReportType, language: ReportLanguage): string {
  switch (type) {
    case 'en-RPM':
      return '_rpm_report';
    case 'en-pyn':
    case 'de-pyn':
      return `_nightly_report_${language}`;
    case 'en':
      return '_trend_view_report';
    case 'en-us':
      return '_insomnia_report';
    case 'du-pys':
      return '_study_du';
    default:
      return `_study_${language}`;
  }
}

const compact = (date: string) => date.replaceAll('-', '');

/**
 * The file name: device id (single night, when the night has one) or patient code, the
 * dates (YYYYMMDD, first and last when several) and the type's suffix.
 */
export function reportFileName(type: ReportType, language: ReportLanguage, patientCode: string, deviceId: string | null, dates: readonly string[]): string {
  const who = viewOf(type) === 'single' && deviceId ? deviceId : patientCode;
  const sorted = [...dates].sort();
  const span = sorted.length <= 1 ? compact(sorted[0] ?? '') : `${compact(sorted[0]!)}_${compact(sorted[sorted.length - 1]!)}`;
  return `${who.replace(/[^\w.-]/g, '_')}_${span}${fileSuffix(type, language)}.pdf`;
}
