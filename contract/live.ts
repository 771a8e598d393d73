/**
 * Request and answer schemas of the live screens (issue 15): device keys, the devices' real-time state and
 * frame counts, Device Config and the real-time dashboard's layout. The channel list comes from
 * contract/live-protocol.ts, a module without imports that the browser reads too.
 */
import { Type, type Static } from '@sinclair/typebox';
import { LIVE_CHANNELS } from './live-protocol';
import { id, instant, instantMs, Nullable, Strict, StringEnum } from './common';

/** Tiles of one dashboard layout at most. */
const MAX_LAYOUT_ITEMS = 200;

/** GET /device/real-time/did=:did and /device/real-time-validation/did=:did: a device's serial, or 0 for all of the practice's. */
export const DidParams = Type.Object({ did: Type.String({ pattern: '^\\w{1,40}$' }) });

/** Their filters: the patient, a time range (seconds or ms since 1970) and physicians' ids, comma-separated. */
export const RangeQuery = Type.Object({
  pid: Type.Optional(id),
  start_time: Type.Optional(instant),
  end_time: Type.Optional(instant),
  user_ids: Type.Optional(Type.String({ pattern: '^\\d+(,\\d+)*$', maxLength: 2000 })),
});
export type RangeQuery = Static<typeof RangeQuery>;

/** POST /device/keys/issue, /device/keys/revoke and /device/keys: the device. */
export const DeviceKeysBody = Strict({ device_master_id: id });
export type DeviceKeysBody = Static<typeof DeviceKeysBody>;

/** A time of day, HH:mm. */
const clockTime = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' });

/**
 * A device's configuration (Device Config, issue 15 point 6): when it records, which channels at
 * which rates (Hz; a channel left out is not recorded), the radar's range (m) and sensitivity,
 * and whether it streams live. A wrong field is refused with its path named
 * (`body/config/radar/range_m must be <= 6`); server/live/device-config.ts configProblem adds the
 * checks a schema cannot say (a real time zone, a window that is not empty, a known rate per channel).
 */
export const DeviceConfig = Strict({
  recording_window: Strict({ start: clockTime, stop: clockTime, timezone: Type.String({ minLength: 1, maxLength: 64 }) }),
  channels: Type.Unsafe<Record<string, number>>({
    type: 'object',
    minProperties: 1,
    additionalProperties: false,
    properties: Object.fromEntries(Object.keys(LIVE_CHANNELS).map((code) => [code, { type: 'number' }])),
  }),
  radar: Strict({ range_m: Type.Number({ minimum: 0.3, maximum: 6 }), sensitivity: Type.Integer({ minimum: 1, maximum: 10 }) }),
  live_streaming: Type.Boolean(),
});
export type DeviceConfig = Static<typeof DeviceConfig>;

/** POST /datahub/update_device_config. */
export const UpdateDeviceConfigBody = Strict({ device_master_id: id, config: DeviceConfig });
export type UpdateDeviceConfigBody = Static<typeof UpdateDeviceConfigBody>;

/** One tile of the real-time dashboard: the device it shows and its cell in the grid. */
export const TileLayout = Strict({
  i: Type.String({ pattern: '^\\w{1,40}$' }),
  x: Type.Integer({ minimum: 0, maximum: 100 }),
  y: Type.Integer({ minimum: 0, maximum: 10_000 }),
  w: Type.Integer({ minimum: 1, maximum: 100 }),
  h: Type.Integer({ minimum: 1, maximum: 100 }),
});

/** POST /physician/realtime-layout: the caller's dashboard layout, saved as sent. */
export const LayoutBody = Strict({ layout: Type.Array(TileLayout, { maxItems: MAX_LAYOUT_ITEMS }) });
export type LayoutBody = Static<typeof LayoutBody>;
export type TileLayout = Static<typeof TileLayout>;

// Answers.
const Str = Type.String();
const Int = Type.Integer();
const When = Type.String();

/** A device's live state (contract/live-protocol.ts liveState). */
export const DeviceLiveState = StringEnum(['streaming', 'stalled', 'offline']);

