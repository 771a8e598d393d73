import type { TFunction } from 'i18next';
import { ApiError, NETWORK_ERROR_CODE } from './errors';

/** Codes the UI words itself; anything else shows the server's message as sent. */
const TRANSLATED_CODES = new Set(['invalid_login', 'invalid_otp', 'account_pending', 'invalid_credentials']);

/** The text to show for a failed call, translated where the code is known. */
export function errorText(t: TFunction, error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === NETWORK_ERROR_CODE) return t('errors.network');
    if (TRANSLATED_CODES.has(error.code)) {
      return t(`errors.codes.${error.code as 'invalid_login'}`);
    }
    // Server faults carry nothing a user can act on; the spec gives their wording.
    if (error.status >= 500) return t('errors.server');
    return error.message || t('errors.generic');
  }
  return t('errors.generic');
}
