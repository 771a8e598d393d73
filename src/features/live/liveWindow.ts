// The Real Time screen's window on a live session (spec 1 §2): where it is, and where the time
// slider under the charts puts it. Pure: the page's useLiveWindow holds the state.

/** A session's samples: the first one's time and the end of the newest, ms. */
interface Session {
  t0Ms: number;
  endMs: number;
}

/** The window of `windowMs` ending at `endMs`, or at the session's newest data while following (null). */
export function windowOf(s: Session, endMs: number | null, windowMs: number): { t0: number; t1: number } {
  const end = endMs ?? s.endMs;
  return { t0: end - windowMs, t1: end };
}

/**
 * The time slider, in whole seconds from the session's start: `max` is as far as the window's
 * start can go (0 while one window holds the whole session), `value` where it is (at `max` while
 * following: the window's start rounded might fall a second short of the max, rounded up).
 */
export function sliderOf(s: Session | null, endMs: number | null, windowMs: number): { max: number; value: number } {
  const sessionMs = s ? Math.max(0, s.endMs - s.t0Ms) : 0;
  const max = Math.max(0, Math.ceil((sessionMs - windowMs) / 1000));
  if (!s) return { max, value: 0 };
  if (endMs === null) return { max, value: max };
  return { max, value: Math.min(max, Math.max(0, Math.round((windowOf(s, endMs, windowMs).t0 - s.t0Ms) / 1000))) };
}

/** The window's end once the slider puts its start at `startS`; at the slider's `max`, null: following again. */
export function endAt(s: Session, startS: number, max: number, windowMs: number): number | null {
  return startS >= max ? null : s.t0Ms + startS * 1000 + windowMs;
}
