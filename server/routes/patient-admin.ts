import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DiseaseOperationBody, NewPatientBody, PatientFields, PatientIdParams, PatientStatusBody, ResetPatientPasswordBody, UpdatePatientInfoBody } from '../../contract/patients';
import { randomInt } from 'node:crypto';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import type { Queryable } from '../db/adapter';
import { ApiError, forbidden } from '../errors';
import { hashPassword } from '../auth/passwords';
import { actingPhysicianId, type UserRow } from '../auth/users';
import { findCountry } from '../countries';
import { visiblePatient } from '../patients/access';
import { bmiOf, checkPatient, PATIENT_MESSAGES } from '../patients/validate';
import { cancel, currentAllocation, deploy, fileDeployRequest, REQUEST_SENT, returnDevice, SUCCESS } from '../devices/operations';
import { checkScreening, saveScreening } from './questionnaires';
import { noteAccessOf } from '../audit/trail';

/** Annotators read; only physicians (and their secondary users) write (spec 1 §6). */
function writer(request: FastifyRequest): UserRow {
  const user = currentUser(request);
  if (user.is_annotator || user.role === 'admin') throw forbidden('You cannot change patients.');
  return user;
}

async function setDiseases(tx: Queryable, patientId: number, ids: number[]) {
  const known = await tx.query<{ disease_id: number }>('select disease_id from diseases where disease_id = any($1::int[])', [ids]);
  if (known.length !== ids.length) throw new ApiError(400, 'validation_failed', PATIENT_MESSAGES.condition);
  await tx.query('delete from patient_diseases where patient_id = $1', [patientId]);
  for (const id of ids) await tx.query('insert into patient_diseases (patient_id, disease_id) values ($1, $2)', [patientId, id]);
}

const COLUMNS = ['patient_code', 'first_name', 'last_name', 'email_id', 'gender', 'date_of_birth', 'at_risk', 'height', 'weight', 'vital_parameters', 'comment', 'country', 'address', 'tags'];

async function updatePatient(tx: Queryable, patientId: number, fields: Record<string, unknown>) {
  const sets: string[] = [];
  const values: unknown[] = [patientId];
  for (const col of COLUMNS) {
    if (fields[col] === undefined) continue;
    values.push(col === 'vital_parameters' ? JSON.stringify(fields[col]) : fields[col]);
    sets.push(`${col} = $${values.length}`);
  }
  if (fields.diseaseIds) await setDiseases(tx, patientId, fields.diseaseIds as number[]);
  if (sets.length) await tx.query(`update patients set ${sets.join(', ')}, updated_at = now() where id = $1`, values);
  // BMI is the server's to compute, from what is stored now.
  await tx.query(`update patients set bmi = case when weight > 0 and height > 0 then round(weight / ((height / 100) ^ 2)::numeric, 2) else 0 end where id = $1`, [patientId]);
}

