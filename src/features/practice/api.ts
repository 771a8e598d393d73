import type { AnalyticsSettingsBody } from '../../../contract/analytics';
import type { AppointmentsQuery } from '../../../contract/practice';
import { call, request } from '../../api/client';

/** A calendar entry of GET /practice/calendar (the server's own type). */
export type { CalendarEvent } from '../../../contract/practice';
import type { CalendarEvent } from '../../../contract/practice';

/** A check-up of GET /practice/appointments. */
export interface Appointment {
  checkup_date_id: number;
  checkup_date: string;
  completed: boolean;
  patient_id: number;
  patient_code: string;
  patient_name: string;
}

export type RiiDivisor = 'GSD' | 'TST' | 'TBT' | 'TBR';
export const RII_DIVISORS: readonly RiiDivisor[] = ['TBT', 'TST', 'GSD', 'TBR'];
export const DESATURATION_RULES = [3, 4] as const;

export interface PracticeCategory {
  label_id: number;
  label: string;
  color_code: string;
  type: 'custom' | 'built-in';
  version: number;
  patient_id: number | null;
  patient_code: string | null;
}

/** GET /practice/settings: every setting of the practice, and what the caller may change. */
export interface PracticeSettings {
  desaturation_rule: 3 | 4;
  rii_divisor: RiiDivisor;
  label_map: Record<string, string>;
  categories: PracticeCategory[];
  editable: { analytics: boolean; label_map: boolean; categories: boolean };
}

export const fetchCalendar = async (from: string, to: string) =>
  (await request<{ events: CalendarEvent[] }>('GET', `/practice/calendar?from=${from}&to=${to}`)).data?.events ?? [];
export const fetchAppointments = async (when: NonNullable<AppointmentsQuery['when']>) => (await request<Appointment[]>('GET', `/practice/appointments?when=${when}`)).data ?? [];
export const fetchSettings = async () => (await request<PracticeSettings>('GET', '/practice/settings')).data!;

export const saveAnalyticsSettings = (body: Required<AnalyticsSettingsBody>) => request('POST', '/physician/update-analytics-settings', body);
export const saveLabelMap = (labelMap: Record<string, string>) => call('POST /recordings/label-map', { body: { label_map: labelMap } });
export const updateCategory = (c: { label_id: number; label: string; color_code: string; version: number }) => call('POST /patient/update-label', { body: c });
export const deleteCategory = (c: { label_id: number; version: number }) => call('POST /patient/delete-label', { body: c });
