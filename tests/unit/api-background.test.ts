import { afterEach, describe, expect, it, vi } from 'vitest';
import { backgroundOpen, holdBackgroundRequests } from '../../src/api/background';
import { call } from '../../src/api/client';

// Requests the screen's first paint does not need wait for it (decision 1007): held while a
// screen holds them, at once otherwise, and an abort while held ends them without a request.

const fetched: string[] = [];
const fakeFetch = async (url: string) => {
  fetched.push(url);
  return new Response(JSON.stringify({ data: { ok: true } }), { status: 200, headers: { 'content-type': 'application/json' } });
};

/** Holds background requests until the returned function is called. */
function hold(): () => void {
  let release!: () => void;
  holdBackgroundRequests(new Promise<void>((resolve) => (release = resolve)));
  return release;
}

/** Runs every promise reaction queued so far (a released call reaches fetch without a timer). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  // Module state is shared by the files of this worker: nothing stays held.
  holdBackgroundRequests(Promise.resolve());
  vi.unstubAllGlobals();
  fetched.length = 0;
});

describe('background requests', () => {
  it('go at once when no screen holds them', async () => {
    vi.stubGlobal('fetch', fakeFetch);
    await call('GET /user/profile', undefined, { background: true });
    expect(fetched).toEqual(['/api/v1/user/profile']);
  });

  it('wait while a screen holds them, and only they do', async () => {
    vi.stubGlobal('fetch', fakeFetch);
    const release = hold();
    const background = call('GET /physician/deallocation-notifications', undefined, { background: true });
    await call('GET /physician/preferences');
    await settle();
    expect(fetched).toEqual(['/api/v1/physician/preferences']);
    release();
    await background;
    expect(fetched).toEqual(['/api/v1/physician/preferences', '/api/v1/physician/deallocation-notifications']);
  });

  it('a hold that fails still lets them go', async () => {
    vi.stubGlobal('fetch', fakeFetch);
    holdBackgroundRequests(Promise.reject(new Error('the charts failed')));
    await call('GET /user/profile', undefined, { background: true });
    expect(fetched).toEqual(['/api/v1/user/profile']);
  });

  it('aborted while held: rejected as aborted, nothing requested', async () => {
    vi.stubGlobal('fetch', fakeFetch);
    const release = hold();
    const abort = new AbortController();
    const held = call('GET /user/profile', undefined, { background: true, signal: abort.signal });
    abort.abort();
    await expect(held).rejects.toMatchObject({ name: 'AbortError' });
    release();
    await settle();
    expect(fetched).toEqual([]);
    // An already aborted signal is refused at once.
    await expect(backgroundOpen(abort.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
});
