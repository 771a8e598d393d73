import type { Queryable } from '../db/adapter';
import type { Static } from '@sinclair/typebox';
import type { ConfigChange, DeviceConfig } from '../../contract/live';
import { LIVE_CHANNELS } from '../../contract/live-protocol';

// A device's configuration: its schema and type are contract/live.ts's (the route's body schema).
export type { DeviceConfig };

/** Rates a channel may be set to (Hz): the vitals at 1 Hz, the raw radar channels at 10–50 Hz. */
export const CHANNEL_RATES: Record<string, number[]> = Object.fromEntries(
  Object.entries(LIVE_CHANNELS).map(([code, spec]) => [code, spec.rate === 1 ? [1] : [10, 20, 25, 50]]),
);

/**
 * A new device's configuration before anyone changed it (the simulated device runs it until
 * it applies another): every radar channel at its native rate, I/Q included, as it streams.
 */
export const DEFAULT_CONFIG: DeviceConfig = {
  recording_window: { start: '21:00', stop: '07:00', timezone: 'UTC' },
  channels: Object.fromEntries(Object.entries(LIVE_CHANNELS).map(([code, spec]) => [code, spec.rate])),
  radar: { range_m: 2.5, sensitivity: 5 },
  live_streaming: true,
};

/** A recording window: start and stop as HH:MM in a time zone. */
export type RecordingWindow = DeviceConfig['recording_window'];

/**
 * The configuration a device runs before anyone changed it, with the practice's recording
 * window (its allocation's, else the physician's, in the practice's zone) instead of the
 * factory one, so Device Config shows and compares against the hours the practice records.
 */
export function defaultConfigFor(window: RecordingWindow | null): DeviceConfig {
  return window ? { ...DEFAULT_CONFIG, recording_window: window } : DEFAULT_CONFIG;
}

/** 'HH:MM:SS' or 'HH:MM' as stored for windows → 'HH:MM'; null when it is neither. */
function hhmm(time: string | null | undefined): string | null {
  const m = /^(\d{2}):(\d{2})(:\d{2})?$/.exec(time ?? '');
  return m ? `${m[1]}:${m[2]}` : null;
}

/** A window from stored times and a zone, or null when a part is missing, invalid or the window empty. */
export function windowOf(start: string | null | undefined, stop: string | null | undefined, timezone: string | null | undefined): RecordingWindow | null {
  const a = hhmm(start);
  const b = hhmm(stop);
  if (!a || !b || a === b || !timezone || !isTimeZone(timezone)) return null;
  return { start: a, stop: b, timezone };
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A refusal of what the schema cannot say: the message, the value's path in the request body and the rule. */
interface ConfigProblem {
  message: string;
  path: string;
  rule: 'timezone' | 'empty_window' | 'channel_rate';
}

/** What the schema cannot say about a configuration; null when it is fine. */
export function configProblem(config: DeviceConfig): ConfigProblem | null {
  const w = config.recording_window;
  if (!isTimeZone(w.timezone)) return { message: `recording_window.timezone "${w.timezone}" is not a time zone (e.g. Europe/Zurich).`, path: '/config/recording_window/timezone', rule: 'timezone' };
  if (w.start === w.stop) return { message: 'recording_window.start and recording_window.stop are the same time: the window would be empty.', path: '/config/recording_window/stop', rule: 'empty_window' };
  for (const [code, rate] of Object.entries(config.channels)) {
    const allowed = CHANNEL_RATES[code]!;
    if (!allowed.includes(rate)) return { message: `channels.${code} must be one of ${allowed.join(', ')} Hz, got ${rate}.`, path: `/config/channels/${code}`, rule: 'channel_rate' };
  }
  return null;
}

/** One field changed, as contract/live.ts ConfigChange answers it. */
type ConfigChange = Static<typeof ConfigChange>;
type ConfigValue = ConfigChange['from'];

/** A configuration's leaves by path: its values are strings, numbers and flags (the body schema allows no others). */
function flatten(value: unknown, prefix = '', out = new Map<string, ConfigValue>()): Map<string, ConfigValue> {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else out.set(prefix, value as ConfigValue);
  return out;
}

/** Field by field what changed from one configuration to the next (a channel turned off: to null). */
function configChanges(before: DeviceConfig, after: DeviceConfig): ConfigChange[] {
  const a = flatten(before);
  const b = flatten(after);
  const fields = [...new Set([...a.keys(), ...b.keys()])].sort();
  return fields.filter((f) => a.get(f) !== b.get(f)).map((f) => ({ field: f, from: a.get(f) ?? null, to: b.get(f) ?? null }));
}

type ConfigStatus = 'pending' | 'applied' | 'refused';

export interface ConfigVersion {
  device_master_id: number;
  version: number;
  config: DeviceConfig;
  changes: ConfigChange[];
  created_by: number | null;
  created_by_name: string | null;
  created_at: string;
  status: ConfigStatus;
  status_reason: string | null;
  status_at: string | null;
}

const VERSION_SELECT = `select c.device_master_id, c.version, c.config, c.changes, c.created_by, nullif(trim(concat(u.first_name, ' ', u.last_name)), '') as created_by_name,
  c.created_at, c.status, c.status_reason, c.status_at from device_configs c left join users u on u.id = c.created_by`;

/** Every version of the devices' configurations, newest first. */
export function configHistory(db: Queryable, deviceMasterIds: readonly number[]): Promise<ConfigVersion[]> {
  return db.query<ConfigVersion>(`${VERSION_SELECT} where c.device_master_id = any($1::int[]) order by c.device_master_id, c.version desc`, [deviceMasterIds]);
}

/** The newest version of a device's configuration, or null (it runs the default). */
async function latestConfig(db: Queryable, deviceMasterId: number): Promise<ConfigVersion | null> {
  const [row] = await db.query<ConfigVersion>(`${VERSION_SELECT} where c.device_master_id = $1 order by c.version desc limit 1`, [deviceMasterId]);
  return row ?? null;
}

/** The newest version the device did not refuse (pending or applied), or null (it runs the default). */
export async function currentConfig(db: Queryable, deviceMasterId: number): Promise<ConfigVersion | null> {
  const [row] = await db.query<ConfigVersion>(`${VERSION_SELECT} where c.device_master_id = $1 and c.status <> 'refused' order by c.version desc limit 1`, [deviceMasterId]);
  return row ?? null;
}

/** Stores a new version (pending until the device acknowledges it); null when nothing changed. */
export async function saveConfig(db: Queryable, deviceMasterId: number, config: DeviceConfig, userId: number, practiceDefault: DeviceConfig = DEFAULT_CONFIG): Promise<ConfigVersion | null> {
  const latest = await latestConfig(db, deviceMasterId);
  const changes = configChanges(latest?.config ?? practiceDefault, config);
  if (changes.length === 0) return null;
  await db.query(
    `insert into device_configs (device_master_id, version, config, changes, created_by) values ($1, $2, $3, $4, $5)`,
    [deviceMasterId, (latest?.version ?? 0) + 1, JSON.stringify(config), JSON.stringify(changes), userId],
  );
  return latestConfig(db, deviceMasterId);
}

/** Records a device's answer to a version it was sent (only a pending version changes). */
export async function recordConfigAck(db: Queryable, deviceMasterId: number, version: number, applied: boolean, reason: string | null): Promise<boolean> {
  const rows = await db.query(
    `update device_configs set status = $3, status_reason = $4, status_at = now() where device_master_id = $1 and version = $2 and status = 'pending' returning id`,
    [deviceMasterId, version, applied ? 'applied' : 'refused', reason?.slice(0, 500) ?? null],
  );
  return rows.length > 0;
}
