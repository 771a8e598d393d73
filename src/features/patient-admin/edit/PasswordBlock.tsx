import { useMutation } from '@tanstack/react-query';
import md5 from 'md5-wasm';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../ui/Field';
import { adminApi } from '../api';
import { passwordResetError } from '../logic/patientForm';

/** How long 'Password reset done.' stays (spec 1 §9). */
const RESET_DONE_MS = 5000;

/** Reset patient password: both fields, the same; sent as MD5 hex (md5-wasm); done banner for 5 s. */
export function PasswordBlock({ patientId }: { patientId: number }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<'empty' | 'notSame' | 'failed' | null>(null);
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(() => setDone(false), RESET_DONE_MS);
    return () => window.clearTimeout(timer);
  }, [done]);

  const reset = useMutation({
    mutationFn: async (plain: string) => adminApi.resetPassword(patientId, await md5(new TextEncoder().encode(plain))),
    onSuccess: () => {
      setPassword('');
      setConfirm('');
      setDone(true);
    },
    onError: () => setProblem('failed'),
  });
  const busy = reset.isPending;

  const submit = () => {
    const invalid = passwordResetError(password, confirm);
    setProblem(invalid);
    if (invalid) return;
    reset.mutate(password);
  };

  return (
    <section className="card" aria-labelledby="password-title" data-testid="block-password">
      <div className="block-head">
        <h3 id="password-title">{t('patientAdmin.password.title')}</h3>
      </div>
      <form
        className="form-grid"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Field label={t('patientAdmin.password.new')} type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} data-testid="reset-password" />
        <Field label={t('patientAdmin.password.confirm')} type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} data-testid="reset-confirm" />
        <div className="field">
          <button type="submit" className="button button-primary" disabled={busy} data-testid="reset-submit">
            {t('patientAdmin.password.submit')}
          </button>
        </div>
      </form>
      {problem && (
        <p className="alert alert-error" role="alert" data-testid="reset-error">
          {t(`patientAdmin.password.${problem}`)}
        </p>
      )}
      {done && (
        <p className="alert alert-success" role="status" data-testid="reset-done">
          {t('patientAdmin.password.done')}
        </p>
      )}
    </section>
  );
}
