import { useCallback, useRef } from 'react';

/**
 * A callback of one identity for the component's life that calls the latest `fn`: a memoised
 * child handed it is not drawn again because its parent made a new closure.
 */
export function useStableCallback<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const latest = useRef(fn);
  latest.current = fn;
  return useCallback((...args: A) => latest.current(...args), []);
}
