import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readConfig } from '../../server/config';
import { openDatabase, StartupError } from '../../server/start';
import { withNewCluster } from '../pglite-cluster';
import { nodeEntry } from '../server-bundle';

/** A data directory holding a copy of the run's new PGlite cluster (no initdb at start). */
const clustered = (dir: string) => withNewCluster(inject('pgliteClusterDir'), dir);

/** Issue 13 point 7: the embedded database's lock after a crash. */

let tmp = '';
const children: ChildProcess[] = [];
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'nocturne-lock-'));
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await rm(tmp, { recursive: true, force: true });
});

const startOf = async (pid: number) => {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
};
const sleeper = () => {
  const child = spawn('sleep', ['120'], { stdio: 'ignore' });
  children.push(child);
  return child.pid!;
};
const open = (dir: string) => openDatabase({ ...readConfig({ DATA_DIR: dir }), webRoot: null });

/** Starts server/main.ts on dir and resolves once it says it runs. */
function startServer(dir: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeEntry('main'), {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', WEB_ROOT: '/nonexistent', SEED_NIGHTS: '0', PORT: '0', DATA_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 60_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('Nocturne is running')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited ${code}: ${out}`));
    });
  });
}

describe('data directory lock', () => {
  it('takes over a lock whose pid now belongs to another process', async () => {
    const dir = await clustered(path.join(tmp, 'reused'));
    const pid = sleeper();
    // Recorded by a crashed server whose pid the sleeper got since: another start time.
    await writeFile(path.join(dir, 'nocturne.pid'), `${pid} 1`);
    const opened = await open(dir);
    try {
      expect((await readFile(path.join(dir, 'nocturne.pid'), 'utf8')).split(' ')[0]).toBe(String(process.pid));
    } finally {
      await opened.db.close();
      await opened.release();
    }
  });

  it('takes over a lock whose process is gone', async () => {
    const dir = await clustered(path.join(tmp, 'gone'));
    const child = spawn('true');
    await new Promise((r) => child.on('exit', r));
    await writeFile(path.join(dir, 'nocturne.pid'), `${child.pid} 12345`);
    const opened = await open(dir);
    await opened.db.close();
    await opened.release();
  });

  it('refuses while the recorded process is still the one that took the lock', async () => {
    const dir = await clustered(path.join(tmp, 'live'));
    const pid = sleeper();
    await writeFile(path.join(dir, 'nocturne.pid'), `${pid} ${await startOf(pid)}`);
    const err = await open(dir).then(() => null, (e: Error) => e);
    expect(err).toBeInstanceOf(StartupError);
    expect(err!.message).toContain(`in use by another Nocturne server (pid ${pid})`);
  });

  it('a server killed with SIGKILL can be started again at once on the same directory', async () => {
    const dir = await clustered(path.join(tmp, 'killed'));
    const first = await startServer(dir);
    const exited = new Promise((r) => first.once('exit', r));
    first.kill('SIGKILL');
    await exited;
    const lock = await readFile(path.join(dir, 'nocturne.pid'), 'utf8');
    expect(lock.split(' ')[0]).toBe(String(first.pid));
    const second = await startServer(dir);
    const stopped = new Promise((r) => second.once('exit', r));
    second.kill('SIGTERM');
    await stopped;
  }, 120_000);
});
