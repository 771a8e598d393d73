import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './helpers';
import { until } from './live-helpers';
import { freePort, killHard, signInHttp, startServerProcess, stopGracefully, type ServerProcess } from './live-processes';

/** Issue 33 point 6: uploads stream to a private folder; after kill -9 mid-upload and a restart, no patient file is left. */

const scratch: string[] = [];
let running: ServerProcess | null = null;
afterAll(async () => {
  if (running) await stopGracefully(running);
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

/** Every file (not folder) under dir, with its path. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) out.push(path.join(entry.parentPath, entry.name));
  return out;
}

describe('upload temp files', () => {
  it('kill -9 during an upload leaves a file in the private folder; the next start sweeps it', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'nocturne-uptmp-data-'));
    const uploads = await mkdtemp(path.join(tmpdir(), 'nocturne-uptmp-'));
    scratch.push(dataDir, uploads);
    const env = { DATA_DIR: dataDir, UPLOAD_TMP_DIR: uploads };
    const port = await freePort();
    running = await startServerProcess(env, port);
    const token = await signInHttp(running.url, DEMO_ACCOUNTS.physician, DEMO_PASSWORD);
    expect((await stat(uploads)).mode & 0o777).toBe(0o700);

    // An upload that sends its headers and the first megabyte of a file, then waits.
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/v1/patient/upload-recording HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 50000000\r\n\r\n` +
        '--b\r\nContent-Disposition: form-data; name="files"; filename="night.edf"\r\nContent-Type: application/octet-stream\r\n\r\n',
    );
    socket.write(Buffer.alloc(1 << 20, 0x20));
    await until(async () => (await filesUnder(uploads)).length > 0, 20_000, 'the upload to reach the temp folder');
    await killHard(running);
    running = null;
    socket.destroy();
    expect((await filesUnder(uploads)).length).toBeGreaterThan(0);

    running = await startServerProcess(env, port);
    expect(await filesUnder(uploads)).toEqual([]);
  }, 180_000);
});
