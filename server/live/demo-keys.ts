import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/adapter';
import { DEMO_ACCOUNTS } from '../seed';
import { checkDeviceKey, issueDeviceKey } from './keys';

/** Where a development server leaves the demo devices' keys for `npm run device`. */
export const demoKeysFile = (dataDir: string) => path.join(dataDir, 'device-keys.json');

type KeyFile = Record<string, string>;

async function readKeys(file: string): Promise<KeyFile> {
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return '{}';
    throw err;
  });
  const parsed: unknown = JSON.parse(text);
  return parsed && typeof parsed === 'object' ? (parsed as KeyFile) : {};
}

/**
 * Gives every demo device a key the device CLI can read (development only: the caller never
 * runs this in production). A key already in the file that still works is kept; otherwise a
 * new one is issued (revoking the old) and written. Returns how many were issued.
 */
export async function ensureDemoDeviceKeys(db: Db, file: string): Promise<number> {
  const keys = await readKeys(file);
  const devices = await db.query<{ device_master_id: number; device_id: string }>(
    'select d.device_master_id, d.device_id from devices d join users u on u.id = d.physician_id where u.email = $1 order by d.device_id',
    [DEMO_ACCOUNTS.physician],
  );
  let issued = 0;
  for (const d of devices) {
    const known = keys[d.device_id];
    if (known && (await checkDeviceKey(db, d.device_id, known)).ok) continue;
    keys[d.device_id] = (await issueDeviceKey(db, d.device_master_id, null)).key;
    issued++;
  }
  if (issued) await mkdir(path.dirname(file), { recursive: true });
  if (issued) await writeFile(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  return issued;
}

/** The demo key of a device from a development server's data directory, or null. */
export async function readDemoKey(dataDir: string, deviceId: string): Promise<string | null> {
  return (await readKeys(demoKeysFile(dataDir)))[deviceId] ?? null;
}
