import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { countRender } from '../../charts/gl/stats';
import { useHeldFor } from '../../ui/useHeldFor';
import { channelDef, type ChannelChoice } from './channels';
import { channelName, sourceTitle } from '../../builtInNames';

/** How long the saved-order feedback loader shows (spec 2 §4, §9). */
const SAVE_LOADER_MS = 1_000;

/**
 * "Available Channels" (spec 2 §2): draggable toggle buttons, disabled while data loads,
 * a PSG tag on the PSG channels, and Save as for order and visibility.
 */
export function ChannelSelector({ choices, disabled, onToggle, onMove, onSave }: {
  choices: readonly ChannelChoice[];
  disabled: boolean;
  onToggle: (code: string) => void;
  onMove: (from: string, to: string) => void;
  onSave: () => Promise<void>;
}) {
  countRender('ChannelSelector');
  const { t, i18n } = useTranslation();
  const dragging = useRef<string | null>(null);
  // Saving the order is a mutation like every write; its loader stays on screen a full second
  // from when it is painted, whatever the server's speed, failed or not.
  const saveOrder = useMutation({ mutationFn: onSave });
  const saving = useHeldFor(saveOrder.isPending, SAVE_LOADER_MS);
  return (
    <section className="channel-selector" aria-labelledby="channels-title" data-testid="channel-selector">
      <header className="channel-selector-head">
        <h3 id="channels-title">{t('night.channelsTitle')}</h3>
        <button type="button" className="button button-small" onClick={() => saveOrder.mutate()} disabled={saving} data-testid="save-order">
          {t('night.saveAs')}
        </button>
        {saving && <span className="spinner" role="status" aria-label={t('night.saving')} data-testid="save-loader" />}
        {!saving && saveOrder.isSuccess && <span className="muted" role="status" data-testid="save-done">{t('night.saved')}</span>}
        {!saving && saveOrder.isError && <span className="error-text" role="alert">{t('night.saveFailed')}</span>}
      </header>
      <div className="channel-buttons">
        {choices.map((c) => (
          <button
            key={c.code}
            type="button"
            className={`channel-button${c.visible ? ' on' : ''}`}
            aria-pressed={c.visible}
            disabled={disabled}
            draggable={!disabled}
            onClick={() => onToggle(c.code)}
            onDragStart={(e) => {
              dragging.current = c.code;
              e.dataTransfer.setData('text/plain', c.code);
            }}
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => {
              e.preventDefault();
              const from = dragging.current ?? e.dataTransfer.getData('text/plain');
              dragging.current = null;
              if (from && from !== c.code) onMove(from, c.code);
            }}
            title={sourceTitle(t, c.code)}
            data-testid={`channel-${c.code}`}
          >
            {channelName(t, i18n.language, c.code)}
            {channelDef(c.code).psg && <span className="psg-tag">{t('night.psg')}</span>}
          </button>
        ))}
      </div>
    </section>
  );
}
