import { useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { signOutReason } from '../../state/session';
import { IDLE_SIGN_OUT_MS } from '../../config';
import { Alert } from '../../ui/Alert';
import { AuthLayout } from './AuthLayout';
import { OtpStep } from './OtpStep';
import { PasswordStep } from './PasswordStep';
import { initialSignIn, signInReducer } from './signInMachine';

/** Sign-in at /app/signin and /signin: password, then the code from the e-mail. */
export function SignInPage() {
  const { t } = useTranslation();
  const [state, dispatch] = useReducer(signInReducer, initialSignIn);
  // Held in memory only while the OTP step is open, to request a new code; never stored.
  const password = useRef('');
  // Signed out for inactivity: said here until the next sign-in, so the user knows why they are back.
  const [reason] = useState(signOutReason);
  return state.step === 'password' ? (
    <AuthLayout title={t('auth.signIn.title')} subtitle={t('auth.signIn.subtitle')}>
      {reason === 'idle' && (
        <Alert tone="info" testId="signed-out-idle">
          {t('auth.signIn.idleSignedOut', { hours: IDLE_SIGN_OUT_MS / 3_600_000 })}
        </Alert>
      )}
      <PasswordStep state={state} dispatch={dispatch} onAccepted={(p) => (password.current = p)} />
    </AuthLayout>
  ) : (
    <AuthLayout title={t('auth.otp.title')}>
      <OtpStep
        state={state}
        dispatch={dispatch}
        password={password}
      />
    </AuthLayout>
  );
}
