import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDLE_SIGN_OUT_MS } from '../../src/config';
import { ACTIVITY_EVENTS, createIdleTimer, type IdleTarget } from '../../src/features/shell/idle';

/** A minimal event target that remembers its listeners. */
function fakeTarget() {
  const listeners = new Map<string, Set<() => void>>();
  const target: IdleTarget = {
    addEventListener: (type, fn) => {
      if (!listeners.has(type)) listeners.set(type, new Set());
      listeners.get(type)!.add(fn);
    },
    removeEventListener: (type, fn) => listeners.get(type)?.delete(fn),
  };
  const fire = (type: string) => listeners.get(type)?.forEach((fn) => fn());
  const count = () => [...listeners.values()].reduce((n, s) => n + s.size, 0);
  return { target, fire, count };
}

describe('idle timer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('uses the spec period of 28,800,000 ms', () => {
    expect(IDLE_SIGN_OUT_MS).toBe(28_800_000);
    expect([...ACTIVITY_EVENTS].sort()).toEqual(['click', 'keydown', 'load', 'mousemove', 'scroll']);
  });

  it('fires once after the period without activity, then stops listening', () => {
    const { target, count } = fakeTarget();
    const onIdle = vi.fn();
    createIdleTimer({ timeoutMs: IDLE_SIGN_OUT_MS, onIdle, target }).start();
    expect(count()).toBe(ACTIVITY_EVENTS.length);
    vi.advanceTimersByTime(IDLE_SIGN_OUT_MS - 1);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
    expect(count()).toBe(0);
    vi.advanceTimersByTime(IDLE_SIGN_OUT_MS * 3);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it.each(ACTIVITY_EVENTS)('restarts the clock on %s', (type) => {
    const { target, fire } = fakeTarget();
    const onIdle = vi.fn();
    createIdleTimer({ timeoutMs: IDLE_SIGN_OUT_MS, onIdle, target }).start();
    vi.advanceTimersByTime(IDLE_SIGN_OUT_MS - 1000);
    fire(type);
    vi.advanceTimersByTime(IDLE_SIGN_OUT_MS - 1);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('ignores events it was not asked to hear', () => {
    const { target, fire } = fakeTarget();
    const onIdle = vi.fn();
    createIdleTimer({ timeoutMs: 1000, onIdle, target }).start();
    vi.advanceTimersByTime(900);
    fire('resize');
    vi.advanceTimersByTime(100);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('keeps one pending timeout however much activity there is', () => {
    const { target, fire } = fakeTarget();
    createIdleTimer({ timeoutMs: 1000, onIdle: () => {}, target }).start();
    for (let i = 0; i < 500; i++) fire('mousemove');
    expect(vi.getTimerCount()).toBe(1);
  });

  it('stop() cancels the sign-out and removes the listeners; start() is idempotent', () => {
    const { target, count } = fakeTarget();
    const onIdle = vi.fn();
    const timer = createIdleTimer({ timeoutMs: 1000, onIdle, target });
    timer.start();
    timer.start();
    expect(count()).toBe(ACTIVITY_EVENTS.length);
    timer.stop();
    expect(count()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(onIdle).not.toHaveBeenCalled();
  });

  it('touch() counts as activity', () => {
    const { target } = fakeTarget();
    const onIdle = vi.fn();
    const timer = createIdleTimer({ timeoutMs: 1000, onIdle, target });
    timer.start();
    vi.advanceTimersByTime(800);
    timer.touch();
    vi.advanceTimersByTime(800);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(200);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });
});
