/** Storage that never throws: private modes and Node tests have no (or a failing) Web Storage. */
function safe(kind: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    const s = (globalThis as Record<string, unknown>)[kind] as Storage | undefined;
    return s ?? null;
  } catch {
    return null;
  }
}

export function readItem(kind: 'localStorage' | 'sessionStorage', key: string): string | null {
  try {
    return safe(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeItem(kind: 'localStorage' | 'sessionStorage', key: string, value: string | null): void {
  try {
    const s = safe(kind);
    if (!s) return;
    if (value === null) s.removeItem(key);
    else s.setItem(key, value);
  } catch {
    // Quota or privacy mode: the app still works, it just forgets on reload.
  }
}

export function clearAll(): void {
  for (const kind of ['localStorage', 'sessionStorage'] as const) {
    try {
      safe(kind)?.clear();
    } catch {
      // Nothing to clear.
    }
  }
}
