import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { patientsEndpoints } from '../../contract/endpoints/patients';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { actingPhysicianId, type UserRow } from '../auth/users';
import { ApiError, forbidden, notFound } from '../errors';
import { visibleRecording } from '../patients/access';
import { sampleNameProblem, SAMPLE_NAME_MAX } from './name';
import { copyNightToSample, createSample, listSamples, sampleOfPractice, sourcePatientNames } from './samples';

/** The practice's members who read sample patients: its physicians (and secondary users) and annotators. */
function practiceMember(request: FastifyRequest): UserRow {
  const user = currentUser(request);
  if (user.role === 'admin' || user.role === 'system') throw forbidden('Sample patients belong to a practice.');
  return user;
}

const NAME_MESSAGES = {
  required: 'Give the sample patient a name.',
  max_length: `A sample patient's name has at most ${SAMPLE_NAME_MAX} characters.`,
  identifying: "A sample patient's name may not contain the patient's name or code.",
} as const;

/**
 * Sample patients (spec 2 §2, §7 "POST /patient/samplePatient"): annotators add a night of a
 * patient of their practice to a new or an existing sample patient, as a de-identified copy;
 * the practice's physicians and annotators list them and read them like any patient, never
 * change them (server/patients/access.ts refuses every write with `sample_read_only`).
 */
export function sampleRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const auth = authenticate(ctx);
  const { db } = ctx;

  app.get('/patient/samplePatients', { preHandler: auth, schema: patientsEndpoints['GET /patient/samplePatients'] }, async (request) => {
    const user = practiceMember(request);
    return { data: { sample_patients: await listSamples(db, actingPhysicianId(user)) } };
  });

  app.post(
    '/patient/samplePatient',
    { preHandler: auth, schema: patientsEndpoints['POST /patient/samplePatient'] },
    async (request, reply) => {
      const user = practiceMember(request);
      // Spec 2 §1 and §6: "Add to Sample Patient (annotator only)".
      if (!user.is_annotator) throw forbidden('Only annotators add nights to the sample patients.');
      const b = request.body;
      if ((b.sample_patient_id === undefined) === (b.name === undefined)) {
        throw new ApiError(400, 'validation_failed', 'Give either sample_patient_id (an existing sample patient) or name (a new one).', {
          fieldRule: { field: b.name === undefined ? 'sample_patient_id' : 'name', rule: 'one_of' },
        });
      }
      const practiceId = actingPhysicianId(user);
      const result = await db.transaction(async (tx) => {
        // The source: a night of one of the practice's own patients, never of a sample.
        const { recording } = await visibleRecording(tx, user, b.patient_id, b.recording_id);
        let sampleId: number;
        if (b.name !== undefined) {
          const source = await sourcePatientNames(tx, b.patient_id);
          if (!source) throw notFound('patient');
          const rule = sampleNameProblem(b.name, source);
          if (rule) throw new ApiError(400, 'validation_failed', NAME_MESSAGES[rule], { fieldRule: { field: 'name', rule } });
          sampleId = await createSample(tx, practiceId, b.name.trim());
        } else {
          sampleId = await sampleOfPractice(tx, practiceId, b.sample_patient_id!);
        }
        const recordingId = await copyNightToSample(tx, recording, sampleId, user.id);
        return { sampleId, recordingId, night: recording.night_key };
      });
      const [sample] = await listSamples(db, practiceId, result.sampleId);
      return reply.code(b.name !== undefined ? 201 : 200).send({
        code: 'sample_patient_added',
        message: 'The night was added to the sample patient.',
        data: { sample_patient: sample, recording_id: result.recordingId, night: result.night },
      });
    },
  );
}
