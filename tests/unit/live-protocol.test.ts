import { describe, expect, it } from 'vitest';
import { decodeFrame, encodeFrame, liveState, OFFLINE_AFTER_MS, STALLED_AFTER_MS } from '../../contract/live-protocol';
import { FrameError, storedBytes, validateFrame } from '../../server/live/frames';

describe('live frame codec', () => {
  it('round-trips a header and float32 samples, channel after channel', () => {
    const bytes = encodeFrame({ seq: 3, sentMs: 1, channels: [{ code: 'HR', n: 1 }, { code: 'Y_DIST', n: 2 }] }, [[61], [0.25, -1.5]]);
    const { header, samples } = decodeFrame(bytes);
    expect(header).toEqual({ seq: 3, sentMs: 1, channels: [{ code: 'HR', n: 1 }, { code: 'Y_DIST', n: 2 }] });
    expect(Array.from(samples)).toEqual([61, 0.25, -1.5]);
  });

  it('reads every sample bit for bit whatever the header length and the frame\'s place in its buffer', () => {
    // Values whose float32 bits must survive: subnormal, negative zero, the largest float32, an inexact decimal.
    const values = [1.401298464324817e-45, -0, 3.4028234663852886e38, 0.1, -123.456];
    const bits = (a: Float32Array) => Array.from(new Uint32Array(a.slice().buffer));
    for (let pad = 0; pad < 4; pad++) {
      const frame = encodeFrame({ seq: 1, pad: 'x'.repeat(pad) }, [values]);
      for (const offset of [0, 1, 3]) {
        // A WebSocket message is often a view into a larger receive buffer, at any offset.
        const host = new Uint8Array(offset + frame.byteLength + 5);
        host.set(frame, offset);
        const { header, samples } = decodeFrame(host.subarray(offset, offset + frame.byteLength));
        expect(header).toEqual({ seq: 1, pad: 'x'.repeat(pad) });
        expect(bits(samples)).toEqual(bits(new Float32Array(values)));
      }
    }
  });

  it('names what is wrong with a malformed layout', () => {
    expect(() => decodeFrame(new Uint8Array([1]))).toThrow(/shorter than/);
    const bytes = encodeFrame({ seq: 0 }, [[1]]);
    expect(() => decodeFrame(bytes.subarray(0, bytes.length - 1))).toThrow(/whole number of float32/);
    const lying = new Uint8Array(bytes);
    new DataView(lying.buffer).setUint32(0, 10_000, true);
    expect(() => decodeFrame(lying)).toThrow(/header length 10000/);
  });

  it('keeps int16 channels exact through physical float32 values', () => {
    const announced = new Set(['I', 'BR']);
    const digital = [32_767, -32_767, 12_345, -1];
    const frame = validateFrame(encodeFrame({ seq: 0, sentMs: 0, channels: [{ code: 'I', n: 4 }, { code: 'BR', n: 1 }] }, [digital.map((d) => d * 1e-4), [-2]]), announced);
    expect(Array.from(new Int16Array(storedBytes(frame.parts[0]!).buffer))).toEqual(digital);
    // -2 ("no subject") is a missing code on a vital channel, not out of range.
    expect(Array.from(new Float32Array(storedBytes(frame.parts[1]!).buffer))).toEqual([-2]);
  });

  it('refuses samples outside the channel range with the channel and index', () => {
    const bytes = encodeFrame({ seq: 0, sentMs: 0, channels: [{ code: 'SPO2', n: 2 }] }, [[97, 101]]);
    const err = (() => {
      try {
        validateFrame(bytes, new Set(['SPO2']));
      } catch (e) {
        return e as FrameError;
      }
      throw new Error('accepted');
    })();
    expect(err.code).toBe('out_of_range_sample');
    expect(err.message).toBe('channel SPO2 sample 1 is 101, outside 0 to 100');
  });
});

describe('live state', () => {
  it('is streaming, then stalled after 10 s, then offline after 60 s without a frame', () => {
    const t = 1_000_000;
    expect(liveState(null, t)).toBe('offline');
    expect(liveState(t, t + STALLED_AFTER_MS - 1)).toBe('streaming');
    expect(liveState(t, t + STALLED_AFTER_MS)).toBe('stalled');
    expect(liveState(t, t + OFFLINE_AFTER_MS - 1)).toBe('stalled');
    expect(liveState(t, t + OFFLINE_AFTER_MS)).toBe('offline');
  });
});
