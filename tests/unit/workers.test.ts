import { describe, expect, it, vi } from 'vitest';
import { getSignalEngine } from '../../workers/client';

describe('getSignalEngine', () => {
  it('falls back to the main thread where workers cannot start, and logs once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const { api, mode } = await getSignalEngine();
      const again = await getSignalEngine();
      expect(mode).toBe('main-thread');
      expect(again.api).toBe(api);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(await api.info()).toMatchObject({ simd: true, workers: 0 });
      expect(await api.sum(new Float32Array([1, 2, 3, 4, 5]))).toBe(15);
    } finally {
      warn.mockRestore();
    }
  });
});
