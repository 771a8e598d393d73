import { Piscina } from 'piscina';
import { runEngineTask, type EngineResults, type EngineTask } from './engine-work';
import { lowerThreadPriority } from './thread-priority';

// Analyses wait for the event loop, never the other way round (decision 1004).
lowerThreadPriority();

/** A task's result, or why it failed (an Error does not cross threads with its class). */
export type EngineOutcome = { result: EngineResults[keyof EngineResults] } | { error: { name: string; message: string } };

/**
 * Worker thread (piscina): the engine's work on samples the main thread read from the
 * database (engine-work.ts). A failure of the task itself is answered, not thrown, so a
 * rejected run on the main thread always means the worker failed, never the night.
 */
export default async function engineWork(task: EngineTask): Promise<EngineOutcome> {
  try {
    const result = await runEngineTask(task);
    // An overview's bytes own their buffer (encodeView): moved back, not copied.
    if (result instanceof Uint8Array) return Piscina.move({ [Piscina.transferableSymbol]: [result.buffer], [Piscina.valueSymbol]: { result } } as never) as unknown as EngineOutcome;
    return { result };
  } catch (err) {
    const e = err as Error;
    return { error: { name: e.name ?? 'Error', message: e.message ?? String(err) } };
  }
}
