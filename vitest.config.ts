import { defineConfig } from 'vitest/config';

/** What the end-to-end files and the guide's screenshots share: the real app in the run's Chromium. */
const inChromium = {
  globalSetup: ['tests/e2e/global-setup.ts'],
  environment: 'node',
  testTimeout: 120_000,
  hookTimeout: 120_000,
  // expect.poll's own default (1 s) is shorter than a busy machine takes to load a list: a poll
  // that can pass waits up to Playwright's action timeout, as a locator does. It asks every
  // 200 ms, not every 50: each try is a round trip through Playwright's relay and Chromium, CPU
  // of a machine the stage keeps busy (decision 1000).
  expect: { poll: { timeout: 30_000, interval: 200 } },
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'],
          environment: 'node',
          // Pure functions, the engine and components: the files share each worker's modules
          // instead of a new process per file (74 files: 55 → 23 s, 71 → 29 CPU-s). Fake
          // timers are restored after each test (app-idle).
          isolate: false,
          // The property tests take 4–6 s each on a slow machine while CI's type check, lint and
          // build run beside them (2026-12-01: one timed out at vitest's default 5 s); a hang
          // still fails.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          globalSetup: ['tests/server/global-setup.ts'],
          setupFiles: ['tests/server/setup.ts'],
          environment: 'node',
          // Server files mostly wait (timers, sockets, child servers): three at a time instead
          // of vitest's default of one on two cores (the PGlite run: 21 → 7 minutes, loaded machine).
          maxWorkers: 3,
          // The files of a worker share its modules (PGlite's and the engine's WebAssembly compiled
          // once, the server's modules loaded once) instead of a new process per file.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          // The guide's screenshots are remade on demand (npm run docs:screenshots), not by npm test.
          exclude: ['tests/e2e/guide-screenshots.test.ts'],
          ...inChromium,
          // Three files at a time: one file at a time kept the 2-core machine 54 % busy (a test
          // mostly waits on its server, the page or Chromium's GPU process); two, 83–87 %; three,
          // 91 % and the stage 600 → 571 s on a machine 1.7× slower (decision 1000). Each worker
          // runs its files in one process sharing its modules, as the unit and server files do: a
          // new process per file imported Playwright and vitest again (8 s of each file's start on
          // the loaded machine, before its first test).
          maxWorkers: 3,
          isolate: false,
        },
      },
      {
        test: {
          name: 'guide',
          // `npm run docs:screenshots`: docs/guide/img remade from the demo clinic (decision 1000).
          include: ['tests/e2e/guide-screenshots.test.ts'],
          ...inChromium,
        },
      },
    ],
  },
});
