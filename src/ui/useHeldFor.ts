import { useEffect, useLayoutEffect, useRef, useState } from 'react';

/**
 * True while `active`, and for at least `ms` from the commit that first put it on screen: a
 * feedback loader is held from when the user can see it, not from when the work began (a busy
 * page can paint it tens of milliseconds late, and a wait started with the work would then
 * show it for less than its time).
 */
export function useHeldFor(active: boolean, ms: number): boolean {
  const [held, setHeld] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useLayoutEffect(() => {
    if (!active || timer.current !== undefined) return;
    setHeld(true);
    timer.current = setTimeout(() => {
      timer.current = undefined;
      setHeld(false);
    }, ms);
  }, [active, ms]);
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      timer.current = undefined;
    },
    [],
  );
  return active || held;
}
