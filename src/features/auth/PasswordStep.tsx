import { useState, type Dispatch, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { api } from '../../api/endpoints';
import { errorText } from '../../api/messages';
import { PATHS } from '../../routes';
import { Alert } from '../../ui/Alert';
import { Field } from '../../ui/Field';
import type { SignInAction, SignInState } from './signInMachine';
import { isEmail } from './validate';

interface Props {
  state: SignInState;
  dispatch: Dispatch<SignInAction>;
  /** Hears the accepted password so the OTP step can ask for a new code. */
  onAccepted: (password: string) => void;
}

/** Step one: e-mail and password; success means a code was e-mailed. */
export function PasswordStep({ state, dispatch, onAccepted }: Props) {
  const { t } = useTranslation();
  const [email, setEmail] = useState(state.email);
  const [password, setPassword] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const pending = state.status === 'pending';

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!isEmail(email)) return setInvalid(t('validation.email'));
    if (!password) return setInvalid(t('validation.password'));
    setInvalid(null);
    dispatch({ type: 'submit' });
    try {
      await api.login(email.trim(), password);
      onAccepted(password);
      dispatch({ type: 'passwordAccepted', email: email.trim() });
    } catch (error) {
      dispatch({ type: 'failed', error });
    }
  }

  const message = invalid ?? (state.status === 'failed' ? errorText(t, state.error) : null);
  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <Field
        label={t('auth.signIn.email')}
        type="email"
        autoComplete="username"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        data-testid="signin-email"
        autoFocus
        required
      />
      <Field
        label={t('auth.signIn.password')}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        data-testid="signin-password"
        required
      />
      <div className="auth-row-end">
        <Link href={PATHS.forgotPassword}>{t('auth.signIn.forgot')}</Link>
      </div>
      {message && (
        <Alert tone="error" testId="signin-error">
          {message}
        </Alert>
      )}
      <button type="submit" className="button button-primary button-block" disabled={pending} data-testid="signin-submit">
        {pending ? t('auth.signIn.submitting') : t('auth.signIn.submit')}
      </button>
      <p className="auth-consent">
        <Trans
          i18nKey="auth.signIn.consent"
          components={{ terms: <Link href={PATHS.terms} />, privacy: <Link href={PATHS.privacy} /> }}
        />
      </p>
      <p className="auth-alt">
        {t('auth.signIn.noAccount')} <Link href={PATHS.signUp}>{t('auth.signIn.signUp')}</Link>
      </p>
    </form>
  );
}
