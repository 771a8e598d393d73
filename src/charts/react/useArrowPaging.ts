import { useEffect } from 'react';
import type { ViewController } from '../../state/view';
import { isTextEntry } from '../../ui/keys';


/**
 * The left and right arrow keys page the window by 20% (spec 2 §2). Every press pages at
 * once; frames coalesce in the renderer, so a held key cannot queue up work.
 */
export function useArrowPaging(view: ViewController): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
      if (isTextEntry(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
      e.preventDefault();
      view.dispatch({ type: 'page', direction: e.key === 'ArrowRight' ? 1 : -1 });
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, [view]);
}
