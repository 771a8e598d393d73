import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readConfig } from '../../server/config';
import { openPglite } from '../../server/db/pglite';
import { openDatabase, prepare } from '../../server/start';
import { migrate } from '../../server/db/migrate';
import { withNewCluster } from '../pglite-cluster';
import { pgliteFrom } from './helpers';
import { nodeEntry } from '../server-bundle';

/** A data directory holding a copy of the run's new PGlite cluster (no initdb at start). */
const clustered = (dir: string) => withNewCluster(inject('pgliteClusterDir'), dir);

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm start`'s server entry with env and waits until it exits or prints that it runs. */
function runServer(env: Record<string, string>, untilRunning = false): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeEntry('main'), {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', WEB_ROOT: '/nonexistent', SEED_NIGHTS: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not finish: ${stdout}\n${stderr}`));
    }, 150_000);
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (untilRunning && stdout.includes('Nocturne is running')) child.kill('SIGTERM');
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

let tmp = '';
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'nocturne-start-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

const oneLine = (s: string) => s.trim().split('\n').filter(Boolean);

describe('start-up failures: one clear line and a non-zero exit', () => {
  it('port in use', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '0.0.0.0', () => r()));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const res = await runServer({ PORT: String(port), DATA_DIR: await clustered(path.join(tmp, 'port')) });
      expect(res.code).toBe(1);
      expect(oneLine(res.stderr)).toEqual([`Nocturne cannot start: Port ${port} is already in use. Stop the other server or set PORT to a free port.`]);
    } finally {
      blocker.close();
    }
  });

  it('database unreachable', async () => {
    const res = await runServer({ DATABASE_URL: 'postgres://nocturne:secret@127.0.0.1:1/nocturne', PORT: '0' });
    expect(res.code).toBe(1);
    const lines = oneLine(res.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Nocturne cannot start: Database unreachable at postgres:\/\/nocturne:\*\*\*@127\.0\.0\.1:1\/nocturne: .*ECONNREFUSED/);
    expect(lines[0]).not.toContain('secret');
  });

  it('data directory not writable', async () => {
    const file = path.join(tmp, 'a-file');
    await writeFile(file, 'not a directory');
    const res = await runServer({ DATA_DIR: path.join(file, 'data'), PORT: '0' });
    expect(res.code).toBe(1);
    expect(oneLine(res.stderr)).toEqual([`Nocturne cannot start: Data directory ${path.join(file, 'data')} is not writable (ENOTDIR). Set DATA_DIR to a writable directory.`]);
  });

  it('migration failed, leaving the database as it was', async () => {
    const dir = await clustered(path.join(tmp, 'broken'));
    // A table in the way of the first migration, as a hand-made change would leave it.
    const db = await openPglite(path.join(dir, 'pglite'));
    await db.exec('create table organisations (legacy text); insert into organisations values (\'keep me\')');
    await db.close();

    const res = await runServer({ DATA_DIR: dir, PORT: '0' });
    expect(res.code).toBe(1);
    const lines = oneLine(res.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Nocturne cannot start: migration 001_accounts\.sql failed: .*organisations.* already exists\. The database was left as it was before this migration\.$/);

    const after = await openPglite(path.join(dir, 'pglite'));
    try {
      expect(await after.query('select legacy from organisations')).toEqual([{ legacy: 'keep me' }]);
      expect(await after.query('select version from schema_migrations')).toEqual([]);
      expect(await after.query(`select 1 from information_schema.tables where table_name = 'users'`)).toEqual([]);
    } finally {
      await after.close();
    }
  });

  it('a second server on the same data directory', async () => {
    const dir = await clustered(path.join(tmp, 'shared'));
    const config = { ...readConfig({ DATA_DIR: dir }), webRoot: null };
    const first = await openDatabase(config);
    try {
      const res = await runServer({ DATA_DIR: dir, PORT: '0' });
      expect(res.code).toBe(1);
      expect(oneLine(res.stderr)[0]).toMatch(/is in use by another Nocturne server \(pid \d+\)/);
    } finally {
      await first.db.close();
      await first.release();
    }
  });
});

