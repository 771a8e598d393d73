import { proxy } from 'valtio/vanilla';

/**
 * The main menu entry (its id, src/features/shell/nav.tsx) a page belongs to when its path
 * alone does not say: a sample patient's night is at /app/patients/id=N like any patient's,
 * but it is reached from, and belongs to, Sample patients.
 */
export const section = proxy<{ entry: string | null }>({ entry: null });

/** Marks the page on screen as `entry`'s; the returned undo gives the menu back to the path. */
export function claimSection(entry: string): () => void {
  section.entry = entry;
  return () => {
    if (section.entry === entry) section.entry = null;
  };
}
