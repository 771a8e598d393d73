// Sample patients (spec 2 §2, §7): the practice's de-identified teaching nights.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client';
import { ApiError } from '../../api/errors';

/** One sample patient of the practice (GET /patient/samplePatients): the server's own type. */

/** Where the night goes: an existing sample patient, or a new one with this name. */
export type SampleTarget = { kind: 'existing'; sampleId: number } | { kind: 'new'; name: string };

/** The body of POST /patient/samplePatient for a night and its target. */
export function addBody(patientId: number, recordingId: number, target: SampleTarget) {
  return target.kind === 'existing'
    ? { patient_id: patientId, recording_id: recordingId, sample_patient_id: target.sampleId }
    : { patient_id: patientId, recording_id: recordingId, name: target.name.trim() };
}

const sampleKeys = { list: ['samplePatients'] as const };

const listSamples = async () => (await call('GET /patient/samplePatients')).data.sample_patients;

export function useSamplePatients(enabled = true) {
  return useQuery({ queryKey: sampleKeys.list, queryFn: listSamples, enabled });
}

/** Adds a night to a sample patient; the list follows. */
export function useAddToSample() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (v: { patientId: number; recordingId: number; target: SampleTarget }) =>
      (await call('POST /patient/samplePatient', { body: addBody(v.patientId, v.recordingId, v.target) })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: sampleKeys.list }),
  });
}

/** Refusals of the add call that the dialog words itself, by rule or code. */
const SAMPLE_ERRORS = {
  identifying: 'samples.errors.identifying',
  required: 'samples.errors.required',
  max_length: 'samples.errors.maxLength',
  sample_name_taken: 'samples.errors.taken',
  sample_night_exists: 'samples.errors.nightExists',
  night_still_recording: 'samples.errors.stillRecording',
  sample_read_only: 'samples.errors.readOnly',
} as const;

/** The translation key for a refused add, or null when the generic error text applies. */
export function sampleErrorKey(error: unknown): (typeof SAMPLE_ERRORS)[keyof typeof SAMPLE_ERRORS] | null {
  if (!(error instanceof ApiError)) return null;
  const byRule = error.rule ? SAMPLE_ERRORS[error.rule as keyof typeof SAMPLE_ERRORS] : undefined;
  return byRule ?? SAMPLE_ERRORS[error.code as keyof typeof SAMPLE_ERRORS] ?? null;
}
