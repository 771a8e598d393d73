import { useEffect, useRef, type RefObject } from 'react';

/** While a popup is open: a press outside `box` or Escape closes it (the bell's panel, the night calendar). */
export function useDismiss(open: boolean, box: RefObject<HTMLElement | null>, close: () => void) {
  const onClose = useRef(close);
  onClose.current = close;
  useEffect(() => {
    if (!open) return;
    const outside = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) onClose.current();
    };
    const escape = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose.current();
    };
    document.addEventListener('mousedown', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('mousedown', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [open, box]);
}
