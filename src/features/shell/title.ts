/**
 * Page title from the path (spec 1 §2): My Patients, Dashboard, Patient Information,
 * Patient Detail, otherwise the capitalised path segment as written in the URL
 * (/app/device_config → "Device_config"). Only the four named titles are translated.
 */
export type PageTitle =
  | { kind: 'key'; key: TitleKey }
  | { kind: 'segment'; text: string };

export type TitleKey = 'titles.patients' | 'titles.dashboard' | 'titles.patientInformation' | 'titles.patientDetail';

/** First path segment after /app → title key, for the titles the spec names. */
const BY_SEGMENT: Record<string, TitleKey> = {
  '': 'titles.dashboard',
  dashboard: 'titles.dashboard',
  view_patient_info: 'titles.patientInformation',
};

/** Splits a path into its non-empty segments, ignoring query and hash. */
function segmentsOf(path: string): string[] {
  const bare = path.split(/[?#]/, 1)[0] ?? '';
  return bare.split('/').filter((s) => s.length > 0);
}

/** Capitalises the first letter, keeping the rest of the segment as written. */
export function capitalise(segment: string): string {
  const decoded = safeDecode(segment);
  return decoded.charAt(0).toUpperCase() + decoded.slice(1);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The title of the page at `path`. Paths outside /app are titled by their first segment. */
export function titleFromPath(path: string): PageTitle {
  const segments = segmentsOf(path);
  const inApp = segments[0]?.toLowerCase() === 'app';
  const rest = inApp ? segments.slice(1) : segments;
  const first = rest[0] ?? '';

  if (first === 'patients') {
    // /app/patients/id=7?night=… is one patient's detail; the bare list is My Patients.
    return rest.length > 1 ? { kind: 'key', key: 'titles.patientDetail' } : { kind: 'key', key: 'titles.patients' };
  }
  const known = BY_SEGMENT[first];
  if (known) return { kind: 'key', key: known };
  return { kind: 'segment', text: capitalise(first) };
}
