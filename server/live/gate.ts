/**
 * At most `limit` tasks at a time; the others wait their turn in order, without a time limit.
 * Device session work (hello, heartbeat, end) goes through one, so a reconnect storm of
 * 1,000 devices queues here instead of in the database pool, where a waiting query times
 * out (connectionTimeoutMillis) and the group commit would wait behind them all.
 */
export class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next task (running stays the same), or is freed.
      if (next) next();
      else this.running--;
    }
  }

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }
}
