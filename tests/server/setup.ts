// Runs before each server test file. The files of a worker share its process (isolate: false in
// vitest.config.ts): what one file changes of the process — its environment, a fake clock, a
// spied function — is given back after it, so the next file starts as if alone.
import { afterAll, vi } from 'vitest';

const env = { ...process.env };

afterAll(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  Object.assign(process.env, env);
});
