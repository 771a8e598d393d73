import { navigate } from 'wouter/use-browser-location';
import { api } from '../../api/endpoints';
import { ApiError } from '../../api/errors';
import { queryClient } from '../../api/queryClient';
import { queryKeys } from '../../api/hooks';
import { STORAGE } from '../../config';
import { authorized, clearSignOutReason, signedIn, signOut } from '../../state/session';
import { readItem, writeItem } from '../../state/storage';
import { afterSignIn } from '../shell/guard';

/**
 * Verifies the OTP, stores the token, loads the user's details and goes to the
 * remembered origin (or /). Throws ApiError on any failure, leaving no half session.
 */
export async function completeSignIn(email: string, otp: string): Promise<void> {
  const verified = await api.verifyOtp(email, otp);
  const data = verified.data;
  if (!data.token) throw new ApiError(500, verified.code ?? 'otp_unexpected', verified.message ?? '');
  signedIn(data.user_id, data.token);
  try {
    const details = (await api.user()).data.user_details;
    if (!details) throw new ApiError(500, 'user_missing', '');
    queryClient.setQueryData([...queryKeys.user, data.token], details);
    // Origin is read before the session flips: the guard would otherwise redirect first.
    const origin = readItem('sessionStorage', STORAGE.origin);
    writeItem('sessionStorage', STORAGE.origin, null);
    clearSignOutReason();
    authorized(details);
    navigate(afterSignIn(origin), { replace: true });
  } catch (error) {
    signOut();
    throw error;
  }
}
