// Calls of the live screens (spec: /device/real-time, /datahub/…) and the dashboard layout.
import type { DeviceConfig, DeviceKeysBody, LayoutBody, UpdateDeviceConfigBody } from '../../../contract/live';
import { request } from '../../api/client';
import type { DeviceLiveState } from '../../../contract/live-protocol';

export interface RealTimeDevice {
  device_id: string;
  device_master_id: number;
  patient_id: number | null;
  patient_code: string | null;
  recording_id: number | null;
  state: DeviceLiveState;
  last_seq: number;
  last_frame_time: number | null;
  session_start_time: number | null;
}

/** A tile's place on the real-time dashboard (contract/live.ts, as POST /physician/realtime-layout takes it). */
export type TileLayout = LayoutBody['layout'][number];

export type { DeviceConfig };

export type ConfigStatus = 'pending' | 'applied' | 'refused';

interface ConfigVersion {
  version: number;
  changes: { field: string; from: unknown; to: unknown }[];
  created_by_name: string | null;
  created_at: string;
  status: ConfigStatus;
  status_reason: string | null;
}

export interface DeviceConfigRow {
  device_master_id: number;
  device_id: string;
  patient_id: number | null;
  patient_code: string | null;
  state: DeviceLiveState;
  config: DeviceConfig;
  version: number;
  status: ConfigStatus | null;
  status_reason: string | null;
  history: ConfigVersion[];
  keys: { key_prefix: string; created_at: string; revoked_at: string | null }[];
}

export const liveApi = {
  devices: async () => (await request<RealTimeDevice[]>('GET', '/device/real-time/did=0')).data ?? [],
  layout: async () => (await request<{ layout: TileLayout[] | null }>('GET', '/physician/realtime-layout')).data?.layout ?? null,
  saveLayout: (layout: TileLayout[]) => request<{ layout: TileLayout[] }>('POST', '/physician/realtime-layout', { layout } satisfies LayoutBody),
  configs: async () => (await request<{ devices: DeviceConfigRow[]; channel_rates: Record<string, number[]> }>('GET', '/datahub/get_physician_devices_config')).data ?? { devices: [], channel_rates: {} },
  updateConfig: (deviceMasterId: number, config: DeviceConfig) => request<{ version: number; status: ConfigStatus }>('POST', '/datahub/update_device_config', { device_master_id: deviceMasterId, config } satisfies UpdateDeviceConfigBody),
  issueKey: async (deviceMasterId: number) => (await request<{ device_id: string; key: string; key_prefix: string }>('POST', '/device/keys/issue', { device_master_id: deviceMasterId } satisfies DeviceKeysBody)).data!,
  revokeKeys: (deviceMasterId: number) => request<{ revoked: number }>('POST', '/device/keys/revoke', { device_master_id: deviceMasterId } satisfies DeviceKeysBody),
};

/** The practice's devices and their live states, asked again every 5 s (the dashboard's tiles, Real Time's list). */
export const liveDevicesQuery = { queryKey: ['live', 'devices'], queryFn: liveApi.devices, refetchInterval: 5_000 } as const;