describe('first and second start', () => {
  it('seeds once and keeps every row on the next start', async () => {
    const dir = path.join(tmp, 'twice');
    const first = await runServer({ DATA_DIR: dir, PORT: '0' }, true);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Seeded the demo clinic');
    expect(first.stdout).toContain('physician@demo.nocturne.test');
    expect(first.stdout).toContain('"nocturne-demo"');

    const config = { ...readConfig({ DATA_DIR: dir }), webRoot: null };
    const opened = await openDatabase(config);
    const running = await prepare(config, opened.db, opened.release);
    expect(running.seeded).toBe(false);
    await running.db.query(`insert into organisations (name) values ('Added between starts')`);
    await running.close();

    const second = await runServer({ DATA_DIR: dir, PORT: '0' }, true);
    expect(second.code).toBe(0);
    expect(second.stdout).not.toContain('Seeded the demo clinic');
    const again = await openPglite(path.join(dir, 'pglite'));
    try {
      const [users] = await again.query<{ n: number }>("select count(*)::int as n from users where role <> 'system'");
      const [patients] = await again.query<{ n: number }>('select count(*)::int as n from patients');
      const orgs = await again.query<{ name: string }>('select name from organisations order by id');
      // The six demo accounts (physician, two annotators, admin, secondary, paid), each once.
      expect(users.n).toBe(6);
      expect(patients.n).toBe(5);
      expect(orgs.map((o) => o.name)).toEqual(['Nocturne Demo Sleep Clinic', 'Added between starts']);
    } finally {
      await again.close();
    }
    // Two server processes and one start in here, each making a database: minutes on a busy machine.
  }, 400_000);
});

describe('migrations', () => {
  it('refuse a migration file changed after it was applied', async () => {
    const dir = path.join(tmp, 'migs');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, '001_a.sql'), 'create table a (x int);');
    const db = await pgliteFrom();
    try {
      expect(await migrate(db, dir)).toEqual(['001_a.sql']);
      expect(await migrate(db, dir)).toEqual([]);
      await writeFile(path.join(dir, '001_a.sql'), 'create table a (x int, y int);');
      await expect(migrate(db, dir)).rejects.toThrow(/001_a\.sql failed: it was changed after it had been applied/);
      await writeFile(path.join(dir, '001_a.sql'), 'create table a (x int);');
      await writeFile(path.join(dir, '002_b.sql'), 'create table b (x int); insert into b values (1); select * from missing_table;');
      await expect(migrate(db, dir)).rejects.toThrow(/002_b\.sql failed: .*missing_table/);
      expect(await db.query(`select 1 from information_schema.tables where table_name = 'b'`)).toEqual([]);
    } finally {
      await db.close();
    }
  });
});

describe('stopping', () => {
  it('closes a keep-alive connection whose request was answered after the stop began, and stops without waiting for its timeout', async () => {
    const dir = path.join(tmp, 'stop');
    await clustered(dir);
    const config = { ...readConfig({ DATA_DIR: dir, SEED_NIGHTS: '0' }), webRoot: null };
    const opened = await openDatabase(config);
    const running = await prepare(config, opened.db, opened.release);
    await running.app.listen({ port: 0, host: '127.0.0.1' });
    const socket = net.connect((running.app.server.address() as AddressInfo).port, '127.0.0.1');
    await once(socket, 'connect');
    let response = '';
    socket.on('data', (c: Buffer) => (response += c.toString()));
    const closed = once(socket, 'close');
    // A browser's request whose body is still arriving when the server is told to stop.
    const body = JSON.stringify({ email: 'nobody@example.test', password: 'not-the-password' });
    const arrived = once(running.app.server, 'request');
    socket.write(`POST /api/v1/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
    // The server has the request (its headers parsed) and waits for the rest of the body.
    await arrived;
    const stopped = running.close();
    socket.write(body.slice(5));
    const began = Date.now();
    await closed;
    await stopped;
    // Answered, then closed: not left open for the keep-alive timeout (72 s), nor cut at the stop's grace (15 s).
    expect(response).toMatch(/^HTTP\/1\.1 [1-5]\d\d /);
    expect(Date.now() - began).toBeLessThan(5_000);
  }, 120_000);
});
