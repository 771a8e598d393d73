// The one canvas of a screen's live strips (fixed over the viewport, under the header) and
// its LiveBoard; the strips inside register their boxes with it (LivePlot).
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { LiveBoard } from './liveBoard';
import { LiveBoardContext } from './liveBoardContext';

/** Renders its children once the board exists; every LivePlot among them draws through it. */
export function LiveBoardSurface({ children }: { children: ReactNode }) {
  const hostRef = useRef<HTMLSpanElement>(null);
  const [board, setBoard] = useState<LiveBoard | null>(null);
  useLayoutEffect(() => {
    const canvas = document.createElement('canvas');
    canvas.className = 'chart-canvas';
    canvas.setAttribute('aria-hidden', 'true');
    canvas.dataset.testid = 'live-canvas';
    hostRef.current!.append(canvas);
    const created = new LiveBoard(canvas);
    setBoard(created);
    return () => {
      created.destroy();
      canvas.remove();
    };
  }, []);
  return (
    <>
      <span ref={hostRef} className="chart-canvas-host" />
      {board && <LiveBoardContext.Provider value={board}>{children}</LiveBoardContext.Provider>}
    </>
  );
}
