import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import type { Db, Queryable } from '../db/adapter';

/**
 * Device keys: 24 random bytes, shown once, stored as scrypt hashes. A key is random, not
 * chosen by a person, so the hash guards a leaked table rather than slowing guessing: a
 * lighter cost than passwords' (N = 1024), so a reconnect storm of 1,000 devices costs
 * seconds, not minutes. A process remembers keys it verified (by SHA-256) so a reconnect
 * skips scrypt; the row is read every time, so a revocation takes effect at once everywhere.
 */
const PARAMS = { N: 1024, r: 8, p: 1 } as const;
/** NOTIFY channel: "the keys of device m changed" (payload m); every process drops its connection. */
const KEYS_CHANNEL = 'nocturne_device_keys';

/** Tells every server process that a device's keys changed (issued or revoked). */
export function announceKeysChanged(db: Db, deviceMasterId: number): Promise<void> {
  return db.notify(KEYS_CHANNEL, String(deviceMasterId));
}

/** Calls `onChange` with the device whenever its keys change, on any process; resolves to a function that stops listening. */
export function onKeysChanged(db: Db, onChange: (deviceMasterId: number) => void): Promise<() => Promise<void>> {
  return db.listen(KEYS_CHANNEL, (payload) => onChange(Number(payload)));
}
const KEY_BYTES = 24;
const PREFIX_CHARS = 12;
const KEY_PREFIX = 'ndk_';

function scrypt(key: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => scryptCb(key, salt, 32, PARAMS, (err, out) => (err ? reject(err) : resolve(out))));
}

async function hashKey(key: string): Promise<string> {
  const salt = randomBytes(16);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), (await scrypt(key, salt)).toString('base64')].join('$');
}

async function keyMatches(key: string, stored: string): Promise<boolean> {
  const [, , , , salt, hash] = stored.split('$');
  if (!salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const got = await scrypt(key, Buffer.from(salt, 'base64'));
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/** A new key for a device; earlier keys of the device are revoked. Returns the key (shown once). */
export async function issueDeviceKey(db: Db, deviceMasterId: number, userId: number | null): Promise<{ key: string; keyPrefix: string }> {
  const key = KEY_PREFIX + randomBytes(KEY_BYTES).toString('base64url');
  const keyPrefix = key.slice(0, PREFIX_CHARS);
  const hash = await hashKey(key);
  await db.transaction(async (tx) => {
    await revokeIn(tx, deviceMasterId, userId);
    await tx.query('insert into device_keys (device_master_id, key_prefix, key_hash, created_by) values ($1, $2, $3, $4)', [deviceMasterId, keyPrefix, hash, userId]);
  });
  return { key, keyPrefix };
}

async function revokeIn(tx: Queryable, deviceMasterId: number, userId: number | null): Promise<number> {
  const rows = await tx.query('update device_keys set revoked_at = now(), revoked_by = $2 where device_master_id = $1 and revoked_at is null returning id', [deviceMasterId, userId]);
  return rows.length;
}

/** Revokes every active key of a device; returns how many. */
export function revokeDeviceKeys(db: Queryable, deviceMasterId: number, userId: number | null): Promise<number> {
  return revokeIn(db, deviceMasterId, userId);
}

export interface KeyListItem {
  key_prefix: string;
  created_at: string;
  revoked_at: string | null;
}

/** A device's keys, newest first, without their hashes. */
export function listDeviceKeys(db: Queryable, deviceMasterId: number): Promise<KeyListItem[]> {
  return db.query<KeyListItem>('select key_prefix, created_at, revoked_at from device_keys where device_master_id = $1 order by id desc', [deviceMasterId]);
}

export interface AuthenticDevice {
  deviceMasterId: number;
  deviceId: string;
  physicianId: number | null;
}

export type KeyCheck = { ok: true; device: AuthenticDevice } | { ok: false; code: 'unknown_key' | 'revoked_key' };

/** Keys this process verified: SHA-256 of (key id, key). */
const verified = new Set<string>();
const fingerprint = (keyId: number, key: string) => createHash('sha256').update(`${keyId}:${key}`).digest('base64');

/** Checks a device's key: ok with the device, or why it is refused. */
export async function checkDeviceKey(db: Queryable, deviceId: string, key: string): Promise<KeyCheck> {
  const rows = await db.query<{ id: number; device_master_id: number; physician_id: number | null; key_hash: string; revoked: boolean }>(
    `select k.id, d.device_master_id, d.physician_id, k.key_hash, k.revoked_at is not null as revoked
     from devices d join device_keys k on k.device_master_id = d.device_master_id
     where d.device_id = $1 and k.key_prefix = $2 order by k.revoked_at is not null, k.id desc`,
    [deviceId, key.slice(0, PREFIX_CHARS)],
  );
  for (const r of rows) {
    const fp = fingerprint(r.id, key);
    if (!verified.has(fp)) {
      if (!(await keyMatches(key, r.key_hash))) continue;
      verified.add(fp);
    }
    if (r.revoked) return { ok: false, code: 'revoked_key' };
    return { ok: true, device: { deviceMasterId: r.device_master_id, deviceId, physicianId: r.physician_id } };
  }
  if (rows.length === 0) await keyMatches(key, `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(32).toString('base64')}`);
  return { ok: false, code: 'unknown_key' };
}
