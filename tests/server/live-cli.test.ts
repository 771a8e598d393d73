import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, TEST_DB, type TestServer } from './helpers';
import { demoKeysFile, ensureDemoDeviceKeys } from '../../server/live/demo-keys';
import { DeviceClient } from '../../server/live/device-client';
import { FRAME_INTERVAL_MS } from '../../contract/live-protocol';
import { shortSource } from './live-helpers';
import { listChannels, loadSamples } from '../../server/recordings/store';
import { nodeEntry } from '../server-bundle';

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeEntry('cli/device'), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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

  it('ticks each device on its own phase: devices of one process do not all send in the same millisecond', () => {
    // The schedule itself, on a fake clock (a loaded machine delays real ticks, the PGlite
    // server shares this thread): the device's tick runs at its phase, then every interval.
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'Date'] });
    const ticks = new Map<string, number[]>();
    const spy = vi.spyOn(DeviceClient.prototype as unknown as { tick(): void }, 'tick').mockImplementation(function (this: { opts: { deviceId: string } }) {
      const list = ticks.get(this.opts.deviceId) ?? [];
      list.push(Date.now());
      ticks.set(this.opts.deviceId, list);
    });
    const t0 = Date.now();
    // A closed port: the devices never connect (their retries are on the fake clock too).
    const clients = [0, 50, 100, 150].map((phaseMs, i) => new DeviceClient({ server: 'http://127.0.0.1:9', deviceId: `D${i}`, key: 'k', source: shortSource('phase'), speed: 1, phaseMs }));
    try {
      for (const c of clients) c.start();
      vi.advanceTimersByTime(4 * FRAME_INTERVAL_MS);
      expect(clients.map((_, i) => ticks.get(`D${i}`)!.map((t) => t - t0))).toEqual([
        [200, 400, 600, 800],
        [250, 450, 650],
        [300, 500, 700],
        [350, 550, 750],
      ]);
    } finally {
      for (const c of clients) c.stop();
      spy.mockRestore();
      vi.useRealTimers();
    }
  });

  it('--devices N alone streams N demo devices from NCT0001 on, each night stored whole', async () => {
    const run = await runCli(['--devices', '2', '--speed', '300', '--minutes', '10', '--server', base], { DATA_DIR: dataDir });
    expect(run.out).toContain('Streaming 2 devices');
    expect(run.out).toContain('every frame was acknowledged');
    expect(run.code).toBe(0);
    const totals = await server.db.query<{ device_id: string; ok: boolean }>(
      "select d.device_id, t.frames = t.last_seq - t.first_seq + 1 as ok from live_frame_totals t join devices d using (device_master_id) where d.device_id in ('NCT0001', 'NCT0002') order by d.device_id, t.recording_id desc",
    );
    expect(new Set(totals.map((t) => t.device_id))).toEqual(new Set(['NCT0001', 'NCT0002']));
    expect(totals.every((t) => t.ok)).toBe(true);
    // A few devices stream nights of their own: their tiles show different people, not one night twice.
    const samplesOf = async (deviceId: string) => {
      const [rec] = await server.db.query<{ id: number }>("select id from recordings where device_id = $1 and source = 'device' order by id desc limit 1", [deviceId]);
      const [channel] = await listChannels(server.db, [rec!.id], ['Y_DIST']);
      return Array.from(await loadSamples(server.db, channel!));
    };
    const [one, two] = [await samplesOf('NCT0001'), await samplesOf('NCT0002')];
    expect(one.length).toBe(two.length);
    expect(one).not.toEqual(two);
  }, 120_000);

  it('explains a missing key and a bad option', async () => {
    const missing = await runCli(['--device', 'NCT0009', '--server', base, '--minutes', '10'], { DATA_DIR: dataDir });
    expect(missing.code).toBe(2);
    expect(missing.out).toContain('no key for NCT0009');
    const bad = await runCli(['--device', 'NCT0001', '--speed', 'fast'], { DATA_DIR: dataDir });
    expect(bad.code).toBe(2);
    expect(bad.out).toContain('--speed must be a number');
    // A key the server does not know: refused, said in one line (no stack trace), exit 1.
    const wrong = await runCli(['--device', 'NCT0001', '--key', 'ndk_not-a-key', '--server', base, '--minutes', '10'], { DATA_DIR: dataDir });
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(/npm run device failed: every device was refused \(NCT0001: \w+_key/);
    expect(wrong.out).not.toMatch(/\n\s+at /);
    const none = await runCli([], { DATA_DIR: dataDir });
    expect(none.code).toBe(2);
    expect(none.out).toContain('--device is required (or --devices N, which starts at NCT0001)');
  }, 60_000);
});
