// Background threads yield the cores to the event loop (decision 1004). On two cores, two
// engine workers analysing nights, PostgreSQL and the event loop all want a core at once; at
// equal priority the kernel shares them out evenly and the event loop, which acknowledges
// device frames and answers viewers, waits its turn behind the analyses (bench:load mixed).
// A Linux thread is a task of its own with its own nice value, so a worker lowers its own
// priority: the event loop runs first whenever it has work, and the workers use the rest.
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { isMainThread } from 'node:worker_threads';

/**
 * The nice value of the engine's and the upload parser's worker threads: at 10, a thread
 * weighs about a tenth of one at 0 when they share a core (the kernel's weights 1024 and 110).
 */
export const BACKGROUND_NICE = 10;

/** This thread's id (Linux): /proc/thread-self links to <pid>/task/<tid>. */
function threadId(): number {
  return Number(readlinkSync('/proc/thread-self').split('/').pop());
}

/**
 * Lowers the calling worker thread's scheduling priority to `nice` (never raises it; only
 * a worker may call it, the main thread's priority is the process's). Linux only, where
 * each thread has its own; elsewhere the nice value is the process's and it is left as it
 * is. Returns the thread's nice value after, or null where threads have none of their own.
 */
export function lowerThreadPriority(nice = BACKGROUND_NICE): number | null {
  if (isMainThread) throw new Error('lowerThreadPriority is for worker threads: the main thread runs the event loop');
  if (process.platform !== 'linux') return null;
  const tid = threadId();
  if (getPriority(tid) < nice) setPriority(tid, nice);
  return getPriority(tid);
}
