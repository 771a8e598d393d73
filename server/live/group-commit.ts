import type { Db } from '../db/adapter';
import { fallbackLogger, type Logger } from '../log';
import { FrameError, type ValidFrame } from './frames';
import { commitBatch, frameDigest, SessionClosed, type BatchItem, type CommittedFrame, type IngestResult, type LiveSession } from './ingest';

/**
 * How long a frame that finds no batch committing waits for others (ms): none. Frames
 * received in the same turn of the event loop still go together (the flush runs after
 * them), and under load batches form while the one before commits, so a wait here only
 * added latency (bench:realtime: 5 ms on every frame of 16 devices).
 */
const BATCH_DELAY_MS = 0;
/** Most frames in one batch (a larger queue is committed in several). */
const MAX_BATCH_FRAMES = 2_000;
/**
 * Batches committing at once, each device's frames always in the same one (its device number
 * modulo LANES), so a device's frames still commit in order and two batches never lock the
 * same rows. With one, the database and this process took turns: 1,000 devices on PostgreSQL
 * kept 0.6 of a core busy in each and 2,000-frame batches queued behind each other.
 */
const LANES = 2;

interface Waiting extends BatchItem {
  resolve: (result: IngestResult) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit of device frames (issue 15): frames from every device connected to this
 * process are queued and committed together, one transaction a batch, one batch at a time
 * in each of LANES lanes (a device's frames always in the same lane, in order). A batch
 * gathers what arrived while the one before it committed and goes at once after it (those
 * frames have waited a commit already), so batches grow with the load and the number of
 * transactions does not. Each frame's promise settles only once its batch committed (then
 * it may be acked); a batch that fails rejects every frame of it (none is acked: the devices
 * resend them). Same path on PGlite and PostgreSQL.
 */
export class GroupCommit {
  private readonly lanes: Lane[];
  private readonly counts = { batches: 0, frames: 0 };

  constructor(db: Db, onCommitted: (frames: CommittedFrame[]) => Promise<void>, delayMs = BATCH_DELAY_MS, lanes = LANES, log: Logger = fallbackLogger()) {
    this.lanes = Array.from({ length: lanes }, () => new Lane(db, onCommitted, delayMs, this.counts, log));
  }

  /** Batches committed and frames in them, for tests and the log. */
  get batches(): number {
    return this.counts.batches;
  }

  get frames(): number {
    return this.counts.frames;
  }

  /** Resolves once every committed batch so far was handed to fan-out. */
  async fannedOut(): Promise<void> {
    await Promise.all(this.lanes.map((l) => l.fannedOut()));
  }

  /** Queues a valid frame in its device's lane; resolves once committed (or a duplicate), rejects with its FrameError or the batch's failure. */
  commit(session: LiveSession, frame: ValidFrame): Promise<IngestResult> {
    return this.lanes[session.device.deviceMasterId % this.lanes.length]!.commit(session, frame);
  }
}

/** One lane of the group commit: its own queue, one batch committing at a time. */
class Lane {
  private queue: Waiting[] = [];
  private timer: NodeJS.Timeout | NodeJS.Immediate | null = null;
  private running = false;
  /** Fan-out of committed batches so far (settles once every one was handed on), off the commit path. */
  private fanOut: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly onCommitted: (frames: CommittedFrame[]) => Promise<void>,
    private readonly delayMs: number,
    private readonly counts: { batches: number; frames: number },
    private readonly log: Logger,
  ) {}

  /** Resolves once every committed batch so far was handed to fan-out. */
  fannedOut(): Promise<void> {
    return this.fanOut;
  }

  /** Queues a valid frame; resolves once committed (or a duplicate), rejects with its FrameError or the batch's failure. */
  commit(session: LiveSession, frame: ValidFrame): Promise<IngestResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ session, frame, digest: frameDigest(frame), resolve, reject });
      this.schedule();
    });
  }

  /** `afterBatch`: frames queued while a batch committed; they go next without a further wait. */
  private schedule(afterBatch = false): void {
    if (this.running || this.timer) return;
    const go = () => {
      this.timer = null;
      void this.flush();
    };
    const wait = afterBatch || this.queue.length >= MAX_BATCH_FRAMES ? 0 : this.delayMs;
    this.timer = wait > 0 ? setTimeout(go, wait) : setImmediate(go);
  }

  private async flush(): Promise<void> {
    if (this.queue.length === 0) return;
    this.running = true;
    const batch = this.queue.splice(0, MAX_BATCH_FRAMES);
    try {
      const started = Date.now();
      const results = await commitBatch(this.db, batch);
      this.log.debug(`live batch: ${batch.length} frames in ${Date.now() - started} ms`);
      this.counts.batches++;
      this.counts.frames += batch.length;
      const committed: CommittedFrame[] = [];
      results.forEach((r, i) => {
        if (r instanceof FrameError || r instanceof SessionClosed) return batch[i]!.reject(r);
        if (!r.duplicate) committed.push(r.frame);
        batch[i]!.resolve(r);
      });
      if (committed.length) {
        // Called now, in commit order: what it does at once (this process's viewers) waits
        // for no earlier batch's fan-out; what it returns (the other processes' notices) is chained.
        const done = Promise.resolve()
          .then(() => this.onCommitted(committed))
          .catch((err: Error) => this.log.error(`live fan-out failed: ${err.message}`));
        this.fanOut = this.fanOut.then(() => done);
      }
    } catch (err) {
      for (const w of batch) w.reject(err);
    } finally {
      this.running = false;
      if (this.queue.length) this.schedule(true);
    }
  }
}
