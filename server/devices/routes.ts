import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DateTime } from 'luxon';
import { DeployDecisionParams, type DeviceOperationBody } from '../../contract/devices';
import { devicesEndpoints } from '../../contract/endpoints/devices';
import type { AppContext } from '../context';
import type { Api } from '../typed-api';
import { authenticate, currentUser } from '../context';
import { ApiError, forbidden } from '../errors';
import { actingPhysicianId, type UserRow } from '../auth/users';
import { findCountry } from '../countries';
import { visiblePatient } from '../patients/access';
import { calendarDays, DAY_MS, operationOf } from './allocations';
import { practiceDevices } from './status';
import { cancel, fileDeployRequest, REQUEST_SENT, SUCCESS } from './operations';
import { allDeployRequests, availableDevices, freeDayIndices, futureAllocations, patientDeployRequests, returnedAllocations, type RequestRow } from './repository';
import { decideRequest, runDeviceOperation } from './service';

function physicianOnly(request: FastifyRequest): UserRow {
  const user = currentUser(request);
  if (user.is_annotator || user.role === 'admin') throw forbidden('You cannot manage devices.');
  return user;
}

function adminOnly(request: FastifyRequest): UserRow {
  const user = currentUser(request);
  if (user.role !== 'admin') throw forbidden('Only admins handle deployment requests.');
  return user;
}

/** Days the free-dates calendar looks ahead. */
const FREE_DATE_DAYS = 60;

/** The zone a user's dates are read in: their country's, else UTC. */
const zoneOf = (country: string | null | undefined): string => findCountry(country ?? '')?.timezone ?? 'UTC';

/** Which devices are free, and on which days (spec 1 §7). */
function availabilityRoutes(app: Api, ctx: AppContext) {
  const auth = authenticate(ctx);
  app.get('/physician/available-devices', { preHandler: auth, schema: devicesEndpoints['GET /physician/available-devices'] }, async (request) => {
    const { allocation_time: from, deallocation_time: to } = request.query;
    if (!(to > from)) throw new ApiError(400, 'validation_failed', 'deallocation_time must be after allocation_time.');
    const user = currentUser(request);
    const rows = await availableDevices(ctx.db, actingPhysicianId(user), from, to);
    return {
      data: rows.map((d) => ({ device_id: d.device_id, device_master_id: d.device_master_id, device_user_map_id: null, device_allocation_date: from, device_deallocation_date: to, window_start_time: user.window_start_time, window_end_time: user.window_end_time, timezone: zoneOf(user.country) })),
    };
  });

  // The next 60 days (local days of the zone the picker books in: the patient's, else the
  // physician's country's) on which at least one device is free all day; one query.
  app.get('/physician/available-devices-dates', { preHandler: auth, schema: devicesEndpoints['GET /physician/available-devices-dates'] }, async (request) => {
    const user = currentUser(request);
    const zone = request.query.timezone ?? zoneOf(user.country);
    if (!DateTime.local().setZone(zone).isValid) throw new ApiError(400, 'validation_failed', `timezone: unknown time zone "${zone}".`);
    const days = calendarDays(zone, FREE_DATE_DAYS);
    const rows = await freeDayIndices(ctx.db, actingPhysicianId(user), days.map((d) => d.from), days.map((d) => d.to));
    return { data: { calendar_available_dates: rows.map((r) => days[Number(r.i) - 1]!.date) } };
  });
}

/** Deploy, extend, cancel and return (spec 1 §8). */
function operationRoutes(app: Api, ctx: AppContext) {
  const auth = authenticate(ctx);
  app.post('/device/device-operation', { preHandler: auth, schema: devicesEndpoints['POST /device/device-operation'] }, async (request) => {
    const user = physicianOnly(request);
    // The checked fields and, as the client sends them, those the schema leaves open (contract/devices.ts).
    const b: DeviceOperationBody = request.body;
    const patient = await visiblePatient(ctx.db, user, b.patient_id);
    const op = operationOf(b);
    if (!op) throw new ApiError(400, 'validation_failed', 'Say which device operation to do.');
    if (b.country && !findCountry(b.country)) throw new ApiError(400, 'validation_failed', `country: unknown country "${b.country}".`);
    const row = await runDeviceOperation(ctx.db, user, patient, op, b, zoneOf(b.country ?? patient.country));
    return { code: 'device_operation_success', message: SUCCESS[op], data: { operation: op, allocation: row } };
  });

  app.post('/device/device-history', { preHandler: auth, schema: devicesEndpoints['POST /device/device-history'] }, async (request) => {
    const patient = await visiblePatient(ctx.db, currentUser(request), request.body.patient_id);
    const rows = await returnedAllocations(ctx.db, patient.id);
    return {
      data: {
        history: rows.map((a) => ({ device_id: a.device_id, device_allocation_date: a.allocation_ms, device_deallocation_date: a.deallocation_ms, nights: Math.max(1, Math.round((a.deallocation_ms - a.allocation_ms) / DAY_MS)), window_start_time: a.window_start_time, window_end_time: a.window_end_time, is_device_returned: true })),
      },
    };
  });
}

