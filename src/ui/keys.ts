const TEXT_TYPES = new Set(['text', 'search', 'email', 'password', 'tel', 'url', 'number', 'date', 'time', 'datetime-local', 'month', 'week']);

/**
 * Whether a key press goes into a field the user is typing in. Checkboxes, buttons and
 * selects are not: after ticking a toggle, the review keys keep working.
 */
export function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.tagName === 'TEXTAREA') return true;
  return target.tagName === 'INPUT' && TEXT_TYPES.has((target as HTMLInputElement).type);
}
