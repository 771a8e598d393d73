import { afterEach, describe, expect, it, vi } from 'vitest';
import { scrollMotion } from '../../src/ui/motion';

describe('scrollMotion', () => {
  afterEach(() => vi.unstubAllGlobals());

  const asking = (reduce: boolean) => vi.stubGlobal('window', { matchMedia: (q: string) => ({ matches: reduce && q === '(prefers-reduced-motion: reduce)' }) });

  it('scrolls smoothly by default', () => {
    asking(false);
    expect(scrollMotion()).toBe('smooth');
  });

  it('jumps at once for a user who asked the system for less motion', () => {
    asking(true);
    expect(scrollMotion()).toBe('auto');
  });
});
