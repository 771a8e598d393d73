// Channels arriving in the server's binary format load as they are.
import { beforeAll, describe, expect, it } from 'vitest';
import { channelInputFromWire, loadEngine, ms, type Engine } from '../../engine/index';
import { decodeWire, encodeWire } from '../../engine/wire';

let engine: Engine;
beforeAll(async () => {
  engine = await loadEngine();
});

describe('wire channels', () => {
  it('loads an int16 wire buffer with scale, offset and missing codes', () => {
    const samples = new Int16Array([950, -1, 960, -2, 970, 0]);
    const wire = decodeWire(encodeWire({ t0: 1_700_000_000_000, sampleRate: 1, scale: 0.1, offset: 0, storage: 'int16', missingCodes: [-1, -2], samples }));
    const input = channelInputFromWire({ night: 'w', code: 'SPO2', }, wire);
    const info = engine.load(input);
    try {
      expect(info).toMatchObject({ count: 6, validCount: 3, t0Ms: 1_700_000_000_000, sampleRateHz: 1 });
      const st = engine.stats(input, info.t0Ms, info.t1Ms, 'exact');
      expect([st.min, st.max, st.p50]).toEqual([Math.fround(95), Math.fround(97), Math.fround(96)]);
    } finally {
      engine.close('w');
    }
  });

  it('applies scale and offset to float32 samples, matching codes on stored values', () => {
    const samples = new Float32Array([1, -1, 2, 3]);
    const wire = decodeWire(encodeWire({ t0: 0, sampleRate: 2, scale: 2, offset: 10, storage: 'float32', missingCodes: [-1, -2], samples }));
    const input = channelInputFromWire({ night: 'f', code: 'Y_DIST' }, wire);
    engine.load(input);
    try {
      const st = engine.stats(input, ms(0), ms(2000), 'exact');
      expect([st.count, st.min, st.max]).toEqual([3, 12, 16]);
    } finally {
      engine.close('f');
    }
  });
});
