import type { TFunction } from 'i18next';
import { ApiError } from '../../../api/errors';
import { errorText } from '../../../api/messages';
import { adminApi } from '../api';

/** The only answer that counts as saved (spec 1 §8). */
const UPDATED_CODE = 'patient_info_updated_succesfully';

/** Sends edited fields; resolves to null when saved, otherwise the text to show (every validation message). */
export async function saveFields(t: TFunction, patientId: number, fields: Record<string, unknown>): Promise<string | null> {
  try {
    const answer = await adminApi.updateInfo(patientId, fields);
    if (answer.code !== UPDATED_CODE) return t('patientAdmin.errors.saveFailed', { message: answer.message ?? '' });
    return null;
  } catch (error) {
    const all = error instanceof ApiError && error.errors.length ? error.errors.join(' ') : errorText(t, error);
    return t('patientAdmin.errors.saveFailed', { message: all });
  }
}
