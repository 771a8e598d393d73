import type { Rgba } from '../../charts/gl/block';

/** Series colours: first and second series of a block (IQ, bp). */
export const SERIES_COLORS: readonly Rgba[] = [
  [0.12, 0.37, 0.66, 1],
  [0.85, 0.4, 0.1, 1],
];
