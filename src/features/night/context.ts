import { createContext, useContext } from 'react';
import type { ChannelInfo } from '../../../engine/index';
import type { SignalApi } from '../../../workers/protocol';
import type { VitalParameters } from './vitals';
import type { NightInfo } from './types';

/** What every part of one night's review shares. */
export interface NightContextValue {
  api: SignalApi;
  night: NightInfo;
  /** Engine name of the night. */
  nightRef: string;
  vitals: VitalParameters;
  /** Loaded channels by code (null: no samples). */
  infos: Readonly<Record<string, ChannelInfo | null>>;
  /** Codes still loading. */
  loading: ReadonlySet<string>;
  /**
   * Codes whose info in `infos` comes from the server's overview: drawn at full-night zoom,
   * their samples not yet in the engine (no engine statistics of them yet).
   */
  provisional?: ReadonlySet<string>;
}

export const NightContext = createContext<NightContextValue | null>(null);

export function useNight(): NightContextValue {
  const value = useContext(NightContext);
  if (!value) throw new Error('useNight outside NightContext');
  return value;
}
