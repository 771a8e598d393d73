import { useEffect, useRef } from 'react';
import { IDLE_SIGN_OUT_MS } from '../../config';
import { createIdleTimer } from './idle';

/** Calls `signOut` after the idle period while `active`; the latest callback is always used. */
export function useIdleSignOut(active: boolean, signOut: () => void): void {
  const latest = useRef(signOut);
  latest.current = signOut;

  useEffect(() => {
    if (!active) return;
    const timer = createIdleTimer({
      timeoutMs: IDLE_SIGN_OUT_MS,
      onIdle: () => latest.current(),
      target: window,
    });
    timer.start();
    return () => timer.stop();
  }, [active]);
}
