import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { devicesEndpoints } from '../../contract/endpoints/devices';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { ApiError, forbidden, notFound } from '../errors';
import type { UserRow } from '../auth/users';
import type { ConfigPush } from './config-push';
import { CHANNEL_RATES, configHistory, configProblem, defaultConfigFor, saveConfig, windowOf, type DeviceConfig } from './device-config';
import { actingPhysicianId } from '../auth/users';
import { findCountry } from '../countries';
import type { Queryable } from '../db/adapter';
import { practiceHours, saveLayout, savedLayout } from './repository';
import type { PracticeDevice } from './practice';
import { listDeviceKeys } from './keys';
import { practiceDeviceById, practiceDevices } from './practice';
import { liveState } from '../../contract/live-protocol';

/** Device Config is hidden for annotators (spec) and is no admin's. */
function configUser(request: FastifyRequest): UserRow {
  const user = currentUser(request);
  if (user.is_annotator || user.role === 'admin') throw forbidden('Device configuration is not available to this account.');
  return user;
}

/** The practice's recording window: the acting physician's hours in their country's zone (null when unusable). */
async function practiceWindow(db: Queryable, user: UserRow) {
  const row = await practiceHours(db, actingPhysicianId(user));
  return row ? windowOf(row.window_start_time, row.window_end_time, findCountry(row.country ?? '')?.timezone) : null;
}

/** What a device runs before its first saved version: the practice's window (its allocation's first), the factory rest. */
function practiceDefault(device: PracticeDevice, practice: ReturnType<typeof windowOf>): DeviceConfig {
  return defaultConfigFor(windowOf(device.window_start_time, device.window_end_time, device.allocation_timezone) ?? practice);
}

/** The physician's devices with their configuration, its history and their keys. */
async function devicesConfig(ctx: AppContext, user: UserRow) {
  const devices = await practiceDevices(ctx.db, user);
  const history = await configHistory(ctx.db, devices.map((d) => d.device_master_id));
  const practice = await practiceWindow(ctx.db, user);
  const now = Date.now();
  return Promise.all(
    devices.map(async (d) => {
      const versions = history.filter((h) => h.device_master_id === d.device_master_id);
      const latest = versions[0];
      return {
        device_master_id: d.device_master_id,
        device_id: d.device_id,
        patient_id: d.patient_id,
        patient_code: d.patient_code,
        state: liveState(d.last_frame_ms, now),
        config: latest?.config ?? practiceDefault(d, practice),
        version: latest?.version ?? 0,
        status: latest?.status ?? null,
        status_reason: latest?.status_reason ?? null,
        history: versions.map(({ device_master_id: _omit, config: _config, ...v }) => v),
        keys: await listDeviceKeys(ctx.db, d.device_master_id),
      };
    }),
  );
}

/** Device Config (spec: GET /datahub/get_physician_devices_config, POST /datahub/update_device_config) and the dashboard layout. */
export function deviceConfigRoutes(server: FastifyInstance, ctx: AppContext, push: ConfigPush) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const auth = authenticate(ctx);

  app.get('/datahub/get_physician_devices_config', { preHandler: auth, schema: devicesEndpoints['GET /datahub/get_physician_devices_config'] }, async (request) => {
    const user = configUser(request);
    return { data: { devices: await devicesConfig(ctx, user), channel_rates: CHANNEL_RATES } };
  });

  app.post(
    '/datahub/update_device_config',
    { preHandler: auth, schema: devicesEndpoints['POST /datahub/update_device_config'] },
    async (request) => {
      const user = configUser(request);
      const device = await practiceDeviceById(ctx.db, user, request.body.device_master_id);
      if (!device) throw notFound('device');
      const problem = configProblem(request.body.config);
      if (problem) throw new ApiError(400, 'invalid_config', problem.message, { fieldRule: { field: 'config', rule: problem.rule }, details: { path: problem.path } });
      const saved = await saveConfig(ctx.db, device.device_master_id, request.body.config, user.id, practiceDefault(device, await practiceWindow(ctx.db, user)));
      if (!saved) throw new ApiError(400, 'no_changes', 'This configuration is the one the device already has: nothing to send.');
      await push.announce(device.device_master_id);
      return { message: 'Saved: the device gets it over its live connection (or when it next connects).', data: { device_id: device.device_id, version: saved.version, status: saved.status, changes: saved.changes } };
    },
  );

  app.get('/physician/realtime-layout', { preHandler: auth, schema: devicesEndpoints['GET /physician/realtime-layout'] }, async (request) => {
    const user = configUser(request);
    return { data: { layout: (await savedLayout(ctx.db, user.id)) ?? null } };
  });

  app.post('/physician/realtime-layout', { preHandler: auth, schema: devicesEndpoints['POST /physician/realtime-layout'] }, async (request) => {
    const user = configUser(request);
    await saveLayout(ctx.db, user.id, request.body.layout);
    return { message: 'Layout saved.', data: { layout: request.body.layout } };
  });
}
