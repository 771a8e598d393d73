import { useMutation } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors';
import { errorText } from '../../../api/messages';
import { adminApi } from '../api';

/** The only answer that counts as saved (spec 1 §8). */
const UPDATED_CODE = 'patient_info_updated_succesfully';

/** A 2xx answer without the saved code: not saved, with the server's message. */
class NotSaved extends Error {}

/** The text a failed save shows: every validation message, else the error in the user's words. */
function failedText(t: TFunction, error: unknown): string {
  if (error instanceof NotSaved) return t('patientAdmin.errors.saveFailed', { message: error.message });
  const all = error instanceof ApiError && error.errors.length ? error.errors.join(' ') : errorText(t, error);
  return t('patientAdmin.errors.saveFailed', { message: all });
}

/**
 * An edit block's save of edited fields, as a TanStack mutation: `saving` while it runs; `save`
 * calls `done` with null when saved, otherwise with the text to show.
 */
export function useSaveFields(patientId: number, version?: number) {
  const { t } = useTranslation();
  const mutation = useMutation({
    mutationFn: async (fields: Record<string, unknown>) => {
      // The version read goes with the save: a stale one is refused instead of undoing someone's change.
      const answer = await adminApi.updateInfo(patientId, version === undefined ? fields : { ...fields, version });
      if (answer.code !== UPDATED_CODE) throw new NotSaved(answer.message ?? '');
      return answer;
    },
  });
  return {
    saving: mutation.isPending,
    save: (fields: Record<string, unknown>, done: (failed: string | null) => void) =>
      mutation.mutate(fields, { onSuccess: () => done(null), onError: (error) => done(failedText(t, error)) }),
  };
}
