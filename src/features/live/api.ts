// Calls of the live screens (spec: /device/real-time, /datahub/…) and the dashboard layout.
import type { DeviceConfig, TileLayout } from '../../../contract/live';
import { call } from '../../api/client';

// The answers' shapes are the contract's (contract/live.ts).
export type { DeviceConfigRow, RealTimeDevice } from '../../../contract/live';
/** A tile's place on the real-time dashboard (contract/live.ts, as POST /physician/realtime-layout takes it). */
export type { DeviceConfig, TileLayout };

export const liveApi = {
  devices: async () => (await call('GET /device/real-time/did=:did', { params: { did: '0' }, query: {} })).data,
  layout: async () => (await call('GET /physician/realtime-layout')).data.layout,
  saveLayout: (layout: TileLayout[]) => call('POST /physician/realtime-layout', { body: { layout } }),
  configs: async () => (await call('GET /datahub/get_physician_devices_config')).data,
  updateConfig: (deviceMasterId: number, config: DeviceConfig) => call('POST /datahub/update_device_config', { body: { device_master_id: deviceMasterId, config } }),
  issueKey: async (deviceMasterId: number) => (await call('POST /device/keys/issue', { body: { device_master_id: deviceMasterId } })).data,
  revokeKeys: (deviceMasterId: number) => call('POST /device/keys/revoke', { body: { device_master_id: deviceMasterId } }),
};

/** The practice's devices and their live states, asked again every 5 s (the dashboard's tiles, Real Time's list). */
export const liveDevicesQuery = { queryKey: ['live', 'devices'], queryFn: liveApi.devices, refetchInterval: 5_000 } as const;
