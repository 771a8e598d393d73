import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { NewPatientAllocation, NewPatientBody, PatientFields } from '../../contract/patients';
import { patientsEndpoints } from '../../contract/endpoints/patients';
import { randomInt } from 'node:crypto';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import type { Db, Queryable } from '../db/adapter';
import type { Api } from '../typed-api';
import { ApiError, forbidden } from '../errors';
import { hashPassword } from '../auth/passwords';
import { actingPhysicianId, type UserRow } from '../auth/users';
import { findCountry } from '../countries';
import { visiblePatient } from './access';
import { bmiOf, checkPatient } from './validate';
import { archivePatient, bumpVersion, insertPatient, listDiseases, lockedDiseases, lockedVersion, patientCodeTaken, setDiseases, setPatientActive, setPatientPassword, updatePatient } from './repository';
import { cancel, currentAllocation, deploy, fileDeployRequest, REQUEST_SENT, returnDevice, SUCCESS } from '../devices/operations';
import { checkScreening } from './questionnaires';
import { saveScreening } from './questionnaires-repository';
import { noteAccessOf } from '../audit/trail';

/** Annotators read; only physicians (and their secondary users) write (spec 1 §6). */
function writer(request: FastifyRequest): UserRow {
  const user = currentUser(request);
  if (user.is_annotator || user.role === 'admin') throw forbidden('You cannot change patients.');
  return user;
}

/** Checks a new patient's device part: a deployment with its dates, or a past-date request with its device, not both. */
function checkDevicePart(b: NewPatientBody): boolean {
  const withDevice = b.device_master_id !== undefined && b.device_master_id !== null;
  const pastRequest = b.past_date_request;
  if (withDevice && pastRequest) throw new ApiError(400, 'validation_failed', 'Either deploy a device or request a past-date deployment, not both.');
  if (withDevice && (typeof b.device_allocation_date !== 'number' || typeof b.device_deallocation_date !== 'number')) {
    throw new ApiError(400, 'validation_failed', 'Give the allocation and return dates of the device.');
  }
  if (pastRequest && !pastRequest.device_master_id && !pastRequest.device_id) throw new ApiError(400, 'validation_failed', 'Please select a device');
  return withDevice;
}

/**
 * Adds a patient with their conditions and their device (a deployment or a past-date request) in
 * one transaction: a refused deployment leaves no patient behind (issue 18 point 6).
 */
async function addPatient(db: Db, user: UserRow, b: NewPatientBody) {
  const physicianId = actingPhysicianId(user);
  const fields = checkPatient(b, 'add');
  const withDevice = checkDevicePart(b);
  const pastRequest = b.past_date_request;
  const timezone = findCountry(String(fields.country))?.timezone ?? 'UTC';
  // Screening answers only go with a device, and only answers that let allocation proceed.
  const screening = withDevice && b.screening_answers ? checkScreening(b.screening_answers) : null;
  return db.transaction(async (tx) => {
    const id = await insertPatient(tx, fields, physicianId, user.id, bmiOf(fields.weight as number, fields.height as number));
    await setDiseases(tx, id, fields.diseaseIds as number[]);
    const allocation = withDevice
      ? await deploy(tx, { physicianId, userId: user.id, patientId: id, deviceMasterId: Number(b.device_master_id), from: b.device_allocation_date!, to: b.device_deallocation_date!, timezone, windowStart: b.window_start_time, windowEnd: b.window_end_time, force: b.force_deploy === true })
      : null;
    if (screening) await saveScreening(tx, id, allocation?.device_user_map_id ?? null, screening, user.id);
    const requestId = pastRequest
      ? await fileDeployRequest(tx, { patientId: id, physicianId, deviceMasterId: pastRequest.device_master_id, deviceId: pastRequest.device_id, from: pastRequest.allocation_date, to: pastRequest.deallocation_date, timezone, userId: user.id })
      : null;
    // deploy answers the booking's row as stored (`returning *`): every column the answer names.
    return { id, allocation: allocation as NewPatientAllocation | null, requestId };
  });
}

/** Saves a patient's edited fields (the code stays as created); of two saves based on one version, the second is 409. */
async function editPatient(db: Db, request: FastifyRequest, patientId: number, body: PatientFields) {
  const user = writer(request);
  const patient = await visiblePatient(db, user, patientId);
  const { version, ...rest } = body;
  const fields = checkPatient(rest, 'edit');
  delete fields.patient_code;
  const saved = await db.transaction(async (tx) => {
    // Locked, then compared.
    const stored = await lockedVersion(tx, patient.id);
    if (version !== undefined && version !== stored) {
      throw new ApiError(409, 'patient_changed', 'This patient was changed by someone else since you opened it. Reload to see the change, then save again.');
    }
    await updatePatient(tx, patient.id, fields);
    return bumpVersion(tx, patient.id);
  });
  return { code: 'patient_info_updated_succesfully', message: 'Patient information updated.', data: { version: saved } };
}

