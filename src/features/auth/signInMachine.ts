/**
 * Sign-in as a reducer (spec 1 §4): the password step, then the OTP step; each can be
 * pending or failed. The error is kept as thrown so the view can translate its code.
 */
export type SignInState = {
  step: 'password' | 'otp';
  status: 'idle' | 'pending' | 'failed';
  email: string;
  error: unknown;
  /** A new code was requested and sent. */
  resent: boolean;
};

export type SignInAction =
  | { type: 'submit' }
  | { type: 'passwordAccepted'; email: string }
  | { type: 'failed'; error: unknown }
  | { type: 'resent' }
  | { type: 'restart' };

export const initialSignIn: SignInState = { step: 'password', status: 'idle', email: '', error: null, resent: false };

export function signInReducer(state: SignInState, action: SignInAction): SignInState {
  switch (action.type) {
    case 'submit':
      return { ...state, status: 'pending', error: null, resent: false };
    case 'passwordAccepted':
      return { step: 'otp', status: 'idle', email: action.email, error: null, resent: false };
    case 'failed':
      return { ...state, status: 'failed', error: action.error };
    case 'resent':
      return { ...state, status: 'idle', error: null, resent: true };
    case 'restart':
      return initialSignIn;
  }
}
