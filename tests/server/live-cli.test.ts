import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_DB, type TestServer } from './helpers';
import { demoKeysFile, ensureDemoDeviceKeys } from '../../server/live/demo-keys';
import { DeviceClient } from '../../server/live/device-client';
import { FRAME_INTERVAL_MS } from '../../server/live/protocol';
import { shortSource } from './live-helpers';

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/device.ts', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/** `npm run device` as a user runs it next to a development server: the demo key from DATA_DIR. */
describe(`npm run device (${TEST_DB})`, () => {
  let server: TestServer;
  let base: string;
  let dataDir: string;
  beforeAll(async () => {
    server = await startTestServer();
    base = await server.app.listen({ port: 0, host: '127.0.0.1' });
    dataDir = await mkdtemp(path.join(tmpdir(), 'nocturne-keys-'));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('streams a night with the demo key the server wrote, and every frame is stored', async () => {
    expect(await ensureDemoDeviceKeys(server.db, demoKeysFile(dataDir))).toBe(6);
    // A second start keeps the keys that still work.
    expect(await ensureDemoDeviceKeys(server.db, demoKeysFile(dataDir))).toBe(0);
    expect((await stat(demoKeysFile(dataDir))).mode & 0o777).toBe(0o600);
    const keys = JSON.parse(await readFile(demoKeysFile(dataDir), 'utf8')) as Record<string, string>;
    const [stored] = await server.db.query<{ key_hash: string }>("select key_hash from device_keys k join devices d using (device_master_id) where d.device_id = 'NCT0001' and k.revoked_at is null");
    expect(stored.key_hash).toMatch(/^scrypt\$/);
    expect(stored.key_hash).not.toContain(keys.NCT0001);

    const run = await runCli(['--device', 'NCT0001', '--speed', '300', '--minutes', '10', '--server', base], { DATA_DIR: dataDir });
    expect(run.out).toContain('every frame was acknowledged');
    expect(run.code).toBe(0);
    const [{ n, max }] = await server.db.query<{ n: number; max: number }>("select t.frames as n, t.last_seq::int as max from live_frame_totals t join devices d using (device_master_id) where d.device_id = 'NCT0001'");
    expect(n).toBe(max + 1);
    const [hr] = await server.db.query<{ sample_count: number }>("select c.sample_count from recording_channels c join recordings r on r.id = c.recording_id where r.device_id = 'NCT0001' and r.source = 'device' and c.code = 'HR'");
    expect(hr.sample_count).toBe(600);
  }, 120_000);

  it('ticks each device on its own phase: devices of one process do not all send in the same millisecond', async () => {
    const keys = JSON.parse(await readFile(demoKeysFile(dataDir), 'utf8')) as Record<string, string>;
    const phases = { NCT0002: 0, NCT0003: 100 };
    const clients = Object.entries(phases).map(([deviceId, phaseMs]) => new DeviceClient({ server: base, deviceId, key: keys[deviceId]!, source: shortSource(deviceId), speed: 1, phaseMs }));
    for (const c of clients) c.start();
    try {
      await expect.poll(() => Math.min(...clients.map((c) => c.ackMs.length)), { timeout: 20_000 }).toBeGreaterThanOrEqual(6);
    } finally {
      for (const c of clients) c.stop();
    }
    const rows = await server.db.query<{ device_id: string; sent_ms: string }>(
      "select d.device_id, f.sent_ms from live_frames f join devices d using (device_master_id) where d.device_id in ('NCT0002', 'NCT0003') order by f.seq",
    );
    // Each device's frames keep their phase (sent time modulo the interval, as a median), and the two differ by the 100 ms asked.
    const phaseOf = (id: string) => {
      const sent = rows.filter((r) => r.device_id === id).map((r) => Number(r.sent_ms));
      const offsets = sent.map((t) => (((t - sent[0]!) % FRAME_INTERVAL_MS) + FRAME_INTERVAL_MS) % FRAME_INTERVAL_MS).map((o) => (o > FRAME_INTERVAL_MS / 2 ? o - FRAME_INTERVAL_MS : o));
      expect(offsets.length).toBeGreaterThanOrEqual(6);
      for (const o of offsets) expect(Math.abs(o)).toBeLessThan(30);
      return sent[0]! % FRAME_INTERVAL_MS;
    };
    const apart = (((phaseOf('NCT0003') - phaseOf('NCT0002')) % FRAME_INTERVAL_MS) + FRAME_INTERVAL_MS) % FRAME_INTERVAL_MS;
    expect(Math.abs(apart - 100)).toBeLessThan(30);
  }, 60_000);

  it('explains a missing key and a bad option', async () => {
    const missing = await runCli(['--device', 'NCT0009', '--server', base, '--minutes', '10'], { DATA_DIR: dataDir });
    expect(missing.code).toBe(2);
    expect(missing.out).toContain('no key for NCT0009');
    const bad = await runCli(['--device', 'NCT0001', '--speed', 'fast'], { DATA_DIR: dataDir });
    expect(bad.code).toBe(2);
    expect(bad.out).toContain('--speed must be a number');
  }, 60_000);
});
