import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { withNewCluster } from '../pglite-cluster';
import { createSchema, dropSchema } from './helpers';
import type { Db } from '../../server/db/adapter';
import { openPglite } from '../../server/db/pglite';
import { openPostgres } from '../../server/db/postgres';
import { nodeEntry } from '../server-bundle';

/** A free TCP port on loopback (so a restarted server can come back on the same one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A real `server/main.ts` process; resolves once it listens. */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: string[];
}

export async function startServerProcess(env: Record<string, string>, port: number): Promise<ServerProcess> {
  const child = spawn(process.execPath, nodeEntry('main'), {
    env: { ...process.env, SEED_NIGHTS: '0', WEB_ROOT: '/nonexistent', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${output.join('')}`)), 60_000);
    const onData = (d: Buffer) => {
      output.push(d.toString());
      if (/Nocturne is running/.test(output.join(''))) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${output.join('')}`));
    });
  });
  child.removeAllListeners('exit');
  return { child, url: `http://127.0.0.1:${port}`, output };
}

/** Kills a server as a crash would (SIGKILL) and waits for it to be gone. */
export async function killHard(p: ServerProcess): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    p.child.once('exit', () => resolve());
    p.child.kill('SIGKILL');
  });
}

/** A database for server processes: a schema of its own in the test PostgreSQL, or a PGlite directory. */
export interface SharedDb {
  env: Record<string, string>;
  /** Opens the test's own connection (for PGlite only while no server runs on the directory). */
  open(): Promise<Db>;
  drop(): Promise<void>;
}

/** `clusterDir`: a new PGlite cluster to copy (tests/pglite-cluster.ts) instead of the first server's initdb. */
export async function sharedDb(kind: 'pglite' | 'postgres', dataDir: string, url = process.env.TEST_DATABASE_URL, clusterDir?: string): Promise<SharedDb> {
  if (kind === 'pglite') {
    if (clusterDir) await withNewCluster(clusterDir, dataDir);
    return { env: { DATA_DIR: dataDir }, open: () => openPglite(`${dataDir}/pglite`), drop: async () => undefined };
  }
  if (!url) throw new Error('NOCTURNE_TEST_DB=postgres needs TEST_DATABASE_URL');
  const schema = await createSchema(url);
  return {
    env: { DATABASE_URL: `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`, DATA_DIR: dataDir },
    open: () => openPostgres({ url, schema }),
    drop: () => dropSchema(url, schema),
  };
}

/** Stops a server as Ctrl + C would and waits for it to exit. */
export async function stopGracefully(p: ServerProcess): Promise<void> {
  const exited = new Promise((resolve) => p.child.once('exit', resolve));
  p.child.kill('SIGTERM');
  await exited;
}

async function json(url: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<{ status: number; body: { data?: Record<string, unknown> } & Record<string, unknown> }> {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown> } };
}

/** Signs in over HTTP as a user would (password, then the one-time code from the dev outbox). */
export async function signInHttp(base: string, email: string, password: string): Promise<string> {
  const login = await json(`${base}/api/v1/login`, { method: 'POST', body: { email, password } });
  if (login.status !== 200) throw new Error(`login ${login.status}`);
  const outbox = await json(`${base}/api/v1/dev/outbox?email=${encodeURIComponent(email)}`);
  const code = (outbox.body.data!.messages as { code: string | null }[]).find((m) => m.code)!.code;
  const verified = await json(`${base}/api/v1/verify-otp`, { method: 'POST', body: { email, otp: code } });
  return verified.body.data!.token as string;
}

/** Issues a device key over HTTP as the physician would in Device Config. */
export async function issueKeyHttp(base: string, token: string, deviceId: string): Promise<string> {
  const state = await json(`${base}/api/v1/device/real-time/did=${deviceId}`, { token });
  const deviceMasterId = (state.body.data as unknown as { device_master_id: number }[])[0]!.device_master_id;
  const issued = await json(`${base}/api/v1/device/keys/issue`, { method: 'POST', token, body: { device_master_id: deviceMasterId } });
  if (issued.status !== 201) throw new Error(`issue ${issued.status}`);
  return issued.body.data!.key as string;
}
