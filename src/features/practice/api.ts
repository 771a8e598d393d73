import type { AnalyticsSettingsBody } from '../../../contract/analytics';
import type { LabelMapBody } from '../../../contract/imports';
import type { AppointmentsQuery, RiiDivisor } from '../../../contract/practice';
import { call, request } from '../../api/client';

/** The practice screens' answers (GET /practice/calendar, /practice/appointments, /practice/settings), as the contract has them. */
export type { Appointment, CalendarEvent, PracticeCategory, PracticeSettings, RiiDivisor } from '../../../contract/practice';

export const RII_DIVISORS: readonly RiiDivisor[] = ['TBT', 'TST', 'GSD', 'TBR'];
export const DESATURATION_RULES = [3, 4] as const;

export const fetchCalendar = async (from: string, to: string) => (await call('GET /practice/calendar', { query: { from, to } })).data.events;
export const fetchAppointments = async (when: NonNullable<AppointmentsQuery['when']>) => (await call('GET /practice/appointments', { query: { when } })).data;
export const fetchSettings = async () => (await call('GET /practice/settings')).data;

export const saveAnalyticsSettings = (body: Required<AnalyticsSettingsBody>) => call('POST /physician/update-analytics-settings', { body });
export const saveLabelMap = (labelMap: Record<string, string>) => request('POST', '/recordings/label-map', { label_map: labelMap } satisfies LabelMapBody);
export const updateCategory = (c: { label_id: number; label: string; color_code: string; version: number }) => request('POST', '/patient/update-label', c);
export const deleteCategory = (c: { label_id: number; version: number }) => request('POST', '/patient/delete-label', c);
