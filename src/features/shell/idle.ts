/**
 * Idle sign-out timer, free of React and of the DOM beyond an event target.
 *
 * Activity only records a timestamp; the single pending timeout re-arms itself for the
 * remaining time when it fires early. A stream of mousemove events therefore costs a
 * property write each, not a clearTimeout/setTimeout pair.
 */

/** Activity that restarts the clock (spec 1 §4). */
export const ACTIVITY_EVENTS = ['mousemove', 'keydown', 'scroll', 'click', 'load'] as const;

export interface IdleTarget {
  addEventListener(type: string, listener: () => void, options?: AddEventListenerOptions): void;
  removeEventListener(type: string, listener: () => void, options?: EventListenerOptions): void;
}

export interface IdleTimerOptions {
  timeoutMs: number;
  onIdle: () => void;
  /** Where activity is heard; window in the browser. */
  target: IdleTarget;
  events?: readonly string[];
  /** Clock in ms; Date.now by default, swappable for tests. */
  now?: () => number;
}

export interface IdleTimer {
  /** Starts listening and the clock; calling twice is harmless. */
  start(): void;
  /** Stops listening and clears the pending timeout. */
  stop(): void;
  /** Counts as activity. */
  touch(): void;
}

/** Creates a timer that calls `onIdle` once after `timeoutMs` of no activity, then stops. */
export function createIdleTimer(options: IdleTimerOptions): IdleTimer {
  const { timeoutMs, onIdle, target } = options;
  const events = options.events ?? ACTIVITY_EVENTS;
  const now = options.now ?? Date.now;
  let lastActivity = 0;
  let handle: ReturnType<typeof setTimeout> | null = null;
  let running = false;

  const touch = () => {
    lastActivity = now();
  };

  const check = () => {
    handle = null;
    if (!running) return;
    const remaining = lastActivity + timeoutMs - now();
    if (remaining > 0) {
      handle = setTimeout(check, remaining);
      return;
    }
    stop();
    onIdle();
  };

  function start() {
    if (running) return;
    running = true;
    touch();
    // Capture phase: scroll does not bubble, and inner handlers may stop propagation.
    for (const type of events) target.addEventListener(type, touch, { capture: true, passive: true });
    handle = setTimeout(check, timeoutMs);
  }

  function stop() {
    running = false;
    if (handle !== null) clearTimeout(handle);
    handle = null;
    for (const type of events) target.removeEventListener(type, touch, { capture: true });
  }

  return { start, stop, touch };
}
