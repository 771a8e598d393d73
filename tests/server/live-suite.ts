import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from './helpers';
import { demoDeviceWithKey } from './live-helpers';

/** What a live suite shares with its tests (filled in before the first test). */
export interface LiveSuite {
  server: TestServer;
  /** http://127.0.0.1:port of the listening server. */
  base: string;
  /** The demo physician's NCT0001 with a fresh key, and the physician's session token. */
  device: { deviceMasterId: number; key: string; token: string };
}

/** Registers a listening test server with the demo device keyed, closed after the suite. */
export function liveSuite(): LiveSuite {
  const suite = {} as LiveSuite;
  beforeAll(async () => {
    suite.server = await startTestServer();
    suite.base = await suite.server.app.listen({ port: 0, host: '127.0.0.1' });
    suite.device = await demoDeviceWithKey(suite.server);
  }, 60_000);
  afterAll(async () => suite.server?.close());
  return suite;
}
