import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { DeviceKeysBody, RangeQuery } from '../../contract/live';
import { devicesEndpoints } from '../../contract/endpoints/devices';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { forbidden, notFound } from '../errors';
import type { UserRow } from '../auth/users';
import { secondsOrMs } from '../recordings/night-key';
import { announceKeysChanged, issueDeviceKey, listDeviceKeys, revokeDeviceKeys } from './keys';
import { frameStats } from './repository';
import { practiceDeviceById, practiceDevices, type PracticeDevice } from './practice';
import { liveState } from '../../contract/live-protocol';
import { noteAccessOf } from '../audit/trail';

/** Live data and device keys are the physician's: annotators and admins are refused (spec). */
function liveUser(request: FastifyRequest): UserRow {
  const user = currentUser(request);
  if (user.is_annotator || user.role === 'admin') throw forbidden('Real-time data and device keys are not available to this account.');
  return user;
}

/** The practice's devices the call asks for: did = 0 is all of them, filtered by patient. */
async function devicesOf(ctx: AppContext, user: UserRow, did: string, q: RangeQuery): Promise<PracticeDevice[]> {
  const all = await practiceDevices(ctx.db, user);
  const picked = did === '0' ? all : all.filter((d) => d.device_id === did);
  if (did !== '0' && picked.length === 0) throw notFound('device');
  return q.pid === undefined ? picked : picked.filter((d) => d.patient_id === q.pid);
}

/** Per live recording of the devices: frames committed, their seq range and how many are missing. */
async function validation(ctx: AppContext, devices: PracticeDevice[], q: RangeQuery) {
  if (devices.length === 0) return [];
  const from = q.start_time === undefined ? 0 : secondsOrMs(q.start_time);
  const to = q.end_time === undefined ? Number.MAX_SAFE_INTEGER : secondsOrMs(q.end_time);
  const rows = await frameStats(ctx.db, devices.map((d) => d.device_master_id), from, to);
  return rows.map((r) => ({
    device_id: devices.find((d) => d.device_master_id === r.device_master_id)!.device_id,
    recording_id: r.recording_id,
    frames: r.frames,
    first_seq: r.first_seq,
    last_seq: r.last_seq,
    missing_frames: r.last_seq - r.first_seq + 1 - r.frames,
    first_frame_time: r.first_ms,
    last_frame_time: r.last_ms,
  }));
}

/** Device keys (issue, revoke, list) and the spec's live-device calls. */
export function liveRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const auth = authenticate(ctx);
  const ownDevice = async (request: FastifyRequest, body: DeviceKeysBody) => {
    const user = liveUser(request);
    const device = await practiceDeviceById(ctx.db, user, body.device_master_id);
    if (!device) throw notFound('device');
    return { user, device };
  };

  app.post('/device/keys/issue', { preHandler: auth, schema: devicesEndpoints['POST /device/keys/issue'] }, async (request, reply) => {
    const { user, device } = await ownDevice(request, request.body);
    const { key, keyPrefix } = await issueDeviceKey(ctx.db, device.device_master_id, user.id);
    await announceKeysChanged(ctx.db, device.device_master_id);
    return reply.code(201).send({ message: 'The key is shown once: copy it to the device now.', data: { device_id: device.device_id, key, key_prefix: keyPrefix } });
  });

  app.post('/device/keys/revoke', { preHandler: auth, schema: devicesEndpoints['POST /device/keys/revoke'] }, async (request) => {
    const { user, device } = await ownDevice(request, request.body);
    const revoked = await revokeDeviceKeys(ctx.db, device.device_master_id, user.id);
    // A device streaming with a revoked key is disconnected on whichever process holds it.
    await announceKeysChanged(ctx.db, device.device_master_id);
    return { data: { device_id: device.device_id, revoked } };
  });

  app.post('/device/keys', { preHandler: auth, schema: devicesEndpoints['POST /device/keys'] }, async (request) => {
    const { device } = await ownDevice(request, request.body);
    return { data: { device_id: device.device_id, keys: await listDeviceKeys(ctx.db, device.device_master_id) } };
  });

  app.get('/device/real-time/did=:did', { preHandler: auth, schema: devicesEndpoints['GET /device/real-time/did=:did'] }, async (request) => {
    const devices = await devicesOf(ctx, liveUser(request), request.params.did, request.query);
    // One device asked for: its patient (and live night) for the access trail.
    const [only] = devices;
    if (devices.length === 1 && only!.patient_id !== null) noteAccessOf(request, only!.patient_id, only!.recording_id ?? null);
    const now = Date.now();
    return {
      data: devices.map((d) => ({
        device_id: d.device_id,
        device_master_id: d.device_master_id,
        patient_id: d.patient_id,
        patient_code: d.patient_code,
        recording_id: d.recording_id,
        state: liveState(d.last_frame_ms, now),
        last_seq: d.last_seq,
        last_frame_time: d.last_frame_ms,
        session_start_time: d.session_start_ms,
      })),
    };
  });

  app.get('/device/real-time-validation/did=:did', { preHandler: auth, schema: devicesEndpoints['GET /device/real-time-validation/did=:did'] }, async (request) => {
    const user = liveUser(request);
    const wanted = request.query.user_ids?.split(',').map(Number);
    // user_ids narrows to physicians; only the caller's own practice can be among them.
    if (wanted && !wanted.includes(user.physician_id ?? user.id)) return { data: [] };
    return { data: await validation(ctx, await devicesOf(ctx, user, request.params.did, request.query), request.query) };
  });
}
