import { useMutation } from '@tanstack/react-query';
import { useEffect, useReducer, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { api } from '../../api/endpoints';
import { errorText } from '../../api/messages';
import { OTP_LENGTH, PASSWORD_MIN_LENGTH } from '../../config';
import { PATHS } from '../../routes';
import { Alert } from '../../ui/Alert';
import { Field } from '../../ui/Field';
import { AuthLayout } from './AuthLayout';
import { forgotReducer, initialForgot, stepNumber } from './forgotMachine';
import { OtpInput } from './OtpInput';
import { isEmail, isOtp, isStrongEnough } from './validate';

/** Seconds before "Resend code" can be pressed again (the server limits requests too). */
const RESEND_WAIT_S = 30;

/**
 * The flow's state (forgotMachine) and the form's fields: each submit checks the fields of its
 * step, then calls the server; `message` is the check's complaint or the server's error.
 */
function useForgotFlow() {
  const { t } = useTranslation();
  const [state, dispatch] = useReducer(forgotReducer, initialForgot);
  const [email, setEmail] = useState('');
  const [otp, setOtp] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);

  async function run(check: () => string | null, call: () => Promise<void>) {
    const problem = check();
    setInvalid(problem);
    if (problem) return;
    dispatch({ type: 'request' });
    try {
      await call();
    } catch (error) {
      dispatch({ type: 'failed', error });
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (state.step === 'email') {
      void run(
        () => (isEmail(email) ? null : t('validation.email')),
        async () => {
          await api.forgotPassword(email.trim());
          dispatch({ type: 'emailVerified', email: email.trim() });
        },
      );
    } else if (state.step === 'otp') {
      void run(
        () => (isOtp(otp) ? null : t('validation.otp', { length: OTP_LENGTH })),
        async () => {
          const res = await api.forgotPasswordVerifyOtp(state.email, otp);
          dispatch({ type: 'otpVerified', resetToken: res.data.reset_token });
        },
      );
    } else if (state.step === 'password') {
      void run(
        () =>
          !isStrongEnough(password)
            ? t('validation.passwordLength', { min: PASSWORD_MIN_LENGTH })
            : password !== confirm
              ? t('validation.passwordMismatch')
              : null,
        async () => {
          await api.resetPassword(state.email, state.resetToken, password);
          setPassword('');
          setConfirm('');
          dispatch({ type: 'passwordReset' });
        },
      );
    }
  }

  const message = invalid ?? (state.error ? errorText(t, state.error) : null);
  const fields = { email, setEmail, otp, setOtp, password, setPassword, confirm, setConfirm };
  return { state, fields, submit, message };
}

type Fields = ReturnType<typeof useForgotFlow>['fields'];

/** "Resend code": the same request again; the server's forgot-password limits apply (429 says when to retry). */
function ResendCode({ email }: { email: string }) {
  const { t } = useTranslation();
  const [waitS, setWaitS] = useState(0);
  const resend = useMutation({
    mutationFn: () => api.forgotPassword(email),
    onMutate: () => setWaitS(0),
    onSuccess: () => setWaitS(RESEND_WAIT_S),
  });
  useEffect(() => {
    if (waitS <= 0) return;
    const id = setTimeout(() => setWaitS((w) => w - 1), 1000);
    return () => clearTimeout(id);
  }, [waitS]);
  return (
    <>
      <p className="auth-alt">
        <button type="button" className="button button-quiet" disabled={resend.isPending || waitS > 0} onClick={() => resend.mutate()} data-testid="forgot-resend">
          {waitS > 0 ? t('auth.forgot.resendIn', { count: waitS }) : t('auth.forgot.resend')}
        </button>
      </p>
      {resend.isSuccess && (
        <Alert tone="success" testId="forgot-resent">
          {t('auth.forgot.resent', { email })}
        </Alert>
      )}
      {resend.error !== null && (
        <Alert tone="error" testId="forgot-resend-error">
          {errorText(t, resend.error)}
        </Alert>
      )}
    </>
  );
}

/** Step 1: the e-mail the code goes to. */
function EmailStep({ f }: { f: Fields }) {
  const { t } = useTranslation();
  return (
    <>
      <p className="auth-hint">{t('auth.forgot.emailHint')}</p>
      <Field
        label={t('auth.forgot.email')}
        type="email"
        autoComplete="username"
        value={f.email}
        onChange={(e) => f.setEmail(e.target.value)}
        data-testid="forgot-email"
        autoFocus
        required
      />
    </>
  );
}

/** Step 2: the one-time code sent to `email`. */
function CodeStep({ f, email }: { f: Fields; email: string }) {
  const { t } = useTranslation();
  return (
    <>
      <p className="auth-hint">{t('auth.forgot.otpHint', { length: OTP_LENGTH, email })}</p>
      <OtpInput label={t('auth.forgot.otp')} value={f.otp} onChange={f.setOtp} testId="forgot-otp" />
      <ResendCode email={email} />
    </>
  );
}

/** Step 3: the new password, twice. */
function NewPasswordStep({ f }: { f: Fields }) {
  const { t } = useTranslation();
  return (
    <>
      <p className="auth-hint">{t('auth.forgot.passwordHint', { min: PASSWORD_MIN_LENGTH })}</p>
      <Field
        label={t('auth.forgot.newPassword')}
        type="password"
        autoComplete="new-password"
        minLength={PASSWORD_MIN_LENGTH}
        value={f.password}
        onChange={(e) => f.setPassword(e.target.value)}
        data-testid="forgot-password"
        autoFocus
        required
      />
      <Field
        label={t('auth.forgot.confirmPassword')}
        type="password"
        autoComplete="new-password"
        value={f.confirm}
        onChange={(e) => f.setConfirm(e.target.value)}
        data-testid="forgot-password-confirm"
        required
      />
    </>
  );
}

/** The end: the password is reset, back to sign-in. */
function ForgotDone() {
  const { t } = useTranslation();
  return (
    <AuthLayout title={t('auth.forgot.doneTitle')} testId="forgot-done">
      <Alert tone="success">{t('auth.forgot.doneText')}</Alert>
      <Link href={PATHS.signIn} className="button button-primary button-block">
        {t('auth.forgot.backToSignIn')}
      </Link>
    </AuthLayout>
  );
}

/** /forgot_password: e-mail → one-time code → new password. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const { state, fields, submit, message } = useForgotFlow();
  if (state.step === 'done') return <ForgotDone />;

  const labels = {
    email: [t('auth.forgot.sendCode'), t('auth.forgot.sending')],
    otp: [t('auth.forgot.verify'), t('auth.forgot.verifying')],
    password: [t('auth.forgot.save'), t('auth.forgot.saving')],
  }[state.step];
  return (
    <AuthLayout title={t('auth.forgot.title')} subtitle={t('auth.forgot.step', { step: stepNumber(state.step) })}>
      <form className="auth-form" onSubmit={submit} noValidate>
        {state.step === 'email' && <EmailStep f={fields} />}
        {state.step === 'otp' && <CodeStep f={fields} email={state.email} />}
        {state.step === 'password' && <NewPasswordStep f={fields} />}
        {message && (
          <Alert tone="error" testId="forgot-error">
            {message}
          </Alert>
        )}
        <button type="submit" className="button button-primary button-block" disabled={state.pending} data-testid="forgot-submit">
          {state.pending ? labels[1] : labels[0]}
        </button>
        <p className="auth-alt">
          <Link href={PATHS.signIn}>{t('auth.forgot.backToSignIn')}</Link>
        </p>
      </form>
    </AuthLayout>
  );
}
