// Whether a live vital crosses the patient's thresholds (the vital parameters of the edit
// screen: BR against br, HR against pr).
import type { ThresholdBands } from '../../../engine/index';
import { bandsOf, type VitalParameters } from '../night/vitals';

type Severity = 'moderate' | 'severe';

/** The band a value falls in (severe wins), or null when normal or missing. */
function severityOf(value: number | null | undefined, bands: ThresholdBands): Severity | null {
  if (value === null || value === undefined || !Number.isFinite(value) || value < 0) return null;
  const inside = (ranges: ThresholdBands['severe']) => ranges.some(([a, b]) => value >= a && value <= b);
  if (inside(bands.severe)) return 'severe';
  return inside(bands.moderate) ? 'moderate' : null;
}

export interface VitalAlert {
  code: 'BR' | 'HR';
  value: number;
  severity: Severity;
}

/** The alerts of a device's newest BR and HR. */
export function vitalAlerts(latest: ReadonlyMap<string, number>, vitals: VitalParameters): VitalAlert[] {
  const checks = [
    { code: 'BR' as const, bands: bandsOf('br', vitals) },
    { code: 'HR' as const, bands: bandsOf('pr', vitals) },
  ];
  return checks.flatMap(({ code, bands }) => {
    const value = latest.get(code);
    const severity = severityOf(value, bands);
    return severity && value !== undefined ? [{ code, value, severity }] : [];
  });
}

/** Presence from the newest vitals: the device's -2 code means no subject in front of it. */
export function presenceOf(latest: ReadonlyMap<string, number>): 'present' | 'absent' | 'unknown' {
  const br = latest.get('BR') ?? latest.get('HR');
  if (br === undefined) return 'unknown';
  return br === -2 ? 'absent' : 'present';
}
