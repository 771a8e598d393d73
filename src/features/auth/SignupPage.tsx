import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Link } from 'wouter';
import { api } from '../../api/endpoints';
import { useCountriesQuery } from '../../api/hooks';
import { errorText } from '../../api/messages';
import type { SignupBody } from '../../../contract/auth';
import { PASSWORD_MIN_LENGTH } from '../../config';
import { PATHS } from '../../routes';
import { Alert } from '../../ui/Alert';
import { Field } from '../../ui/Field';
import { AuthLayout } from './AuthLayout';
import { CountrySelect } from './CountrySelect';
import { isEmail, isStrongEnough } from './validate';

const EMPTY: SignupBody = { first_name: '', last_name: '', email: '', password: '', country: '', organisation_name: '' };

/** /signup: a request for an account, reviewed before it is activated. */
export function SignupPage() {
  const { t } = useTranslation();
  const [form, setForm] = useState<SignupBody>(EMPTY);
  const signup = useMutation({
    mutationFn: (input: SignupBody) => api.signup(input),
    onError: (err) => setError(errorText(t, err)),
  });
  const [error, setError] = useState<string | null>(null);
  const set = (key: keyof SignupBody) => (value: string) => setForm((f) => ({ ...f, [key]: value }));

  function submit(e: FormEvent) {
    e.preventDefault();
    const found = signupProblem(t, form);
    setError(found);
    if (found) return;
    const organisation = form.organisation_name?.trim();
    signup.mutate({
      ...form,
      first_name: form.first_name.trim(),
      last_name: form.last_name.trim(),
      email: form.email.trim(),
      organisation_name: organisation || undefined,
    });
  }

  if (signup.isSuccess) return <SignupSent />;

  return (
    <AuthLayout title={t('auth.signup.title')} subtitle={t('auth.signup.subtitle')}>
      <form className="auth-form" onSubmit={submit} noValidate>
        <SignupFields form={form} set={set} />
        {error && (
          <Alert tone="error" testId="signup-error">
            {error}
          </Alert>
        )}
        <button type="submit" className="button button-primary button-block" disabled={signup.isPending} data-testid="signup-submit">
          {signup.isPending ? t('auth.signup.submitting') : t('auth.signup.submit')}
        </button>
        <p className="auth-alt">
          {t('auth.signup.haveAccount')} <Link href={PATHS.signIn}>{t('auth.signup.signIn')}</Link>
        </p>
      </form>
    </AuthLayout>
  );
}

/** What is wrong with a signup first: names, e-mail, password length, country. */
function signupProblem(t: TFunction, form: SignupBody): string | null {
  if (!form.first_name.trim()) return t('validation.firstName');
  if (!form.last_name.trim()) return t('validation.lastName');
  if (!isEmail(form.email)) return t('validation.email');
  if (!isStrongEnough(form.password)) return t('validation.passwordLength', { min: PASSWORD_MIN_LENGTH });
  if (!form.country) return t('validation.country');
  return null;
}

function SignupSent() {
  const { t } = useTranslation();
  return (
    <AuthLayout title={t('auth.signup.successTitle')} testId="signup-success">
      <Alert tone="success">{t('auth.signup.successText')}</Alert>
      <Link href={PATHS.signIn} className="button button-primary button-block">
        {t('auth.signup.signIn')}
      </Link>
    </AuthLayout>
  );
}

function SignupFields({ form, set }: { form: SignupBody; set: (key: keyof SignupBody) => (value: string) => void }) {
  const { t } = useTranslation();
  const countries = useCountriesQuery();
  return (
    <>
      <div className="field-pair">
        <Field
          label={t('auth.signup.firstName')}
          autoComplete="given-name"
          maxLength={30}
          value={form.first_name}
          onChange={(e) => set('first_name')(e.target.value)}
          data-testid="signup-first-name"
          autoFocus
          required
        />
        <Field
          label={t('auth.signup.lastName')}
          autoComplete="family-name"
          maxLength={30}
          value={form.last_name}
          onChange={(e) => set('last_name')(e.target.value)}
          data-testid="signup-last-name"
          required
        />
      </div>
      <Field
        label={t('auth.signup.email')}
        type="email"
        autoComplete="email"
        value={form.email}
        onChange={(e) => set('email')(e.target.value)}
        data-testid="signup-email"
        required
      />
      <Field
        label={t('auth.signup.password')}
        type="password"
        autoComplete="new-password"
        minLength={PASSWORD_MIN_LENGTH}
        hint={t('auth.signup.passwordHint', { min: PASSWORD_MIN_LENGTH })}
        value={form.password}
        onChange={(e) => set('password')(e.target.value)}
        data-testid="signup-password"
        required
      />
      <CountrySelect query={countries} value={form.country} onChange={set('country')} />
      <Field
        label={t('auth.signup.organisation')}
        autoComplete="organization"
        maxLength={80}
        value={form.organisation_name ?? ''}
        onChange={(e) => set('organisation_name')(e.target.value)}
        data-testid="signup-organisation"
      />
    </>
  );
}
