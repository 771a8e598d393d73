/**
 * Request schemas of the live screens (issue 15): device keys, the devices' real-time state and
 * frame counts, Device Config and the real-time dashboard's layout. The channel list comes from
 * contract/live-protocol.ts, a module without imports that the browser reads too.
 */
import { Type, type Static } from '@sinclair/typebox';
import { LIVE_CHANNELS } from './live-protocol';
import { id, instant, Strict } from './common';

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
const TileLayout = Strict({
  i: Type.String({ pattern: '^\\w{1,40}$' }),
  x: Type.Integer({ minimum: 0, maximum: 100 }),
  y: Type.Integer({ minimum: 0, maximum: 10_000 }),
  w: Type.Integer({ minimum: 1, maximum: 100 }),
  h: Type.Integer({ minimum: 1, maximum: 100 }),
});

/** POST /physician/realtime-layout: the caller's dashboard layout, saved as sent. */
export const LayoutBody = Strict({ layout: Type.Array(TileLayout, { maxItems: MAX_LAYOUT_ITEMS }) });
export type LayoutBody = Static<typeof LayoutBody>;
