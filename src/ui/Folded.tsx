import { useState, type ReactNode } from 'react';

/**
 * A `<details>` whose body is made the first time it unfolds (and kept after): a folded panel
 * costs the screen nothing when it opens, whose first paint waits on every element it makes
 * (decision 1029). `open` unfolds it from outside (the body is made then too).
 */
export function Folded({ className, testId, open, summary, children }: { className: string; testId?: string; open?: boolean; summary: ReactNode; children: ReactNode }) {
  const [unfolded, setUnfolded] = useState(false);
  // Unfolded from outside once: the body stays when it folds again (what was typed in it too).
  if (open && !unfolded) setUnfolded(true);
  return (
    <details className={className} data-testid={testId} open={open} onToggle={(e) => e.currentTarget.open && setUnfolded(true)}>
      <summary>{summary}</summary>
      {unfolded && children}
    </details>
  );
}
