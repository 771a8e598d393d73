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

  it('a channel of another tool has no missing codes: its -1 and -2 are data, its NaN gaps missing', () => {
    // A CPAP flow read from EDF: digital -1/-2 are small flows, not codes.
    const samples = new Int16Array([190, -1, -2, 205]);
    const bytes = encodeWire({ t0: 0, sampleRate: 25, scale: 0.002, offset: 0, storage: 'int16', missingCodes: [], samples });
    expect(bytes[47]).toBe(1);
    const wire = decodeWire(bytes);
    expect(wire.missingCodes).toEqual([]);
    const input = channelInputFromWire({ night: 'n', code: 'NC_PSG' }, wire);
    const info = engine.load(input);
    try {
      expect(info.validCount).toBe(4);
      expect([info.min, info.max]).toEqual([Math.fround(-0.004), Math.fround(0.41)]);
    } finally {
      engine.close('n');
    }
    const gapped = decodeWire(encodeWire({ t0: 0, sampleRate: 1, scale: 1, offset: 0, storage: 'float32', missingCodes: [], samples: new Float32Array([-1, Number.NaN, 2]) }));
    const g = channelInputFromWire({ night: 'g', code: 'X' }, gapped);
    try {
      expect(engine.load(g).validCount).toBe(2);
    } finally {
      engine.close('g');
    }
  });

  it('buffers stored before the no-codes flag (byte 47 = 0) keep the device codes', () => {
    const bytes = encodeWire({ t0: 0, sampleRate: 1, scale: 1, offset: 0, storage: 'int16', missingCodes: [-1, -2], samples: new Int16Array([5, -1]) });
    expect(bytes[47]).toBe(0);
    expect(decodeWire(bytes).missingCodes).toEqual([-1, -2]);
    expect(() => encodeWire({ t0: 0, sampleRate: 1, scale: 1, offset: 0, storage: 'int16', missingCodes: [-300], samples: new Int16Array(1) })).toThrow(RangeError);
  });
});
