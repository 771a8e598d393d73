// The worker protocol over a real comlink channel (Node's MessageChannel):
// inputs are transferred, results arrive whole, errors keep their code.
import * as Comlink from 'comlink';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError, hz, loadEngine, ms, px, type ChannelInput } from '../../engine/index';
import { createSignalApi } from '../../workers/api';
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
    expect(await api.close('t')).toBe(1);
  });

  it('copies a subarray before transferring, leaving the caller its buffer', async () => {
    const whole = new Float32Array([1, 2, 3, 4, 5, 6]);
    expect(await api.sum(whole.subarray(1, 3))).toBe(5);
    expect(whole.buffer.byteLength).toBe(24);
  });

  it('rebuilds EngineError with its code on the calling side', async () => {
    const error = await api.stats({ night: 'none', code: 'BR' }, ms(0), ms(1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('UNKNOWN_CHANNEL');
    expect((error as EngineError).message).toMatch(/BR of night none is not loaded/);
  });
});