/** Patient management (spec 1 §7): add, edit, status and archive, codes, conditions, password reset. */
export function patientAdminRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const auth = authenticate(ctx);
  const { db } = ctx;

  app.get('/patient/generate-code', { preHandler: auth }, async () => {
    for (let i = 0; i < 20; i++) {
      const code = `NCT${randomInt(100000, 999999)}`;
      const [taken] = await db.query('select 1 from patients where lower(patient_code) = lower($1)', [code]);
      if (!taken) return { data: { patient_code: code, generated_patient_id: code } };
    }
    throw new ApiError(503, 'no_code', 'Could not generate a free patient ID; type one.');
  });

  app.post('/patient/get-disease-list', { preHandler: auth }, async () => ({
    data: { diseases: await db.query('select disease_id, disease_description, disease_shortname from diseases order by disease_id') },
  }));

  app.post('/physician/new-patient', { preHandler: auth, schema: { body: NewPatientBody } }, async (request, reply) => {
    const user = writer(request);
    const physicianId = actingPhysicianId(user);
    const fields = checkPatient(request.body, 'add');
    const b = request.body;
    const withDevice = b.device_master_id !== undefined && b.device_master_id !== null;
    const pastRequest = b.past_date_request;
    if (withDevice && pastRequest) throw new ApiError(400, 'validation_failed', 'Either deploy a device or request a past-date deployment, not both.');
    if (withDevice && (typeof b.device_allocation_date !== 'number' || typeof b.device_deallocation_date !== 'number')) {
      throw new ApiError(400, 'validation_failed', 'Give the allocation and return dates of the device.');
    }
    if (pastRequest && !pastRequest.device_master_id && !pastRequest.device_id) throw new ApiError(400, 'validation_failed', 'Please select a device');
    const timezone = findCountry(String(fields.country))?.timezone ?? 'UTC';
    // Screening answers only go with a device, and only answers that let allocation proceed.
    const screening = withDevice && b.screening_answers ? checkScreening(b.screening_answers) : null;
    // The patient, their conditions and their device (a deployment or a past-date request) are
    // one transaction: a refused deployment leaves no patient behind (issue 18 point 6).
    const result = await db.transaction(async (tx) => {
        const [row] = await tx.query<{ id: number }>(
          `insert into patients (patient_code, physician_id, created_by, first_name, last_name, email_id, gender, date_of_birth, at_risk, height, weight, bmi, vital_parameters, comment, country, address, tags)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) returning id`,
          [fields.patient_code, physicianId, user.id, fields.first_name ?? '', fields.last_name ?? '', fields.email_id ?? '', fields.gender, fields.date_of_birth, fields.at_risk ?? null,
            fields.height, fields.weight, bmiOf(fields.weight as number, fields.height as number), JSON.stringify(fields.vital_parameters), fields.comment ?? '', fields.country, fields.address ?? '', fields.tags ?? ''],
        ).catch((err: unknown) => {
          // The code is taken, in any case (the patients' unique indexes, migration 033): spec 1 §4's patient_id_exists.
          if ((err as { code?: string }).code === '23505') throw new ApiError(409, 'patient_id_exists', PATIENT_MESSAGES.idExists);
          throw err;
        });
        await setDiseases(tx, row.id, fields.diseaseIds as number[]);
        const allocation = withDevice
          ? await deploy(tx, { physicianId, userId: user.id, patientId: row.id, deviceMasterId: Number(b.device_master_id), from: b.device_allocation_date!, to: b.device_deallocation_date!, timezone, windowStart: b.window_start_time, windowEnd: b.window_end_time, force: b.force_deploy === true })
          : null;
        if (screening) await saveScreening(tx, row.id, allocation?.device_user_map_id ?? null, screening, user.id);
        const requestId = pastRequest
          ? await fileDeployRequest(tx, { patientId: row.id, physicianId, deviceMasterId: pastRequest.device_master_id, deviceId: pastRequest.device_id, from: pastRequest.allocation_date, to: pastRequest.deallocation_date, timezone, userId: user.id })
          : null;
        return { id: row.id, allocation, requestId };
      });
    noteAccessOf(request, result.id);
    const message = result.allocation ? SUCCESS.deploy : result.requestId ? REQUEST_SENT : 'Patient added successfully.';
    return reply.code(201).send({ code: 'patient_added', message, patientId: result.id, data: { patient_id: result.id, allocation: result.allocation, ...(result.requestId ? { request_id: result.requestId } : {}) } });
  });

  const edit = async (request: FastifyRequest, patientId: number, body: PatientFields) => {
    const user = writer(request);
    const patient = await visiblePatient(db, user, patientId);
    const { version, ...rest } = body;
    const fields = checkPatient(rest, 'edit');
    delete fields.patient_code; // the code is read-only once created
    const saved = await db.transaction(async (tx) => {
      // Locked, then compared: of two saves based on one version, the second is 409.
      const [row] = await tx.query<{ version: number }>('select version from patients where id = $1 for no key update', [patient.id]);
      if (version !== undefined && version !== row!.version) {
        throw new ApiError(409, 'patient_changed', 'This patient was changed by someone else since you opened it. Reload to see the change, then save again.');
      }
      await updatePatient(tx, patient.id, fields);
      return (await tx.query<{ version: number }>('update patients set version = version + 1 where id = $1 returning version', [patient.id]))[0]!.version;
    });
    return { code: 'patient_info_updated_succesfully', message: 'Patient information updated.', data: { version: saved } };
  };

  app.post(
    '/physician/update-patient-info',
    { preHandler: auth, schema: { body: UpdatePatientInfoBody } },
    (request) => edit(request, request.body.patient_id, request.body),
  );
  app.post(
    '/physician/update-patient-details/id=:id',
    { preHandler: auth, schema: { params: PatientIdParams, body: PatientFields } },
    (request) => {
      noteAccessOf(request, request.params.id);
      return edit(request, request.params.id, request.body);
    },
  );

  app.post(
    '/patient/disease-operation',
    { preHandler: auth, schema: { body: DiseaseOperationBody } },
    async (request) => {
      const user = writer(request);
      const patient = await visiblePatient(db, user, request.body.patient_id);
      const { type, disease_id } = request.body;
      const ids = await db.transaction(async (tx) => {
        await tx.query('select id from patients where id = $1 for update', [patient.id]);
        let current = (await tx.query<{ disease_id: number }>('select disease_id from patient_diseases where patient_id = $1', [patient.id])).map((r) => r.disease_id);
        if (type === 'update') current = disease_id === 1 ? [1] : [...current.filter((d) => d !== 1 && d !== disease_id), disease_id];
        else {
          // The last condition cannot be removed (spec 1 §4).
          if (current.length <= 1 && current.includes(disease_id)) throw new ApiError(400, 'last_condition', 'At least one condition must remain.');
          current = current.filter((d) => d !== disease_id);
        }
        await setDiseases(tx, patient.id, current);
        return current;
      });
      return { code: 'disease_updated', data: { diseaseIds: ids.join(',') } };
    },
  );

  app.post(
    '/physician/reset-patient-password',
    { preHandler: auth, schema: { body: ResetPatientPasswordBody } },
    async (request) => {
      const user = writer(request);
      const patient = await visiblePatient(db, user, request.body.patient_id);
      // The client sends MD5 hex (spec 1 §5); it is stored only through scrypt.
      await db.query('update patients set password_hash = $2, updated_at = now() where id = $1', [patient.id, await hashPassword(request.body.password.toLowerCase())]);
      return { code: 'password_reset', message: 'Password reset done.' };
    },
  );

  app.post(
    '/physician/update-patient-status',
    { preHandler: auth, schema: { body: PatientStatusBody } },
    async (request) => {
      const user = writer(request);
      const patient = await visiblePatient(db, user, request.body.patient_id);
      await db.transaction(async (tx) => {
        if (request.body.archive) {
          // Moving to the past-patients archive returns the device first, confirmed (spec 1 §2);
          // bookings that have not started are cancelled.
          const now = Date.now();
          for (let allocation = await currentAllocation(tx, patient.id); allocation; allocation = await currentAllocation(tx, patient.id)) {
            if (allocation.allocation_ms > now) await cancel(tx, allocation, user.id);
            else await returnDevice(tx, allocation, { confirmPresent: request.body.confirm_device_returned === true, userId: user.id, now });
          }
          await tx.query('update patients set phys_device_return_date = now(), active_flag = false, updated_at = now() where id = $1', [patient.id]);
        } else if (request.body.active_flag !== undefined) {
          await tx.query('update patients set active_flag = $2, updated_at = now() where id = $1', [patient.id, request.body.active_flag]);
        }
      });
      return { code: 'patient_status_updated', message: request.body.archive ? 'The patient was moved to past patients.' : 'Patient status updated.' };
    },
  );
}
