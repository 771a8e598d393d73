import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../ui/Dialog';
import { isTextEntry } from '../../ui/keys';

/**
 * Every key of the single-night review, as the "?" overlay lists them (the README's first ten
 * minutes and docs/guide/annotator.md agree). A key written as words (the mouse) is itself a translation key.
 */
const ROWS: readonly (readonly [string, string])[] = [
  ['← / →', 'night.keys.arrows'],
  ['Shift + ← / →', 'night.keys.shiftArrows'],
  ['← / → (hold)', 'night.keys.hold'],
  ['1 – 9', 'night.keys.digits'],
  ['M', 'night.keys.mark'],
  ['] / [', 'night.keys.jump'],
  ['] / [', 'night.keys.adjudicate'],
  ['N / P', 'night.keys.nights'],
  ['Ctrl + Z', 'night.keys.undo'],
  ['Ctrl + Shift + Z, Ctrl + Y', 'night.keys.redo'],
  ['?', 'night.keys.help'],
  ['night.keys.mouse', 'night.keys.drag'],
];

/** The "?" button and overlay listing every key; the ? key opens it too. */
export function KeyHelp() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '?' || e.ctrlKey || e.metaKey || e.altKey || isTextEntry(e.target) || document.querySelector('dialog[open]')) return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <>
      <button type="button" className="button button-small" onClick={() => setOpen(true)} aria-label={t('night.keys.open')} title={t('night.keys.open')} data-testid="key-help-open">
        ?
      </button>
      <Dialog
        open={open}
        title={t('night.keys.title')}
        onClose={() => setOpen(false)}
        testId="key-help"
        actions={<button type="button" className="button" onClick={() => setOpen(false)} data-testid="key-help-close">{t('night.keys.close')}</button>}
      >
        <table className="key-help">
          <tbody>
            {ROWS.map(([keys, text]) => (
              <tr key={text}>
                <td><kbd>{keys === 'night.keys.mouse' ? t('night.keys.mouse') : keys}</kbd></td>
                <td>{t(text as 'night.keys.help')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Dialog>
    </>
  );
}
