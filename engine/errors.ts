/** Stable codes of engine errors; the UI maps them to translated messages. */
export type EngineErrorCode =
  | 'INVALID_CHANNEL'
  | 'INVALID_SAMPLES'
  | 'SIZE_MISMATCH'
  | 'INVALID_SAMPLE_RATE'
  | 'INVALID_TIME'
  | 'INVALID_RANGE'
  | 'INVALID_PIXELS'
  | 'INVALID_EDGES'
  | 'INVALID_BANDS'
  | 'INVALID_DAYS'
  | 'INVALID_MODE'
  | 'DUPLICATE_CHANNEL'
  | 'UNKNOWN_CHANNEL'
  | 'WINDOW_TOO_LARGE'
  | 'ENGINE_FAILURE';

const CODE_PATTERN = /^([A-Z_]+): /;

/**
 * An engine error: `code` is stable, the message says what was wrong and
 * with which input. The message starts with the code so it survives comlink,
 * which only carries name and message across a worker boundary.
 */
export class EngineError extends Error {
  override readonly name = 'EngineError';

  constructor(readonly code: EngineErrorCode, detail: string) {
    super(`${code}: ${detail}`);
  }
}

/** Rebuilds an EngineError from an error that crossed a worker boundary. */
export function toEngineError(error: unknown): unknown {
  if (error instanceof EngineError) return error;
  if (error instanceof Error) {
    const match = CODE_PATTERN.exec(error.message);
    if (match && error.name === 'EngineError') {
      return new EngineError(match[1] as EngineErrorCode, error.message.slice(match[0].length));
    }
  }
  return error;
}
