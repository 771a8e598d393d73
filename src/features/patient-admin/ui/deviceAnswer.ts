import type { TFunction } from 'i18next';
import { ApiError } from '../../../api/errors';
import { errorText } from '../../../api/messages';
import { classifyDeviceAnswer, type DeviceOutcome } from '../logic/devices';

/** Classifies a failed device call (or a thrown error) the way spec 1 §8 reads device messages. */
export function outcomeOf(error: unknown): DeviceOutcome {
  if (error instanceof ApiError) return classifyDeviceAnswer({ ok: false, code: error.code, message: error.message, errors: error.errors });
  return { kind: 'other', text: '' };
}

/** The text a device outcome shows: the code's catalogue message with the answer's params (who holds the device, from when to when). */
export function deviceOutcomeText(t: TFunction, outcome: DeviceOutcome, error: unknown): string {
  switch (outcome.kind) {
    case 'success':
      return '';
    case 'notMapped':
      return t('patientAdmin.device.notMapped');
    case 'pastDate':
      return t('patientAdmin.device.pastDate');
    default:
      return error ? errorText(t, error) : outcome.text || t('patientAdmin.device.failed');
  }
}
