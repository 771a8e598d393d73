import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccessRow, AccessTrailFilter } from '../../../contract/audit';
import { accessKind } from '../../../contract/audit-rules';
import { call, download } from '../../api/client';
import { downloadFile } from '../../api/download';
import { errorText } from '../../api/messages';
import { Alert } from '../../ui/Alert';
import { browserZone, useFormat } from '../../format';

interface Filter {
  patient_code: string;
  user: string;
}

const PAGE = 100;

/** The trail's query for a filter (empty fields left out). */
function queryOf(filter: Filter): AccessTrailFilter {
  return { ...(filter.patient_code.trim() ? { patient_code: filter.patient_code.trim() } : {}), ...(filter.user.trim() ? { user: filter.user.trim() } : {}) };
}

/** /app/admin/trail: who read or changed what, when and from where; filtered by patient and user, exported as CSV (issue 33 point 8). */
export function AccessTrailPage() {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Filter>({ patient_code: '', user: '' });
  const [filter, setFilter] = useState<Filter>(draft);
  const trail = useInfiniteQuery({
    queryKey: ['admin', 'access-trail', filter],
    initialPageParam: null as number | null,
    queryFn: async ({ pageParam }) => (await call('GET /admin/access-trail', { query: { ...queryOf(filter), limit: PAGE, ...(pageParam ? { before_id: pageParam } : {}) } })).data,
    getNextPageParam: (last) => last.next_before_id,
  });
  const exportCsv = useMutation({ mutationFn: () => downloadFile(download('GET /admin/access-trail.csv', 'text/csv', { query: queryOf(filter) }), 'access_trail.csv') });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFilter(draft);
  };
  const rows = trail.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <div className="page" data-testid="access-trail">
      <h2>{t('admin.trail.title')}</h2>
      <p className="page-hint">{t('admin.trail.hint')}</p>
      <form className="trail-filter" onSubmit={submit}>
        <label>
          {t('admin.trail.patient')}
          <input value={draft.patient_code} maxLength={64} onChange={(e) => setDraft({ ...draft, patient_code: e.target.value })} data-testid="trail-patient" />
        </label>
        <label>
          {t('admin.trail.user')}
          <input value={draft.user} maxLength={254} onChange={(e) => setDraft({ ...draft, user: e.target.value })} data-testid="trail-user" />
        </label>
        <button type="submit" className="button" data-testid="trail-apply">
          {t('admin.trail.apply')}
        </button>
        <button type="button" className="button" onClick={() => exportCsv.mutate()} disabled={exportCsv.isPending} data-testid="trail-export">
          {t('admin.trail.export')}
        </button>
      </form>
      {(trail.isError || exportCsv.isError) && <Alert tone="error">{errorText(t, trail.error ?? exportCsv.error)}</Alert>}
      <AccessTable rows={rows} showPatient testId="trail-table" />
      {trail.isSuccess && rows.length === 0 && <p className="muted" data-testid="trail-empty">{t('admin.trail.empty')}</p>}
      {trail.hasNextPage && (
        <button type="button" className="button" onClick={() => void trail.fetchNextPage()} disabled={trail.isFetchingNextPage} data-testid="trail-more">
          {t('admin.trail.more')}
        </button>
      )}
    </div>
  );
}

/** Accesses as a table: when, who, from where, what, outcome. */
export function AccessTable({ rows, showPatient, testId }: { rows: readonly AccessRow[]; showPatient: boolean; testId: string }) {
  const { t } = useTranslation();
  const f = useFormat();
  // The reader's own clock, in the app's one date style (day, then a 24-hour time to the second).
  const zone = browserZone();
  return (
    <div className="table-wrap">
      <table className="table trail-table" data-testid={testId}>
        <thead>
          <tr>
            <th scope="col">{t('admin.trail.columns.when')}</th>
            <th scope="col">{t('admin.trail.columns.who')}</th>
            <th scope="col">{t('admin.trail.columns.address')}</th>
            <th scope="col">{t('admin.trail.columns.what')}</th>
            {showPatient && <th scope="col">{t('admin.trail.columns.patient')}</th>}
            <th scope="col">{t('admin.trail.columns.outcome')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} data-testid="trail-row">
              <td className="trail-when">
                {f.day(r.at_ms, zone)}
                <br />
                {f.time(r.at_ms, zone)}
              </td>
              <td className="trail-who">{r.user_email ? <Email address={r.user_email} /> : '–'}</td>
              <td dir="ltr">{r.ip ?? '–'}</td>
              <td className="trail-what">
                {t(accessKind(r.method, r.route) === 'read' ? 'admin.trail.read' : 'admin.trail.changed')}{' '}
                {/* The API route: an identifier, the same in every language. */}
                <code dir="ltr" translate="no">
                  {r.route}
                  {r.detail ? ` (${r.detail})` : ''}
                </code>
              </td>
              {showPatient && <td>{r.patient_code ?? '–'}</td>}
              <td>{r.status}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** An e-mail address that may break after its @ (and only inside a part too long for its column). */
function Email({ address }: { address: string }) {
  const at = address.indexOf('@');
  if (at < 0) return <>{address}</>;
  return (
    <>
      {address.slice(0, at + 1)}
      <wbr />
      {address.slice(at + 1)}
    </>
  );
}
