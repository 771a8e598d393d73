import type { LaunchOptions } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** How the tests' and the benchmarks' Chromium is started (see harness.ts launchChromium). */
export function chromiumOptions(compositing: 'software' | 'gpu' = 'software'): LaunchOptions {
  return {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      ...(compositing === 'software' ? ['--disable-gpu-compositing'] : []),
    ],
  };
}
