// The engine's heavy work (night analysis, whole-night statistics, overviews) in worker
// threads, so the event loop that acknowledges device frames and answers viewers only routes,
// reads and writes (docs/decisions/0964-engine-pool.md). A task holds a place from its request
// to its answer, and reads its samples only when its turn comes (a worker about to be free), so
// the queue is bounded and holds no samples; a request finding no place gets 503 and Retry-After.
import { AsyncLocalStorage } from 'node:async_hooks';
import { Piscina } from 'piscina';
import { workerExecArgv } from './worker-argv';
import { DEFAULT_ENGINE_MAX_QUEUE, defaultEngineThreads, type EnginePoolConfig } from '../config';
import { RetryLater } from '../errors';
import { runEngineTask, taskBuffers, type EngineResult, type EngineTask } from './engine-work';
import type { EngineOutcome } from './engine-worker';

/** Retry-After bounds (s). */
const RETRY_MIN_S = 1;
const RETRY_MAX_S = 60;

/** The worker's entry (a compiled module's address in the test runs' compiled server). */
const WORKER = new URL('./engine-worker.ts', import.meta.url).href;
let config: EnginePoolConfig | null = { threads: defaultEngineThreads(), maxQueue: DEFAULT_ENGINE_MAX_QUEUE };
let pool: Piscina<EngineTask, EngineOutcome> | null = null;
/** Tasks holding a place: reading their samples, waiting for a worker, or running. */
let held = 0;
/** Background work waiting for a place. */
const waiting = new Set<() => void>();
/** Tasks reading their samples or running: one per worker and one reading ahead. */
let active = 0;
/** Tasks holding a place, waiting for their turn to read (first come, first served). */
const turns: (() => void)[] = [];
/** A task's run time (ms) assumed before any has run, for Retry-After. */
const FIRST_TASK_MS = 1000;
/** The workers could not run a task: the engine runs on the event loop until the pool is closed. */
let degraded = false;

/**
 * Sets how the engine's work runs (the server's configuration; null: inline, on the event loop,
 * as ENGINE_POOL=0 asks). A pool already running keeps its size until it is closed.
 */
export function configureEnginePool(next: EnginePoolConfig | null): void {
  config = next;
}

function enginePool(c: EnginePoolConfig): Piscina<EngineTask, EngineOutcome> {
  if (pool) return pool;
  pool = new Piscina<EngineTask, EngineOutcome>({
    filename: WORKER,
    maxThreads: c.threads,
    // Kept once started: a cold worker costs ≈ 0.3 s (loading the engine), paid by a first paint.
    // Idle workers do not hold the process open (piscina unrefs them).
    minThreads: c.threads,
    // Never unbounded; the turns keep at most one task waiting here.
    maxQueue: Math.max(1, c.maxQueue),
    execArgv: workerExecArgv(WORKER),
  });
  return pool;
}

const patient = new AsyncLocalStorage<true>();

/**
 * Runs background work (the night-statistics queue, report jobs, the seed's preparation): its
 * engine tasks wait for a place instead of being refused, as there is no client to retry.
 */
export function patiently<T>(work: () => Promise<T>): Promise<T> {
  return patient.run(true, work);
}

/** The seconds after which a refused request may find a place: the work ahead of it, per worker. */
function retryAfterS(c: EnginePoolConfig): number {
  const mean = pool?.histogram.runTime.mean;
  const meanTaskMs = mean !== undefined && Number.isFinite(mean) && mean > 0 ? mean : FIRST_TASK_MS;
  return Math.min(RETRY_MAX_S, Math.max(RETRY_MIN_S, Math.ceil((held * meanTaskMs) / c.threads / 1000)));
}

function busy(c: EnginePoolConfig): RetryLater {
  const s = retryAfterS(c);
  return new RetryLater('engine_busy', `The server is busy analysing other nights; try again in ${s} s.`, s);
}

/** Takes a place, waiting for one (background work) or refusing with 503 engine_busy (a request). */
async function takePlace(c: EnginePoolConfig): Promise<void> {
  while (held >= c.threads + c.maxQueue) {
    if (!patient.getStore()) throw busy(c);
    await new Promise<void>((resolve) => waiting.add(resolve));
  }
  held++;
}

/**
 * Waits for a turn to read the samples and run: the samples of a task still waiting are not
 * read yet, so a full queue holds no samples and the database reads one night at a time (on
 * PGlite, 20 nights read at once held the ingest's commits behind them).
 */
async function takeTurn(c: EnginePoolConfig): Promise<void> {
  if (active < c.threads + 1) {
    active++;
    return;
  }
  await new Promise<void>((resolve) => turns.push(resolve));
}

/** Hands the turn to the next task waiting, if any. */
function leaveTurn(): void {
  const next = turns.shift();
  if (next) next();
  else active--;
}

function leavePlace(): void {
  held--;
  const woken = [...waiting];
  waiting.clear();
  for (const wake of woken) wake();
}

/**
 * Runs an engine task in a worker thread: `read` reads its samples from the database (on the
 * event loop) once a place is free, and the samples are moved to the worker, not copied.
 * Throws RetryLater (503 engine_busy) when every place is taken, and the task's own error
 * when it fails. If the workers cannot run, the engine runs here and says so once.
 */
export async function onEngine<T extends EngineTask>(read: () => Promise<T>): Promise<EngineResult<T>> {
  const c = config;
  if (!c || degraded) return runEngineTask(await read());
  await takePlace(c);
  try {
    await takeTurn(c);
    try {
      const task = await read();
      const running = enginePool(c);
      let outcome: EngineOutcome;
      try {
        outcome = await running.run(task, { transferList: taskBuffers(task) });
      } catch (err) {
        if (pool !== running) throw err; // closed meanwhile: the server is stopping
        // piscina's own limit (never reached while the turns hold): refused before anything moved.
        if ((err as Error).message === 'Task queue is at limit') throw busy(c);
        if (!degraded) console.error(`The engine's worker threads failed (${(err as Error).message}); night analyses run on the event loop until the server restarts.`);
        degraded = true;
        // The samples went to the worker: read again.
        return runEngineTask(await read());
      }
      if ('error' in outcome) throw Object.assign(new Error(outcome.error.message), { name: outcome.error.name });
      return outcome.result as EngineResult<T>;
    } finally {
      leaveTurn();
    }
  } finally {
    leavePlace();
  }
}

/** Stops the engine's workers (server shutdown, end of tests); a later task starts a new pool. */
export async function closeEnginePool(): Promise<void> {
  const p = pool;
  pool = null;
  degraded = false;
  await p?.destroy();
}
