import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { countRender } from '../../charts/gl/stats';
import type { ChartScreen } from '../../charts/screen';

/** Undo, redo and reset zoom; thresholds and artefacts toggles (spec 2 §2). */
export function GraphToolbar({ screen, thresholds, artefacts, artefactsAvailable, onThresholds, onArtefacts }: {
  screen: ChartScreen;
  thresholds: boolean;
  artefacts: boolean;
  artefactsAvailable: boolean;
  onThresholds: (on: boolean) => void;
  onArtefacts: (on: boolean) => void;
}) {
  countRender('GraphToolbar');
  const { t } = useTranslation();
  // Only these two flags are read, so a page step (range only) does not render this.
  const { canUndo, canRedo } = useSnapshot(screen.view.store);
  const { dispatch } = screen.view;
  return (
    <div className="graph-toolbar" role="toolbar" aria-label={t('night.toolbar.label')}>
      {/* Undo and redo as icons with their names as titles: the toolbar stays one line at 1280 px in every language. */}
      <button type="button" className="button button-small" disabled={!canUndo} onClick={() => dispatch({ type: 'undo' })} aria-label={t('night.toolbar.undo')} title={t('night.toolbar.undo')} data-testid="zoom-undo">
        <span aria-hidden="true">↶</span>
      </button>
      <button type="button" className="button button-small" disabled={!canRedo} onClick={() => dispatch({ type: 'redo' })} aria-label={t('night.toolbar.redo')} title={t('night.toolbar.redo')} data-testid="zoom-redo">
        <span aria-hidden="true">↷</span>
      </button>
      <button type="button" className="button button-small" onClick={() => dispatch({ type: 'reset' })} data-testid="zoom-reset">
        {t('night.toolbar.reset')}
      </button>
      <label className="toggle">
        <input type="checkbox" checked={thresholds} onChange={(e) => onThresholds(e.target.checked)} data-testid="toggle-thresholds" />
        {t('night.toolbar.thresholds')}
      </label>
      <label className="toggle">
        <input type="checkbox" checked={artefacts} disabled={!artefactsAvailable} onChange={(e) => onArtefacts(e.target.checked)} data-testid="toggle-artefacts" />
        {t('night.toolbar.artefacts')}
      </label>
    </div>
  );
}
