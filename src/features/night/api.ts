// Calls of the single-night screen. JSON through the app's client; channel samples as
// binary (the browser undoes the gzip), cached in IndexedDB.
import { request, requestFile } from '../../api/client';
import { readChannel, writeChannel } from '../../cache/channelCache';
import type { NightInfo, PatientInfo, PhysicianPreferences } from './types';

export const nightApi = {
  details: async (patientId: number) =>
    (await request<{ patient_info: PatientInfo }>('GET', `/patient/details?patient_id=${patientId}`)).data?.patient_info ?? null,
  nights: async (patientId: number) =>
    (await request<{ nights: NightInfo[] }>('GET', `/patient/available-nights?patient_id=${patientId}`)).data?.nights ?? [],
  preferences: async () => (await request<PhysicianPreferences>('GET', '/physician/preferences')).data ?? null,
  saveOrder: (order: Record<string, boolean>) =>
    request<never>('POST', '/patient/update-kpi-preferences', { new_sorted_array_kpis: order }),
};

/** Cache key of one channel of one recording. */
export const channelKey = (patientId: number, recordingId: number, code: string) => `${patientId}/${recordingId}/${code}`;

/** The wire bytes of a channel: from the cache, else from the server (then cached). */
export async function channelBytes(patientId: number, recordingId: number, code: string): Promise<ArrayBuffer> {
  const key = channelKey(patientId, recordingId, code);
  const cached = await readChannel(key);
  if (cached) return cached;
  const response = await requestFile(`/analytics/patient/channel-data?patient_id=${patientId}&recording_id=${recordingId}&code=${encodeURIComponent(code)}`, 'application/octet-stream');
  const bytes = await response.arrayBuffer();
  await writeChannel(key, bytes);
  return bytes;
}