/** A device key as lists show it: its first characters, never the key. */
export const DeviceKey = Type.Object({ key_prefix: Str, created_at: When, revoked_at: Nullable(When) });
export type DeviceKey = Static<typeof DeviceKey>;

/** POST /device/keys/issue: the new key, shown this once. */
export const IssuedKey = Type.Object({ device_id: Str, key: Str, key_prefix: Str });
export type IssuedKey = Static<typeof IssuedKey>;

/** POST /device/keys/revoke: how many keys were revoked. */
export const RevokedKeys = Type.Object({ device_id: Str, revoked: Int });

/** POST /device/keys: the device's keys, newest first. */
export const DeviceKeys = Type.Object({ device_id: Str, keys: Type.Array(DeviceKey) });

/** A device of the practice with its live state (GET /device/real-time/did=:did). */
export const RealTimeDevice = Type.Object({
  device_id: Str,
  device_master_id: Int,
  patient_id: Nullable(Int),
  patient_code: Nullable(Str),
  recording_id: Nullable(Int),
  state: DeviceLiveState,
  /** -1 before its first frame. */
  last_seq: Int,
  last_frame_time: Nullable(instantMs),
  session_start_time: Nullable(instantMs),
});
export type RealTimeDevice = Static<typeof RealTimeDevice>;

/** Frames committed of one live recording (GET /device/real-time-validation/did=:did). */
export const FrameCount = Type.Object({
  device_id: Str,
  recording_id: Int,
  frames: Int,
  first_seq: Int,
  last_seq: Int,
  missing_frames: Int,
  first_frame_time: instantMs,
  last_frame_time: instantMs,
});

/** Where a configuration version stands: sent and waiting, applied by the device, or refused by it. */
export const ConfigStatus = StringEnum(['pending', 'applied', 'refused']);
export type ConfigStatus = Static<typeof ConfigStatus>;

/** A leaf of a configuration (a rate, a time, a flag); null where a channel was turned on or off. */
const ConfigValue = Type.Union([Str, Type.Number(), Type.Boolean(), Type.Null()]);

/** One field changed from one version to the next ('radar.range_m', 2.5 → 3). */
export const ConfigChange = Type.Object({ field: Str, from: ConfigValue, to: ConfigValue });

/** A saved version of a device's configuration, without the configuration itself. */
export const ConfigVersion = Type.Object({
  version: Int,
  changes: Type.Array(ConfigChange),
  created_by: Nullable(Int),
  created_by_name: Nullable(Str),
  created_at: When,
  status: ConfigStatus,
  status_reason: Nullable(Str),
  status_at: Nullable(When),
});
export type ConfigVersion = Static<typeof ConfigVersion>;

/** A device of the practice in Device Config: its configuration (the practice's default before a first version), history and keys. */
export const DeviceConfigRow = Type.Object({
  device_master_id: Int,
  device_id: Str,
  patient_id: Nullable(Int),
  patient_code: Nullable(Str),
  state: DeviceLiveState,
  config: DeviceConfig,
  /** 0 before a first saved version. */
  version: Int,
  status: Nullable(ConfigStatus),
  status_reason: Nullable(Str),
  history: Type.Array(ConfigVersion),
  keys: Type.Array(DeviceKey),
});
export type DeviceConfigRow = Static<typeof DeviceConfigRow>;

/** GET /datahub/get_physician_devices_config: the devices and the rates (Hz) each channel may be set to. */
export const DevicesConfigAnswer = Type.Object({ devices: Type.Array(DeviceConfigRow), channel_rates: Type.Record(Str, Type.Array(Type.Number())) });
export type DevicesConfigAnswer = Static<typeof DevicesConfigAnswer>;

/** POST /datahub/update_device_config: the version saved (pending until the device answers). */
export const SavedConfig = Type.Object({ device_id: Str, version: Int, status: ConfigStatus, changes: Type.Array(ConfigChange) });

/** GET and POST /physician/realtime-layout: the caller's dashboard layout (null: never saved). */
export const LayoutAnswer = Type.Object({ layout: Nullable(LayoutBody.properties.layout) });
export const SavedLayout = Type.Object({ layout: LayoutBody.properties.layout });