/** Adds (update) or removes a condition; the last one cannot be removed (spec 1 §4). */
function changeDisease(db: Db, patientId: number, type: 'update' | 'delete', diseaseId: number): Promise<number[]> {
  return db.transaction(async (tx) => {
    let current = await lockedDiseases(tx, patientId);
    if (type === 'update') current = diseaseId === 1 ? [1] : [...current.filter((d) => d !== 1 && d !== diseaseId), diseaseId];
    else {
      if (current.length <= 1 && current.includes(diseaseId)) throw new ApiError(400, 'last_condition', 'At least one condition must remain.');
      current = current.filter((d) => d !== diseaseId);
    }
    await setDiseases(tx, patientId, current);
    return current;
  });
}

/**
 * Moves a patient to the past-patients archive: the device is returned first, confirmed
 * (spec 1 §2), and bookings that have not started are cancelled.
 */
async function archive(tx: Queryable, user: UserRow, patientId: number, confirmReturned: boolean): Promise<void> {
  const now = Date.now();
  for (let allocation = await currentAllocation(tx, patientId); allocation; allocation = await currentAllocation(tx, patientId)) {
    if (allocation.allocation_ms > now) await cancel(tx, allocation, user.id);
    else await returnDevice(tx, allocation, { confirmPresent: confirmReturned, userId: user.id, now });
  }
  await archivePatient(tx, patientId);
}

/** New patients: a free code, the conditions to choose from, and the patient with their device. */
function newPatientRoutes(app: Api, ctx: AppContext) {
  const auth = authenticate(ctx);
  const { db } = ctx;
  app.get('/patient/generate-code', { preHandler: auth, schema: patientsEndpoints['GET /patient/generate-code'] }, async () => {
    for (let i = 0; i < 20; i++) {
      const code = `NCT${randomInt(100000, 999999)}`;
      if (!(await patientCodeTaken(db, code))) return { data: { patient_code: code, generated_patient_id: code } };
    }
    throw new ApiError(503, 'no_code', 'Could not generate a free patient ID; type one.');
  });

  app.post('/patient/get-disease-list', { preHandler: auth, schema: patientsEndpoints['POST /patient/get-disease-list'] }, async () => ({
    data: { diseases: await listDiseases(db) },
  }));

  app.post('/physician/new-patient', { preHandler: auth, schema: patientsEndpoints['POST /physician/new-patient'] }, async (request, reply) => {
    const result = await addPatient(db, writer(request), request.body);
    noteAccessOf(request, result.id);
    const message = result.allocation ? SUCCESS.deploy : result.requestId ? REQUEST_SENT : 'Patient added successfully.';
    return reply.code(201).send({ code: 'patient_added', message, patientId: result.id, data: { patient_id: result.id, allocation: result.allocation, ...(result.requestId ? { request_id: result.requestId } : {}) } });
  });
}

/** Editing a patient: their fields (two calls), conditions and password. */
function editRoutes(app: Api, ctx: AppContext) {
  const auth = authenticate(ctx);
  const { db } = ctx;
  app.post('/physician/update-patient-info', { preHandler: auth, schema: patientsEndpoints['POST /physician/update-patient-info'] }, (request) => editPatient(db, request, request.body.patient_id, request.body));
  app.post('/physician/update-patient-details/id=:id', { preHandler: auth, schema: patientsEndpoints['POST /physician/update-patient-details/id=:id'] }, (request) => {
    noteAccessOf(request, request.params.id);
    return editPatient(db, request, request.params.id, request.body);
  });

  app.post('/patient/disease-operation', { preHandler: auth, schema: patientsEndpoints['POST /patient/disease-operation'] }, async (request) => {
    const patient = await visiblePatient(db, writer(request), request.body.patient_id);
    const ids = await changeDisease(db, patient.id, request.body.type, request.body.disease_id);
    return { code: 'disease_updated', data: { diseaseIds: ids.join(',') } };
  });

  app.post('/physician/reset-patient-password', { preHandler: auth, schema: patientsEndpoints['POST /physician/reset-patient-password'] }, async (request) => {
    const patient = await visiblePatient(db, writer(request), request.body.patient_id);
    // The client sends MD5 hex (spec 1 §5); it is stored only through scrypt.
    await setPatientPassword(db, patient.id, await hashPassword(request.body.password.toLowerCase()));
    return { code: 'password_reset', message: 'Password reset done.' };
  });
}

/** A patient's status: active or not, or archived with their device returned. */
function statusRoutes(app: Api, ctx: AppContext) {
  app.post('/physician/update-patient-status', { preHandler: authenticate(ctx), schema: patientsEndpoints['POST /physician/update-patient-status'] }, async (request) => {
    const user = writer(request);
    const patient = await visiblePatient(ctx.db, user, request.body.patient_id);
    await ctx.db.transaction(async (tx) => {
      if (request.body.archive) await archive(tx, user, patient.id, request.body.confirm_device_returned === true);
      else if (request.body.active_flag !== undefined) await setPatientActive(tx, patient.id, request.body.active_flag);
    });
    return { code: 'patient_status_updated', message: request.body.archive ? 'The patient was moved to past patients.' : 'Patient status updated.' };
  });
}

/** Patient management (spec 1 §7): add, edit, status and archive, codes, conditions, password reset. */
export function patientAdminRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  newPatientRoutes(app, ctx);
  editRoutes(app, ctx);
  statusRoutes(app, ctx);
}
