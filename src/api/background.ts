// Requests the screen's first paint does not need (decision 1007). A reload of a night opens
// with a burst of requests the header and the shell make (notifications, which the server may
// first analyse new nights for; the avatar's profile; the user's details refreshed; upload
// limits; the night marked seen): each fetch costs the page's main thread a millisecond or two
// in the task that renders the charts, and the server's time beside the charts' own requests on
// a 2-core machine. Marked `background`, they wait until the screen says its first paint is out
// (at most a bounded time), then go as before. Without a screen holding them, they go at once.

/** Resolves when background requests may go: at once unless a screen holds them. */
let open: Promise<void> = Promise.resolve();

/**
 * Holds background requests until `painted` settles: a promise the screen bounds in time (a
 * screen that never paints, a failed load, must not hold the header for long). Called by a
 * screen that opens the page (the night screen's preload).
 */
export function holdBackgroundRequests(painted: Promise<unknown>): void {
  open = painted.then(
    () => undefined,
    () => undefined,
  );
}

/** Resolves when a background request may go; rejects with the AbortError if `signal` aborts first. */
export function backgroundOpen(signal?: AbortSignal): Promise<void> {
  if (!signal) return open;
  const aborted = () => (signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError'));
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(aborted());
    signal.addEventListener('abort', onAbort, { once: true });
    void open.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
