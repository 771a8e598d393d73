import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DateTime } from 'luxon';
import { AvailableDatesQuery, AvailableDevicesQuery, DeployDecisionParams, DeployInPastBody, DeviceHistoryBody, DeviceOperationBody, DeviceSerialBody, PatientRequestsQuery } from '../../contract/devices';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { ApiError, forbidden, notFound } from '../errors';
import { actingPhysicianId, type UserRow } from '../auth/users';
import { findCountry } from '../countries';
import { visiblePatient } from '../patients/access';
import { calendarDays, DAY_MS, operationOf, type AllocationRow } from '../devices/allocations';
import { practiceDevices } from '../devices/status';
import { checkScreening, saveScreening } from './questionnaires';
import { cancel, currentAllocation, deploy, extend, fileDeployRequest, REQUEST_SENT, returnDevice, SUCCESS } from '../devices/operations';

interface DeviceRow {
  device_master_id: number;
  device_id: string;
}

function physicianOnly(request: FastifyRequest): UserRow {
  const user = currentUser(request);
  if (user.is_annotator || user.role === 'admin') throw forbidden('You cannot manage devices.');
  return user;
}

/** Days the free-dates calendar looks ahead. */
const FREE_DATE_DAYS = 60;

/** Devices of the caller's physician that are free for the whole of [from, to). */
async function availableDevices(ctx: AppContext, physicianId: number, from: number, to: number) {
  return ctx.db.query<DeviceRow & { from_ms: number; to_ms: number }>(
    `select d.device_master_id, d.device_id, m.from_ms, m.to_ms from devices d
     join physician_devices m on m.device_master_id = d.device_master_id and m.physician_id = $1 and m.from_ms <= $2 and m.to_ms >= $3
     where not exists (select 1 from device_allocations a where a.device_master_id = d.device_master_id and a.status = 'booked' and a.allocation_ms < $3 and a.deallocation_ms > $2)
     order by d.device_id`,
    [physicianId, from, to],
  );
}

