import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Signup, SignupDecision } from '../../../contract/signup-review';
import { call } from '../../api/client';
import { errorText } from '../../api/messages';
import { Alert } from '../../ui/Alert';
import { Dialog } from '../../ui/Dialog';
import { countryName } from '../../builtInNames';
import { useFormat } from '../../format';

const signupsApi = {
  list: () => call('GET /admin/signups'),
  decide: (id: number, decision: SignupDecision, reason: string) => call('POST /admin/signups/:id/:decision', { params: { id, decision }, body: reason ? { reason } : {} }),
};
const KEY = ['admin', 'signups'] as const;

/** /app/admin/signups: accounts waiting since signup, approved or refused by an admin (issue 16 point 3). */
export function SignupsPage() {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: KEY, queryFn: async () => (await signupsApi.list()).data.signups });
  const [asking, setAsking] = useState<Asking | null>(null);
  const rows = query.data ?? [];
  return (
    <div className="page" data-testid="signups">
      <h2>{t('admin.signups.title')}</h2>
      <p className="page-hint">{t('admin.signups.hint')}</p>
      {query.isError && <Alert tone="error">{errorText(t, query.error)}</Alert>}
      <div className="table-wrap">
        <table className="table" data-testid="signups-table">
          <thead>
            <tr>
              <th scope="col">{t('admin.signups.columns.name')}</th>
              <th scope="col">{t('admin.signups.columns.email')}</th>
              <th scope="col">{t('admin.signups.columns.organisation')}</th>
              <th scope="col">{t('admin.signups.columns.requested')}</th>
              <th scope="col">{t('admin.signups.columns.status')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={5} className="table-empty">
                  {query.isPending ? t('admin.signups.loading') : t('admin.signups.empty')}
                </td>
              </tr>
            ) : (
              rows.map((s) => <SignupRow key={s.user_id} signup={s} onAsk={(decision) => setAsking({ signup: s, decision })} />)
            )}
          </tbody>
        </table>
      </div>
      <DecisionDialog asking={asking} onClose={() => setAsking(null)} />
    </div>
  );
}

type Asking = { signup: Signup; decision: SignupDecision };

const useWhen = () => {
  const f = useFormat();
  return (iso: string | null) => (iso ? f.instant(iso) : '–');
};

/** One signup: who, from where, when, and Approve / Refuse or the decision made. */
function SignupRow({ signup: s, onAsk }: { signup: Signup; onAsk: (decision: SignupDecision) => void }) {
  const { t, i18n } = useTranslation();
  const when = useWhen();
  return (
    <tr data-testid="signup-row" data-email={s.email}>
      <td>{`${s.first_name} ${s.last_name}`.trim()}</td>
      <td className="mono">{s.email}</td>
      <td>{[s.organisation_name, s.country && countryName(i18n.language, s.country)].filter(Boolean).join(', ') || '–'}</td>
      <td>{when(s.created_at)}</td>
      <td>
        {s.status === 'pending' ? (
          <span className="row-actions">
            <button type="button" className="button button-primary" onClick={() => onAsk('approve')} data-testid="signup-approve">
              {t('admin.signups.approve')}
            </button>
            <button type="button" className="button" onClick={() => onAsk('refuse')} data-testid="signup-refuse">
              {t('admin.signups.refuse')}
            </button>
          </span>
        ) : (
          <span data-testid="signup-decided">
            {t(s.status === 'active' ? 'admin.signups.approvedBy' : 'admin.signups.refusedBy', { who: s.reviewed_by ?? '–', when: when(s.reviewed_at) })}
            {s.review_reason ? ` (${s.review_reason})` : ''}
          </span>
        )}
      </td>
    </tr>
  );
}

/** Approve or refuse, with an optional reason; a failed decision says why and stays open. */
function DecisionDialog({ asking, onClose }: { asking: Asking | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const decide = useMutation({
    mutationFn: ({ id, decision, why }: { id: number; decision: SignupDecision; why: string }) => signupsApi.decide(id, decision, why),
    onSuccess: onClose,
    onSettled: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
  // A new question starts clean: no reason, no earlier failure.
  const reset = decide.reset;
  useEffect(() => {
    setReason('');
    reset();
  }, [asking]); // reset is the mutation's own (stable); only a new question starts over
  return (
    <Dialog
      open={asking !== null}
      title={asking?.decision === 'approve' ? t('admin.signups.approveTitle') : t('admin.signups.refuseTitle')}
      onClose={onClose}
      testId="signup-decision"
      actions={
        <>
          <button type="button" className="button" onClick={onClose} disabled={decide.isPending}>
            {t('admin.signups.cancel')}
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={decide.isPending}
            onClick={() => asking && decide.mutate({ id: asking.signup.user_id, decision: asking.decision, why: reason.trim() })}
            data-testid="signup-confirm"
          >
            {asking?.decision === 'approve' ? t('admin.signups.approve') : t('admin.signups.refuse')}
          </button>
        </>
      }
    >
      {asking && (
        <>
          <p>{t(asking.decision === 'approve' ? 'admin.signups.approveText' : 'admin.signups.refuseText', { name: `${asking.signup.first_name} ${asking.signup.last_name}`.trim(), email: asking.signup.email })}</p>
          <div className="field">
            <label htmlFor="signup-reason">{t('admin.signups.reason')}</label>
            <textarea id="signup-reason" maxLength={500} rows={3} value={reason} onChange={(e) => setReason(e.target.value)} data-testid="signup-reason" />
          </div>
          {decide.isError && <Alert tone="error">{errorText(t, decide.error)}</Alert>}
        </>
      )}
    </Dialog>
  );
}