/** Past-date deployment requests: filed by a physician, decided by an admin (spec 1 §4). */
function deployRequestRoutes(app: Api, ctx: AppContext) {
  const auth = authenticate(ctx);
  app.post('/device/deploy-device-in-past-date', { preHandler: auth, schema: devicesEndpoints['POST /device/deploy-device-in-past-date'] }, async (request, reply) => {
    const user = physicianOnly(request);
    const b = request.body;
    if (!b.device_master_id && !b.device_id) throw new ApiError(400, 'validation_failed', 'Please select a device');
    const patient = await visiblePatient(ctx.db, user, b.patient_id);
    const requestId = await fileDeployRequest(ctx.db, { patientId: patient.id, physicianId: patient.physician_id, deviceMasterId: b.device_master_id, deviceId: b.device_id, from: b.allocation_date, to: b.deallocation_date, timezone: zoneOf(patient.country), userId: user.id });
    return reply.code(201).send({ code: 'request_sent', message: REQUEST_SENT, data: { request_id: requestId } });
  });

  app.get('/admin/deploy-requests', { preHandler: auth, schema: devicesEndpoints['GET /admin/deploy-requests'] }, async (request) => {
    adminOnly(request);
    return { data: { requests: (await allDeployRequests(ctx.db)).map(withDays) } };
  });

  // The physician's view of a patient's requests: pending ones show as "request sent" on the patient (issue 16 point 4).
  app.get('/device/deploy-requests', { preHandler: auth, schema: devicesEndpoints['GET /device/deploy-requests'] }, async (request) => {
    const patient = await visiblePatient(ctx.db, currentUser(request), request.query.patient_id, 'read');
    return { data: { requests: (await patientDeployRequests(ctx.db, patient.id)).map(withDays) } };
  });

  // The note has no schema (the client sends none): read unchecked, as it always was.
  app.post<{ Params: DeployDecisionParams; Body: { note?: string } }>('/admin/deploy-requests/:id/:decision', { preHandler: auth, schema: devicesEndpoints['POST /admin/deploy-requests/:id/:decision'] }, async (request) => {
    const admin = adminOnly(request);
    const result = await decideRequest(ctx.db, admin, request.params.id, request.params.decision, request.body?.note ?? '');
    return { code: `request_${result}`, message: `Request ${result}.` };
  });
}

/** A device's future bookings, and the practice's devices as the data centre lists them. */
function fleetRoutes(app: Api, ctx: AppContext) {
  const auth = authenticate(ctx);
  app.post('/device/future-allocations', { preHandler: auth, schema: devicesEndpoints['POST /device/future-allocations'] }, async (request) => ({
    data: { allocations: await futureAllocations(ctx.db, actingPhysicianId(currentUser(request)), request.body.device_id) },
  }));

  app.post('/device/cancel-future-allocations', { preHandler: auth, schema: devicesEndpoints['POST /device/cancel-future-allocations'] }, async (request) => {
    const user = physicianOnly(request);
    const future = await futureAllocations(ctx.db, actingPhysicianId(user), request.body.device_id);
    await ctx.db.transaction(async (tx) => {
      for (const a of future) await cancel(tx, a, user.id);
    });
    return { code: 'future_allocations_cancelled', message: `${future.length} future allocation${future.length === 1 ? '' : 's'} cancelled successfully.`, data: { cancelled: future.length } };
  });

  app.get('/datacenter/getAllRecordingDevicesOfPatients', { preHandler: auth, schema: devicesEndpoints['GET /datacenter/getAllRecordingDevicesOfPatients'] }, async (request) => {
    const physicianId = actingPhysicianId(currentUser(request));
    const out = (await practiceDevices(ctx.db, physicianId)).map((d) => ({
      device_id: d.device_id,
      device_master_id: d.device_master_id,
      status: d.status,
      deployed: d.out,
      patient_code: d.current?.patient_code ?? null,
      device_allocation_date: d.current?.allocation_ms ?? null,
      device_deallocation_date: d.current?.deallocation_ms ?? null,
      last_recording: d.last_recording,
    }));
    return { data: { devices: out } };
  });
}

/** Device allocation (spec 1 §7, §8): availability, operations, history, past-date requests, the data centre. */
export function deviceRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  availabilityRoutes(app, ctx);
  operationRoutes(app, ctx);
  deployRequestRoutes(app, ctx);
  fleetRoutes(app, ctx);
}

/** The calendar day of an instant in the request's zone (the patient's): what was asked for, whatever the reader's zone. */
const requestDay = (ms: number | string, zone: string): string => DateTime.fromMillis(Number(ms), { zone }).toISODate() ?? '';

/** A request with its dates also as calendar days (YYYY-MM-DD), so no reader's zone can move them a day (issue 16 point 4). */
const withDays = <R extends RequestRow>(r: R) => ({ ...r, allocation_day: requestDay(r.allocation_date, r.timezone), deallocation_day: requestDay(r.deallocation_date, r.timezone) });
