/**
 * A screen with unsaved changes can hold back in-app navigation (the sidebar's links):
 * the guard sees the target and returns false to stop it, typically to ask first.
 */
type Guard = (to: string) => boolean;

let guard: Guard | null = null;

/** Installs a guard; returns its removal. */
export function setLeaveGuard(next: Guard): () => void {
  guard = next;
  return () => {
    if (guard === next) guard = null;
  };
}

/** Whether navigation to `to` may go ahead. */
export function mayLeave(to: string): boolean {
  return guard ? guard(to) : true;
}
