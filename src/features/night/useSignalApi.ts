import { useEffect, useState } from 'react';
import { getSignalEngine } from '../../../workers/client';
import type { SignalApi } from '../../../workers/protocol';

/** The signal engine (worker pool, or the main thread when workers fail), once started. */
export function useSignalApi(): { api: SignalApi | null; error: unknown } {
  const [state, setState] = useState<{ api: SignalApi | null; error: unknown }>({ api: null, error: null });
  useEffect(() => {
    let live = true;
    getSignalEngine().then(
      (engine) => live && setState({ api: engine.api, error: null }),
      (error: unknown) => live && setState({ api: null, error }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}
