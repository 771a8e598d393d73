import { useReducer, useRef } from 'react';
import { useTranslation } from 'react-i18next';
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
  return state.step === 'password' ? (
    <AuthLayout title={t('auth.signIn.title')} subtitle={t('auth.signIn.subtitle')}>
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