/** Device allocation (spec 1 §7, §8): availability, operations, history, past-date requests, the data centre. */
export function deviceRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const auth = authenticate(ctx);
  const { db } = ctx;

  app.get(
    '/physician/available-devices',
    { preHandler: auth, schema: { querystring: AvailableDevicesQuery } },
    async (request) => {
      const { allocation_time: from, deallocation_time: to } = request.query;
      if (!(to > from)) throw new ApiError(400, 'validation_failed', 'deallocation_time must be after allocation_time.');
      const user = currentUser(request);
      const rows = await availableDevices(ctx, actingPhysicianId(user), from, to);
      return {
        data: rows.map((d) => ({ device_id: d.device_id, device_master_id: d.device_master_id, device_user_map_id: null, device_allocation_date: from, device_deallocation_date: to, window_start_time: user.window_start_time, window_end_time: user.window_end_time, timezone: findCountry(user.country ?? '')?.timezone ?? 'UTC' })),
      };
    },
  );

  // The next 60 days (local days of the zone the picker books in: the patient's, else the
  // physician's country's) on which at least one device is free all day; one query.
  app.get(
    '/physician/available-devices-dates',
    { preHandler: auth, schema: { querystring: AvailableDatesQuery } },
    async (request) => {
      const user = currentUser(request);
      const zone = request.query.timezone ?? findCountry(user.country ?? '')?.timezone ?? 'UTC';
      if (!DateTime.local().setZone(zone).isValid) throw new ApiError(400, 'validation_failed', `timezone: unknown time zone "${zone}".`);
      const days = calendarDays(zone, FREE_DATE_DAYS);
      const rows = await db.query<{ i: number }>(
        `select d.i from unnest($2::bigint[], $3::bigint[]) with ordinality as d(from_ms, to_ms, i)
         where exists (
           select 1 from physician_devices m
           where m.physician_id = $1 and m.from_ms <= d.from_ms and m.to_ms >= d.to_ms
             and not exists (select 1 from device_allocations a where a.device_master_id = m.device_master_id and a.status = 'booked' and a.allocation_ms < d.to_ms and a.deallocation_ms > d.from_ms))
         order by d.i`,
        [actingPhysicianId(user), days.map((d) => d.from), days.map((d) => d.to)],
      );
      return { data: { calendar_available_dates: rows.map((r) => days[Number(r.i) - 1]!.date) } };
    },
  );

  app.post(
    '/device/device-operation',
    { preHandler: auth, schema: { body: DeviceOperationBody } },
    async (request) => {
      const user = physicianOnly(request);
      // The checked fields and, as the client sends them, those the schema leaves open (contract/devices.ts).
      const b: DeviceOperationBody = request.body;
      const patient = await visiblePatient(db, user, b.patient_id);
      const op = operationOf(b);
      if (!op) throw new ApiError(400, 'validation_failed', 'Say which device operation to do.');
      if (b.country && !findCountry(b.country)) throw new ApiError(400, 'validation_failed', `country: unknown country "${b.country}".`);
      const timezone = findCountry(b.country ?? patient.country ?? '')?.timezone ?? 'UTC';
      const row = await db.transaction(async (tx): Promise<AllocationRow | null> => {
        if (op === 'deploy' || op === 'force-deploy') {
          if (!b.device_master_id || b.device_allocation_date === undefined || b.device_deallocation_date === undefined) throw new ApiError(400, 'validation_failed', 'Choose a device and its dates.');
          // The screening answers that cleared this allocation are kept as a questionnaire (spec 1 §4).
          const screening = b.screening_answers ? checkScreening(b.screening_answers) : null;
          const allocation = await deploy(tx, { physicianId: patient.physician_id, userId: user.id, patientId: patient.id, deviceMasterId: b.device_master_id, from: b.device_allocation_date, to: b.device_deallocation_date, timezone, windowStart: b.window_start_time, windowEnd: b.window_end_time, force: op === 'force-deploy' });
          if (screening) await saveScreening(tx, patient.id, allocation.device_user_map_id, screening, user.id);
          return allocation;
        }
        const current = await currentAllocation(tx, patient.id);
        if (!current) throw notFound('device_allocation');
        if (op === 'cancel') {
          await cancel(tx, current, user.id);
          return null;
        }
        if (op === 'return') return returnDevice(tx, current, { confirmPresent: b.confirm_device_present === true, asOf: b.return_date, userId: user.id });
        return extend(tx, current, b.device_allocation_date ?? current.allocation_ms, b.device_deallocation_date ?? current.deallocation_ms, op === 'force-extend', user.id);
      });
      return { code: 'device_operation_success', message: SUCCESS[op], data: { operation: op, allocation: row } };
    },
  );

  app.post(
    '/device/deploy-device-in-past-date',
    { preHandler: auth, schema: { body: DeployInPastBody } },
    async (request, reply) => {
      const user = physicianOnly(request);
      const b = request.body;
      if (!b.device_master_id && !b.device_id) throw new ApiError(400, 'validation_failed', 'Please select a device');
      const patient = await visiblePatient(db, user, b.patient_id);
      const requestId = await fileDeployRequest(db, { patientId: patient.id, physicianId: patient.physician_id, deviceMasterId: b.device_master_id, deviceId: b.device_id, from: b.allocation_date, to: b.deallocation_date, timezone: findCountry(patient.country ?? '')?.timezone ?? 'UTC', userId: user.id });
      return reply.code(201).send({ code: 'request_sent', message: REQUEST_SENT, data: { request_id: requestId } });
    },
  );

  app.get('/admin/deploy-requests', { preHandler: auth }, async (request) => {
    if (currentUser(request).role !== 'admin') throw forbidden('Only admins handle deployment requests.');
    const rows = await db.query<RequestRow>(
      `select r.id, r.status, r.allocation_ms as allocation_date, r.deallocation_ms as deallocation_date, r.timezone, r.created_at, p.patient_code, p.id as patient_id, d.device_id,
              u.email as requested_by
       from deploy_requests r join patients p on p.id = r.patient_id join devices d on d.device_master_id = r.device_master_id join users u on u.id = r.requested_by
       order by r.status = 'pending' desc, r.created_at desc`,
    );
    return { data: { requests: rows.map(withDays) } };
  });

  // The physician's view of a patient's requests: pending ones show as "request sent" on the patient (issue 16 point 4).
  app.get(
    '/device/deploy-requests',
    { preHandler: auth, schema: { querystring: PatientRequestsQuery } },
    async (request) => {
      const patient = await visiblePatient(db, currentUser(request), request.query.patient_id, 'read');
      const rows = await db.query<RequestRow>(
        `select r.id, r.status, r.allocation_ms as allocation_date, r.deallocation_ms as deallocation_date, r.timezone, r.created_at, p.patient_code, p.id as patient_id, d.device_id,
                u.email as requested_by
         from deploy_requests r join patients p on p.id = r.patient_id join devices d on d.device_master_id = r.device_master_id join users u on u.id = r.requested_by
         where r.patient_id = $1 order by r.created_at desc limit 50`,
        [patient.id],
      );
      return { data: { requests: rows.map(withDays) } };
    },
  );

  // The note has no schema (the client sends none): read unchecked, as it always was.
  app.post<{ Params: DeployDecisionParams; Body: { note?: string } }>(
    '/admin/deploy-requests/:id/:decision',
    { preHandler: auth, schema: { params: DeployDecisionParams } },
    async (request) => {
      const admin = currentUser(request);
      if (admin.role !== 'admin') throw forbidden('Only admins handle deployment requests.');
      const result = await db.transaction(async (tx) => {
        const [r] = await tx.query<{ id: number; status: string; patient_id: number; device_master_id: number; allocation_ms: number; deallocation_ms: number; timezone: string; requested_by: number }>(
          'select * from deploy_requests where id = $1 for update',
          [request.params.id],
        );
        if (!r) throw notFound('request');
        if (r.status !== 'pending') throw new ApiError(409, 'request_decided', `This request was already ${r.status}.`);
        if (request.params.decision === 'approve') {
          const [p] = await tx.query<{ physician_id: number }>('select physician_id from patients where id = $1', [r.patient_id]);
          await deploy(tx, { physicianId: p.physician_id, userId: admin.id, patientId: r.patient_id, deviceMasterId: r.device_master_id, from: r.allocation_ms, to: r.deallocation_ms, timezone: r.timezone, force: false, allowPast: true });
        }
        await tx.query(`update deploy_requests set status = $2, decided_by = $3, decided_at = now(), decision_note = $4 where id = $1`, [r.id, request.params.decision === 'approve' ? 'approved' : 'denied', admin.id, request.body?.note ?? '']);
        return request.params.decision === 'approve' ? 'approved' : 'denied';
      });
      return { code: `request_${result}`, message: `Request ${result}.` };
    },
  );

  app.post(
    '/device/device-history',
    { preHandler: auth, schema: { body: DeviceHistoryBody } },
    async (request) => {
      const patient = await visiblePatient(db, currentUser(request), request.body.patient_id);
      const rows = await db.query<AllocationRow & { device_id: string }>(
        `select a.*, d.device_id from device_allocations a join devices d on d.device_master_id = a.device_master_id where a.patient_id = $1 and a.status = 'returned' order by a.allocation_ms desc`,
        [patient.id],
      );
      return {
        data: {
          history: rows.map((a) => ({ device_id: a.device_id, device_allocation_date: a.allocation_ms, device_deallocation_date: a.deallocation_ms, nights: Math.max(1, Math.round((a.deallocation_ms - a.allocation_ms) / DAY_MS)), window_start_time: a.window_start_time, window_end_time: a.window_end_time, is_device_returned: true })),
        },
      };
    },
  );

  const futureOf = (physicianId: number, deviceId: string) =>
    db.query<AllocationRow & { patient_code: string }>(
      `select a.*, p.patient_code from device_allocations a join devices d on d.device_master_id = a.device_master_id join patients p on p.id = a.patient_id
       where d.device_id = $1 and a.physician_id = $2 and a.status = 'booked' and a.allocation_ms > $3 order by a.allocation_ms`,
      [deviceId, physicianId, Date.now()],
    );

  app.post(
    '/device/future-allocations',
    { preHandler: auth, schema: { body: DeviceSerialBody } },
    async (request) => ({ data: { allocations: await futureOf(actingPhysicianId(currentUser(request)), request.body.device_id) } }),
  );

  app.post(
    '/device/cancel-future-allocations',
    { preHandler: auth, schema: { body: DeviceSerialBody } },
    async (request) => {
      const user = physicianOnly(request);
      const future = await futureOf(actingPhysicianId(user), request.body.device_id);
      await db.transaction(async (tx) => {
        for (const a of future) await cancel(tx, a, user.id);
      });
      return { code: 'future_allocations_cancelled', message: `${future.length} future allocation${future.length === 1 ? '' : 's'} cancelled successfully.`, data: { cancelled: future.length } };
    },
  );

  app.get('/datacenter/getAllRecordingDevicesOfPatients', { preHandler: auth }, async (request) => {
    const physicianId = actingPhysicianId(currentUser(request));
    const out = (await practiceDevices(db, physicianId)).map((d) => ({
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

interface RequestRow {
  allocation_date: number | string;
  deallocation_date: number | string;
  timezone: string;
}

/** The calendar day of an instant in the request's zone (the patient's): what was asked for, whatever the reader's zone. */
const requestDay = (ms: number | string, zone: string): string => DateTime.fromMillis(Number(ms), { zone }).toISODate() ?? '';

/** A request with its dates also as calendar days (YYYY-MM-DD), so no reader's zone can move them a day (issue 16 point 4). */
const withDays = <R extends RequestRow>(r: R) => ({ ...r, allocation_day: requestDay(r.allocation_date, r.timezone), deallocation_day: requestDay(r.deallocation_date, r.timezone) });
