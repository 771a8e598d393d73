// The screen's LiveBoard, for the strips under a LiveBoardSurface.
import { createContext, useContext } from 'react';
import type { LiveBoard } from './liveBoard';

export const LiveBoardContext = createContext<LiveBoard | null>(null);

/** The board of the surrounding LiveBoardSurface; a strip outside one is a programming error. */
export function useLiveBoard(): LiveBoard {
  const board = useContext(LiveBoardContext);
  if (!board) throw new Error('A live strip must be inside a LiveBoardSurface');
  return board;
}
