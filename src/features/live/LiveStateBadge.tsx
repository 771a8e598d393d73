import { useTranslation } from 'react-i18next';
import type { DeviceLiveState } from '../../../contract/live-protocol';
import type { ConnectionState } from './stream';

/** A device's state (streaming, stalled, offline), or that our own connection is down. */
export function LiveStateBadge({ state, connection }: { state: DeviceLiveState; connection: ConnectionState }) {
  const { t } = useTranslation();
  const shown = connection === 'open' ? state : 'reconnecting';
  return (
    <span className={`live-state live-state-${shown}`} data-testid="live-state" data-state={shown} role="status">
      {t(`live.state.${shown}`)}
    </span>
  );
}
