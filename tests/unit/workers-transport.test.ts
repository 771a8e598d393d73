// The worker protocol over a real comlink channel (Node's MessageChannel):
// inputs are transferred, results arrive whole, errors keep their code.
import * as Comlink from 'comlink';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError, hz, loadEngine, ms, px, type ChannelInput } from '../../engine/index';
import { createSignalApi, deferredSignalApi } from '../../workers/api';
import type { SignalApi } from '../../workers/protocol';
import { wrapRemote } from '../../workers/remote';
import { syntheticSignal } from '../../engine/synthetic';

let channel: MessageChannel;
let api: SignalApi;
beforeAll(async () => {
  channel = new MessageChannel();
  Comlink.expose(createSignalApi(await loadEngine(), 1), channel.port1 as unknown as Comlink.Endpoint);
  api = wrapRemote(channel.port2 as unknown as Comlink.Endpoint);
});
afterAll(() => {
  channel.port1.close();
  channel.port2.close();
});

describe('signal worker protocol', () => {
  it('transfers the samples of load instead of cloning them', async () => {
    const samples = syntheticSignal({ samples: 10_000, seed: 3 }) as Float32Array;
    const copy = samples.slice();
    const input: ChannelInput = { night: 't', code: 'BR', samples, sampleRateHz: hz(25), t0Ms: ms(0) };
    const info = await api.load(input);
    expect(samples.buffer.byteLength).toBe(0);
    expect(info.count).toBe(10_000);
    const view = await api.view(input, ms(0), info.t1Ms, px(100));
    expect(view.buffer.byteLength).toBe(100 * 21);
    expect(view.x.buffer).toBe(view.buffer);
    expect(Math.max(...view.max)).toBe(Math.max(...copy));
    expect((await api.stats(input, ms(0), info.t1Ms, 'exact')).count).toBe(10_000);
    // Recycling: the old buffer goes back to the worker and returns refilled.
    const ref = { night: 't', code: 'BR' };
    const first = await api.views([ref], ms(0), info.t1Ms, px(100));
    const old = first[0]!.buffer;
    const second = await api.views([ref], ms(1000), info.t1Ms, px(100), old);
    expect(old.byteLength).toBe(0);
    expect(second[0]!.buffer.byteLength).toBe(100 * 21);
    expect(second[0]!.x[0]).toBeCloseTo((info.t1Ms - 1000) / 200, 3);
    expect(await api.close('t')).toBe(1);
  });

  it('copies a subarray before transferring, leaving the caller its buffer', async () => {
    const whole = new Float32Array([1, 2, 3, 4, 5, 6]);
    expect(await api.sum(whole.subarray(1, 3))).toBe(5);
    expect(whole.buffer.byteLength).toBe(24);
  });

  it('lets the engine refuse samples that are not a typed array', async () => {
    const input = { night: 'bad', code: 'BR', samples: [1, 2, 3] as unknown as Float32Array, sampleRateHz: hz(1), t0Ms: ms(0) };
    const error = await api.load(input).catch((e: unknown) => e);
    expect((error as EngineError).code).toBe('INVALID_SAMPLES');
  });

  it('rebuilds EngineError with its code on the calling side', async () => {
    const error = await api.stats({ night: 'none', code: 'BR' }, ms(0), ms(1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('UNKNOWN_CHANNEL');
    expect((error as EngineError).message).toMatch(/BR of night none is not loaded/);
  });

  it('answers calls made while the engine is still loading', async () => {
    let resolve!: (api: SignalApi) => void;
    const deferred = deferredSignalApi(new Promise<SignalApi>((r) => { resolve = r; }));
    const early = deferred.sum(new Float32Array([2, 3]));
    resolve(createSignalApi(await loadEngine(), 1));
    expect(await early).toBe(5);
    expect((await deferred.info()).workers).toBe(1);
  });
});

describe('detection through the worker protocol', () => {
  it('runs the same detectors as the engine module, the series transferred', async () => {
    const { analyseNight } = await import('../../engine/detect');
    const t0 = Date.UTC(2026, 0, 1, 22);
    const make = () => {
      const rate = 20;
      const values = new Float32Array(600 * rate);
      for (let i = 0; i < values.length; i++) values[i] = (i / rate >= 300 && i / rate < 315 ? 0.03 : 1) * Math.sin((2 * Math.PI * 0.25 * i) / rate);
      return { values, rate, t0 };
    };
    const direct = analyseNight({ startMs: t0, stopMs: t0 + 600_000, channels: { Y_DIST: make() } });
    const input = { startMs: t0, stopMs: t0 + 600_000, channels: { Y_DIST: make() } };
    const remote = await api.analyse(input);
    expect(input.channels.Y_DIST.values.buffer.byteLength).toBe(0);
    expect(remote.respiratory).toEqual(direct.respiratory);
    expect(remote.respiratory.map((e) => e.kind)).toEqual(['apnea']);
  });
});
