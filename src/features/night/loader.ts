// Loads the channels of one night into the signal engine: bytes (cache or server) →
// decodeWire → stage mapping → engine.load (the samples are transferred). Each channel
// loads once per screen; closing the night frees the engine's memory. The bytes are
// fetched while the engine starts (no serial round trip behind the worker's start).
import { decodeWire } from '../../../engine/wire';
import type { ChannelInfo, ChannelRef } from '../../../engine/index';
import { channelInputFromWire } from '../../../engine/index';
import type { SignalApi } from '../../../workers/protocol';
import { channelBytes } from './api';
import { mapStages } from './channels';

/** What loading a channel gave: its engine info, or empty (no samples). */
export type LoadedChannel = { ref: ChannelRef; info: ChannelInfo | null };

/** The engine's name of one night of one patient. */
const nightRef = (patientId: number, recordingId: number) => `p${patientId}r${recordingId}`;

export class NightLoader {
  private readonly loads = new Map<string, Promise<LoadedChannel>>();
  /** Codes the engine holds for this screen (their samples are in). */
  private readonly inEngine = new Set<string>();
  /** Bumped by close(): a load begun before it ends empty and leaves nothing in the engine. */
  private generation = 0;
  /** Aborted by close(): the downloads of this screen's channels and overviews stop. */
  private aborts = new AbortController();

  constructor(
    /** The engine, once started (the bytes do not wait for it). */
    private readonly engine: Promise<SignalApi>,
    readonly patientId: number,
    readonly recordingId: number,
    /** Each channel's version (api.ts channelVersion; null: a live night's, never kept), as the latest night list gives it. */
    private readonly versionOf: (code: string) => string | null = () => null,
  ) {}

  get night(): string {
    return nightRef(this.patientId, this.recordingId);
  }

  /** Aborted when the night closes: hand it to every download made for this screen. */
  get signal(): AbortSignal {
    return this.aborts.signal;
  }

  /** Those waiting for a channel whose load has not begun yet. */
  private readonly waiting = new Map<string, Array<() => void>>();

  /** Loads a channel once; later calls share the first load. */
  load(code: string): Promise<LoadedChannel> {
    let pending = this.loads.get(code);
    if (!pending) {
      pending = this.fetchAndLoad(code, this.generation);
      pending.catch(() => this.loads.delete(code));
      this.loads.set(code, pending);
      const waiting = this.waiting.get(code);
      this.waiting.delete(code);
      if (waiting) void pending.then(() => undefined, () => undefined).then(() => waiting.forEach((wake) => wake()));
    }
    return pending;
  }

  /** Resolves once a channel's load ended (loaded, empty or failed), without starting it: the screen's queue does. */
  whenLoaded(code: string): Promise<void> {
    const pending = this.loads.get(code);
    if (pending) return pending.then(() => undefined, () => undefined);
    return new Promise((resolve) => this.waiting.set(code, [...(this.waiting.get(code) ?? []), resolve]));
  }

  /** Whether the engine holds the channel's samples. */
  isLoaded(code: string): boolean {
    return this.inEngine.has(code);
  }

  /** True once the night was closed after a load of `generation` began. */
  private stale(generation: number): boolean {
    return generation !== this.generation;
  }

  private async fetchAndLoad(code: string, generation: number): Promise<LoadedChannel> {
    const ref = { night: this.night, code };
    let bytes: ArrayBuffer;
    try {
      bytes = await channelBytes(this.patientId, this.recordingId, code, this.versionOf(code), this.signal);
    } catch (error) {
      // Closed while it downloaded: the abort is the close, not a failure.
      if (this.stale(generation)) return { ref, info: null };
      throw error;
    }
    if (this.stale(generation)) return { ref, info: null };
    performance.mark(`nocturne:channel-bytes:${code}`);
    const wire = decodeWire(new Uint8Array(bytes));
    if (wire.samples.length === 0) return { ref, info: null };
    if (code === 'SLP_STGS') mapStages(wire.samples, wire.scale, wire.offset);
    const api = await this.engine;
    if (this.stale(generation)) return { ref, info: null };
    try {
      const info = await api.load(channelInputFromWire(ref, wire));
      // Closed while it loaded: the engine runs the night's close after this load (it was asked
      // for first), so nothing of it stays; freeing it here could free a newer visit's channel.
      if (this.stale(generation)) return { ref, info: null };
      performance.mark(`nocturne:channel-loaded:${code}`);
      this.inEngine.add(code);
      return { ref, info };
    } catch (error) {
      // Loaded by an earlier visit of this screen: use what the engine has.
      if ((error as { code?: string }).code === 'DUPLICATE_CHANNEL') {
        const info = (await api.channels()).find((c) => c.night === this.night && c.code === code) ?? null;
        if (info) this.inEngine.add(code);
        return { ref, info };
      }
      throw error;
    }
  }

  /** Frees the night in the engine; loads still on their way end empty and free what they loaded. */
  async close(): Promise<void> {
    this.generation++;
    this.aborts.abort();
    this.aborts = new AbortController();
    this.loads.clear();
    this.inEngine.clear();
    for (const waiting of this.waiting.values()) waiting.forEach((wake) => wake());
    this.waiting.clear();
    await (await this.engine).close(this.night);
  }
}
