import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../ui/Alert';
import { useAction } from '../../../ui/useAction';
import { saveLabelMap } from '../api';

/** A channel code as the import routes accept it (empty: keep the signal under its own label). */
const CODE = /^[A-Za-z0-9_]{0,40}$/;

/** The practice's import label map: a foreign file's signal label → our channel code. */
export function LabelMapForm({ labelMap, editable, onSaved }: { labelMap: Record<string, string>; editable: boolean; onSaved: () => Promise<void> }) {
  const { t } = useTranslation();
  const [rows, setRows] = useState(() => Object.entries(labelMap));
  const [label, setLabel] = useState('');
  const [code, setCode] = useState('');
  const action = useAction();
  const set = (i: number, value: string) => setRows(rows.map((r, j) => (j === i ? [r[0], value] : r)));
  const all = [...rows, ...(label.trim() ? [[label.trim(), code.trim()] as [string, string]] : [])];
  const bad = all.find(([, c]) => !CODE.test(c));
  const dirty = label.trim() !== '' || rows.some(([l, c]) => labelMap[l] !== c);
  return (
    <form
      className="settings-block"
      aria-labelledby="settings-labelmap-title"
      data-testid="settings-label-map"
      onSubmit={(e) => {
        e.preventDefault();
        if (bad) return action.setProblem(t('practice.settings.labelMap.badCode', { label: bad[0] }));
        action.run(async () => {
          await saveLabelMap(Object.fromEntries(all));
          setLabel('');
          setCode('');
          await onSaved();
        });
      }}
    >
      <h3 id="settings-labelmap-title">{t('practice.settings.labelMap.title')}</h3>
      <p className="muted">{t('practice.settings.labelMap.intro')}</p>
      {rows.length === 0 && <p className="muted" data-testid="settings-label-map-empty">{t('practice.settings.labelMap.empty')}</p>}
      <table className="practice-table">
        <thead>
          <tr>
            <th scope="col">{t('practice.settings.labelMap.label')}</th>
            <th scope="col">{t('practice.settings.labelMap.code')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([l, c], i) => (
            <tr key={l} data-testid="settings-label-map-row">
              <td>{l}</td>
              <td>
                <input value={c} maxLength={40} disabled={!editable || action.busy} aria-label={t('practice.settings.labelMap.codeFor', { label: l })} onChange={(e) => set(i, e.target.value)} />
              </td>
            </tr>
          ))}
          {editable && (
            <tr>
              <td>
                <input value={label} maxLength={80} disabled={action.busy} aria-label={t('practice.settings.labelMap.newLabel')} placeholder={t('practice.settings.labelMap.label')} onChange={(e) => setLabel(e.target.value)} data-testid="settings-label-map-new-label" />
              </td>
              <td>
                <input value={code} maxLength={40} disabled={action.busy} aria-label={t('practice.settings.labelMap.newCode')} placeholder={t('practice.settings.labelMap.code')} onChange={(e) => setCode(e.target.value)} data-testid="settings-label-map-new-code" />
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {action.problem && <Alert tone="error" testId="settings-label-map-problem">{action.problem}</Alert>}
      {editable && (
        <button type="submit" className="button" disabled={!dirty || action.busy} data-testid="settings-label-map-save">
          {t('practice.settings.save')}
        </button>
      )}
    </form>
  );
}
