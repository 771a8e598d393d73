import { useEffect, useMemo, useState } from 'react';
import { deferredSignalApi } from '../../../workers/api';
import { getSignalEngine } from '../../../workers/client';
import type { SignalApi } from '../../../workers/protocol';

/**
 * The signal engine (worker pool, or the main thread when workers fail) at once, as an
 * API whose calls wait for its start: the screen, its WebGL context and its blocks are
 * built while the workers start and the channels download, not after. `error`: the
 * engine could not start at all.
 */
export function useSignalApi(): { api: SignalApi; error: unknown } {
  const [error, setError] = useState<unknown>(null);
  const api = useMemo(() => {
    const ready = getSignalEngine().then((engine) => engine.api);
    // A failed start reaches the screen through `error` (below) and each call's rejection.
    ready.catch(() => undefined);
    return deferredSignalApi(ready);
  }, []);
  useEffect(() => {
    let live = true;
    getSignalEngine().then(
      () => undefined,
      (failure: unknown) => live && setError(failure),
    );
    return () => {
      live = false;
    };
  }, []);
  return { api, error };
}
