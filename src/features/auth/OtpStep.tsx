import { useState, type Dispatch, type FormEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/endpoints';
import { errorText } from '../../api/messages';
import { OTP_LENGTH } from '../../config';
import { Alert } from '../../ui/Alert';
import { completeSignIn } from './completeSignIn';
import { OtpInput } from './OtpInput';
import type { SignInAction, SignInState } from './signInMachine';
import { isOtp } from './validate';

interface Props {
  state: SignInState;
  dispatch: Dispatch<SignInAction>;
  password: RefObject<string>;
}

/** Step two: the six digits from the e-mail; success leaves this page for the origin or /. */
export function OtpStep({ state, dispatch, password }: Props) {
  const { t } = useTranslation();
  const [otp, setOtp] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const pending = state.status === 'pending';

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!isOtp(otp)) return setInvalid(t('validation.otp', { length: OTP_LENGTH }));
    setInvalid(null);
    dispatch({ type: 'submit' });
    try {
      await completeSignIn(state.email, otp);
    } catch (error) {
      dispatch({ type: 'failed', error });
    }
  }

  async function resend() {
    dispatch({ type: 'submit' });
    try {
      await api.login(state.email, password.current);
      setOtp('');
      dispatch({ type: 'resent' });
    } catch (error) {
      dispatch({ type: 'failed', error });
    }
  }

  const message = invalid ?? (state.status === 'failed' ? errorText(t, state.error) : null);
  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <p className="auth-hint">{t('auth.otp.hint', { length: OTP_LENGTH, email: state.email })}</p>
      <OtpInput label={t('auth.otp.label')} value={otp} onChange={setOtp} testId="otp-input" disabled={pending} />
      {message && (
        <Alert tone="error" testId="signin-error">
          {message}
        </Alert>
      )}
      {state.resent && <Alert tone="info">{t('auth.otp.resent')}</Alert>}
      <button type="submit" className="button button-primary button-block" disabled={pending} data-testid="otp-submit">
        {pending ? t('auth.otp.verifying') : t('auth.otp.submit')}
      </button>
      <div className="auth-row-between">
        <button type="button" className="button-link" onClick={resend} disabled={pending}>
          {t('auth.otp.resend')}
        </button>
        <button type="button" className="button-link" onClick={() => dispatch({ type: 'restart' })} disabled={pending}>
          {t('auth.otp.changeAccount')}
        </button>
      </div>
    </form>
  );
}
