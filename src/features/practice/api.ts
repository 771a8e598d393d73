import type { AnalyticsSettingsBody } from '../../../contract/analytics';
import type { AppointmentsQuery, RiiDivisor } from '../../../contract/practice';
import { call } from '../../api/client';

/** The practice screens' answers (GET /practice/calendar, /practice/appointments, /practice/settings), as the contract has them. */
export type { Appointment, CalendarEvent, PracticeCategory, PracticeSettings, RiiDivisor } from '../../../contract/practice';

export const RII_DIVISORS: readonly RiiDivisor[] = ['TBT', 'TST', 'GSD', 'TBR'];
export const DESATURATION_RULES = [3, 4] as const;

export const fetchCalendar = async (from: string, to: string) => (await call('GET /practice/calendar', { query: { from, to } })).data.events;
export const fetchAppointments = async (when: NonNullable<AppointmentsQuery['when']>) => (await call('GET /practice/appointments', { query: { when } })).data;
export const fetchSettings = async () => (await call('GET /practice/settings')).data;

export const saveAnalyticsSettings = (body: Required<AnalyticsSettingsBody>) => call('POST /physician/update-analytics-settings', { body });
export const saveLabelMap = (labelMap: Record<string, string>) => call('POST /recordings/label-map', { body: { label_map: labelMap } });
export const updateCategory = (c: { label_id: number; label: string; color_code: string; version: number }) => call('POST /patient/update-label', { body: c });
export const deleteCategory = (c: { label_id: number; version: number }) => call('POST /patient/delete-label', { body: c });
