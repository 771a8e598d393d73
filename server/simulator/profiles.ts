/** Built-in patient profiles and how an option turns into a full profile. */
import type { ProfileInput, ProfileName, SimProfile } from './types';

const HEALTHY: SimProfile = {
  name: 'healthy',
  ahi: 2,
  hypopneaShare: 0.5,
  centralShare: 0.3,
  desatSeverity: 0.8,
  spo2Baseline: 97,
  heartRate: 58,
  breathingRate: 14,
  hrv: 48,
  sleepLatencyMin: [6, 20],
  awakeningsPerHour: 1,
  outOfBedPerNight: 0.6,
  movementsPerHour: 2.5,
  dropoutsPerHour: 1,
  systolic: 118,
  diastolic: 76,
  glucose: 95,
  bodyTemp: 36.7,
  weightKg: 72,
};

/** The built-in profiles: healthy, obstructive sleep apnea of three severities, central apnea. */
export const PROFILES: Record<ProfileName, SimProfile> = {
  healthy: HEALTHY,
  mild_osa: {
    ...HEALTHY, name: 'mild_osa', ahi: 10, hypopneaShare: 0.55, centralShare: 0.1, desatSeverity: 1,
    spo2Baseline: 96, heartRate: 62, awakeningsPerHour: 1.5, systolic: 128, diastolic: 82, weightKg: 88,
  },
  moderate_osa: {
    ...HEALTHY, name: 'moderate_osa', ahi: 22, hypopneaShare: 0.45, centralShare: 0.1, desatSeverity: 1.15,
    spo2Baseline: 95.5, heartRate: 64, hrv: 38, awakeningsPerHour: 2, systolic: 134, diastolic: 86,
    glucose: 108, weightKg: 97,
  },
  severe_osa: {
    ...HEALTHY, name: 'severe_osa', ahi: 38, hypopneaShare: 0.35, centralShare: 0.08, desatSeverity: 1.35,
    spo2Baseline: 95, heartRate: 66, hrv: 32, sleepLatencyMin: [4, 12], awakeningsPerHour: 2.5,
    systolic: 142, diastolic: 90, glucose: 118, weightKg: 112,
  },
  central: {
    ...HEALTHY, name: 'central', ahi: 18, hypopneaShare: 0.25, centralShare: 0.85, desatSeverity: 0.9,
    spo2Baseline: 96, heartRate: 64, hrv: 30, breathingRate: 15, awakeningsPerHour: 2, systolic: 130,
    diastolic: 78, weightKg: 76,
  },
};

/** The full profile an option names or sketches (default: healthy). */
export function resolveProfile(input: ProfileInput | undefined): SimProfile {
  if (input === undefined) return PROFILES.healthy;
  if (typeof input === 'string') {
    const profile = PROFILES[input];
    if (!profile) throw new RangeError(`unknown simulator profile '${input}'`);
    return profile;
  }
  const { base, ...fields } = input;
  const baseProfile = resolveProfile(base ?? 'healthy');
  return { ...baseProfile, ...fields, name: fields.name ?? (base ? `${base}*` : 'custom') };
}
