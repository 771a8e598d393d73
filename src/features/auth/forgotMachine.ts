/**
 * Forgot password (spec 1 §4): e-mail verifying → verified, OTP verifying → verified,
 * password resetting → reset. Each step can fail with the error as thrown.
 */
export type ForgotStep = 'email' | 'otp' | 'password' | 'done';

export type ForgotState = {
  step: ForgotStep;
  pending: boolean;
  email: string;
  resetToken: string;
  error: unknown;
};

export type ForgotAction =
  | { type: 'request' }
  | { type: 'emailVerified'; email: string }
  | { type: 'otpVerified'; resetToken: string }
  | { type: 'passwordReset' }
  | { type: 'failed'; error: unknown };

export const initialForgot: ForgotState = { step: 'email', pending: false, email: '', resetToken: '', error: null };

export function forgotReducer(state: ForgotState, action: ForgotAction): ForgotState {
  switch (action.type) {
    case 'request':
      return { ...state, pending: true, error: null };
    case 'emailVerified':
      return { ...state, step: 'otp', pending: false, email: action.email };
    case 'otpVerified':
      return { ...state, step: 'password', pending: false, resetToken: action.resetToken };
    case 'passwordReset':
      // A reset clears everything, the token included (spec 1 §4).
      return { ...initialForgot, step: 'done' };
    case 'failed':
      return { ...state, pending: false, error: action.error };
  }
}

/** Step number shown to the user, 1 to 3. */
export function stepNumber(step: ForgotStep): number {
  return step === 'email' ? 1 : step === 'otp' ? 2 : 3;
}
