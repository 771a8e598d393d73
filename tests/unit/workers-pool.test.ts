// The pool spreads channels over its members and answers like one engine.
import { describe, expect, it } from 'vitest';
import { EngineError, hz, loadEngine, ms, px, type ChannelInput } from '../../engine/index';
import { createSignalApi } from '../../workers/api';
import { createSignalPool, poolSize } from '../../workers/pool';
import { syntheticSignal } from '../../engine/synthetic';

const CODES = ['BR', 'HR', 'SPO2', 'PR', 'Y_DIST', 'I', 'Q', 'MOV'];

function input(night: string, code: string, seed: number): ChannelInput {
  return { night, code, samples: syntheticSignal({ samples: 5000 + seed, seed, missingShare: 0.1 }), sampleRateHz: hz(25), t0Ms: ms(0) };
}

describe('signal pool', () => {
  it('sizes itself min(4, cores - 1), at least one', () => {
    expect([1, 2, 3, 4, 5, 8, 64, undefined].map(poolSize)).toEqual([1, 1, 2, 3, 4, 4, 4, 1]);
  });

  it('spreads channels over members and answers like a single engine', async () => {
    const members = await Promise.all([0, 1, 2].map(async (i) => createSignalApi(await loadEngine(), 1 + 0 * i)));
    const pool = createSignalPool(members);
    const single = createSignalApi(await loadEngine());
    expect((await pool.info()).workers).toBe(3);
    await Promise.all(CODES.map((code, i) => pool.load(input('n1', code, i + 1))));
    await Promise.all(CODES.map((code, i) => single.load(input('n1', code, i + 1))));
    const perMember = await Promise.all(members.map((m) => m.channels()));
    expect(perMember.map((c) => c.length).sort()).toEqual([2, 3, 3]);
    for (const code of CODES) {
      const ref = { night: 'n1', code };
      const [a, b] = await Promise.all([pool.view(ref, ms(0), ms(150_000), px(300)), single.view(ref, ms(0), ms(150_000), px(300))]);
      expect(Buffer.compare(new Uint8Array(a.buffer), new Uint8Array(b.buffer))).toBe(0);
      expect(await pool.stats(ref, ms(1000), ms(90_000))).toEqual(await single.stats(ref, ms(1000), ms(90_000)));
    }
    const refs = CODES.map((code) => ({ night: 'n1', code }));
    const [batch, alone] = await Promise.all([pool.views(refs, ms(500), ms(120_000), px(257)), single.views(refs, ms(500), ms(120_000), px(257))]);
    batch.forEach((view, i) => expect([...view.max]).toEqual([...alone[i]!.max]));
    await expect(pool.load(input('n1', 'BR', 1))).rejects.toThrow(EngineError);
    expect((await pool.channels()).length).toBe(CODES.length);
    expect(await pool.close('n1', 'BR')).toBe(1);
    expect(await pool.close('n1')).toBe(CODES.length - 1);
    expect((await pool.memory()).channels).toBe(0);
    await expect(pool.view({ night: 'n1', code: 'HR' }, ms(0), ms(1), px(1))).rejects.toThrow(/UNKNOWN_CHANNEL/);
  });

  it('closes a night after the loads asked for before it: nothing of a closed night stays (leaving a night mid-load)', async () => {
    const engine = createSignalApi(await loadEngine());
    // A screen asks for its channels, then is left before they are in: the close comes second.
    const loads = CODES.map((code, i) => engine.load(input('left', code, i + 1)));
    const closed = engine.close('left');
    await Promise.all([...loads, closed]);
    expect(await closed).toBe(CODES.length);
    expect(await engine.channels()).toEqual([]);
    expect((await engine.memory()).channels).toBe(0);
  });

  it('keeps a channel loaded while its night was being closed where its views are asked for', async () => {
    const members = await Promise.all([0, 1, 2].map(async () => createSignalApi(await loadEngine(), 1)));
    const pool = createSignalPool(members);
    await Promise.all(CODES.map((code, i) => pool.load(input('n2', code, i + 1))));
    // The night is left and opened again at once: its close and the new loads cross.
    const closing = pool.close('n2');
    const again = Promise.all(CODES.map((code, i) => pool.load(input('n2', code, i + 1))));
    await closing;
    await again;
    expect((await pool.channels()).filter((c) => c.night === 'n2')).toHaveLength(CODES.length);
    for (const code of CODES) await expect(pool.stats({ night: 'n2', code }, ms(0), ms(90_000))).resolves.toBeDefined();
    expect(await pool.close('n2')).toBe(CODES.length);
    expect((await pool.memory()).channels).toBe(0);
  });
});
