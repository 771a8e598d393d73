import { loadEngine, type Engine } from '../../engine/index';

let engine: Promise<Engine> | null = null;

/**
 * The signal engine for the server (the same WebAssembly the browser runs, so one
 * implementation computes every number shown). Loaded once, on first use.
 */
export function serverEngine(): Promise<Engine> {
  engine ??= loadEngine().catch((err: Error) => {
    engine = null;
    throw new Error(`The signal engine could not be loaded (${err.message}). Run "npm run build:engine".`);
  });
  return engine;
}

let seq = 0;
/** A night name no other request uses, so concurrent requests never share engine channels. */
export const scratchNight = (label: string) => `${label}#${++seq}`;
