/**
 * Double scoring (issue 36 points 2–3, decision 0989): a physician assigns a night to two or
 * more annotators, who score it blind and submit; the agreement and the disagreements are then
 * shown, the physician decides each disagreement and finishes the round, and the consensus
 * becomes the night's annotations of record. Scorer quality: an annotator's agreement with
 * consensus over their last adjudicated nights.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context';
import type { Api } from '../typed-api';
import { authenticate, currentUser } from '../context';
import { actingPhysicianId, type UserRow } from '../auth/users';
import { ApiError, forbidden, notFound } from '../errors';
import { visiblePatient, type PatientAccess } from '../patients/access';
import { nightOf } from '../annotations/annotations';
import { listCategories } from '../annotations/repository';
import { nightDate } from '../recordings/night-key';
import { scoringEndpoints, type AnnotatorsAnswer, type AssignmentsAnswer, type Decision, type FinishAnswer, type RoundAnswer, type ScorerQuality } from '../../contract/scoring-rounds';
import { adjudicatedRoundsOf, annotatorOf, assignmentsOf, practiceRoundsOf, findRound, insertRound, latestRound, practiceAnnotators, roundScorers, saveDecision, setStatus, submitScorer, type RoundRow } from './repository';
import { agreementAnswer, disagreementsAnswer, finishRound, presentRound, qualityNight } from './service';

/** Rounds are assigned, decided, finished and cancelled by the practice's physicians, not annotators (they score). */
function physician(request: FastifyRequest): UserRow {
  const user = currentUser(request);
  if (user.is_annotator || user.role === 'admin') throw forbidden('Only a physician of the practice can assign, adjudicate or cancel a double scoring.');
  return user;
}

/** The round if the caller may see its patient (404 for anything else). */
async function roundFor(ctx: AppContext, request: FastifyRequest, roundId: number, access: PatientAccess = 'read'): Promise<RoundRow> {
  const round = await findRound(ctx.db, roundId);
  if (!round) throw notFound('scoring_round');
  await visiblePatient(ctx.db, currentUser(request), round.patient_id, access);
  return round;
}

const closed = (what: string) => new ApiError(409, 'scoring_round_closed', `This double-scoring round is not open for ${what} any more.`);

/** GET the night's round and the practice's annotators; POST a new round; GET the caller's assignments. */
function roundRoutes(app: Api, ctx: AppContext) {
  const auth = authenticate(ctx);
  app.get('/scoring/rounds', { preHandler: auth, schema: scoringEndpoints['GET /scoring/rounds'] }, async (request): Promise<{ data: RoundAnswer }> => {
    const user = currentUser(request);
    const patient = await visiblePatient(ctx.db, user, request.query.patient_id, 'read');
    const round = await latestRound(ctx.db, (await nightOf(ctx.db, patient, request.query)).id);
    return { data: { round: round ? await presentRound(ctx.db, round, user.id) : null } };
  });

  app.get('/scoring/annotators', { preHandler: auth, schema: scoringEndpoints['GET /scoring/annotators'] }, async (request): Promise<{ data: AnnotatorsAnswer }> => {
    const patient = await visiblePatient(ctx.db, currentUser(request), request.query.patient_id, 'read');
    return { data: { annotators: await practiceAnnotators(ctx.db, patient.physician_id) } };
  });

  app.post('/scoring/rounds', { preHandler: auth, schema: scoringEndpoints['POST /scoring/rounds'] }, async (request, reply) => {
    const user = physician(request);
    const body = request.body;
    const patient = await visiblePatient(ctx.db, user, body.patient_id);
    const night = await nightOf(ctx.db, patient, body);
    const annotators = new Set((await practiceAnnotators(ctx.db, patient.physician_id)).map((a) => a.id));
    if (!body.scorer_ids.every((id) => annotators.has(id))) throw new ApiError(400, 'scoring_not_annotator', 'Only annotators of this practice can be assigned to score a night.', { fieldRule: { field: 'scorer_ids', rule: 'annotator' } });
    const id = await ctx.db.transaction((tx) => insertRound(tx, { patientId: patient.id, recordingId: night.id, createdBy: user.id, showAutomatic: body.show_automatic, scorerIds: body.scorer_ids }));
    return reply.code(201).send({ data: { round: await presentRound(ctx.db, (await findRound(ctx.db, id))!, user.id) } });
  });

  app.get('/scoring/assignments', { preHandler: auth, schema: scoringEndpoints['GET /scoring/assignments'] }, async (request): Promise<{ data: AssignmentsAnswer }> => {
    // An annotator's rounds to score; a physician's, every round of the practice (to find those waiting for them); an admin has none.
    const user = currentUser(request);
    const rows = user.is_annotator ? await assignmentsOf(ctx.db, user.id) : user.role === 'admin' ? [] : await practiceRoundsOf(ctx.db, actingPhysicianId(user));
    return { data: { assignments: rows.map((r) => ({ ...r, recording_date: nightDate(r.night) })) } };
  });
}

/** POST submit (the scorer), cancel (a physician). */
function roundStateRoutes(app: Api, ctx: AppContext) {
  const auth = authenticate(ctx);
  app.post('/scoring/rounds/submit', { preHandler: auth, schema: scoringEndpoints['POST /scoring/rounds/submit'] }, async (request) => {
    const user = currentUser(request);
    const round = await roundFor(ctx, request, request.body.round_id);
    const me = (await roundScorers(ctx.db, round.id)).find((s) => s.user_id === user.id);
    if (!me) throw new ApiError(403, 'scoring_not_scorer', 'You are not a scorer of this round.');
    if (me.submitted_at !== null) throw new ApiError(409, 'scoring_already_submitted', 'You have already submitted your scoring of this night.');
    if (round.status !== 'scoring') throw closed('submitting');
    await ctx.db.transaction(async (tx) => {
      await findRound(tx, round.id, true);
      await submitScorer(tx, round.id, user.id);
    });
    return { data: { round: await presentRound(ctx.db, (await findRound(ctx.db, round.id))!, user.id) } };
  });

  app.post('/scoring/rounds/cancel', { preHandler: auth, schema: scoringEndpoints['POST /scoring/rounds/cancel'] }, async (request) => {
    const user = physician(request);
    const round = await roundFor(ctx, request, request.body.round_id, 'write');
    if (round.status !== 'scoring' && round.status !== 'agreement') throw closed('cancelling');
    await setStatus(ctx.db, round.id, 'cancelled', user.id);
    return { data: { round: await presentRound(ctx.db, (await findRound(ctx.db, round.id))!, user.id) } };
  });
}

/** The agreement and the disagreements are shown once every scorer has submitted. */
const requireSubmitted = (round: RoundRow) => {
  if (round.status === 'scoring') throw new ApiError(409, 'scoring_not_submitted', 'The agreement is shown once every scorer has submitted.');
};

/** Checks a decision against the round's scorers and the night: 400 scoring_invalid_decision. */
async function checkDecision(ctx: AppContext, round: RoundRow, decision: Decision, scorers: readonly string[]) {
  const refuse = (field: string, rule: string) => new ApiError(400, 'scoring_invalid_decision', `Decision refused: ${field} ${rule}.`, { fieldRule: { field, rule } });
  if (decision.kind === 'scorer' && !scorers.includes(decision.scorer)) throw refuse('scorer', 'not_a_scorer');
  if (decision.kind !== 'mark') return;
  if (decision.end_ms <= decision.start_ms) throw refuse('end_ms', 'before_start');
  if (decision.start_ms < round.start_ms || decision.end_ms > round.stop_ms) throw refuse('start_ms', 'outside_recording');
  if (!(await listCategories(ctx.db, round.patient_id)).some((c) => c.label_id === decision.label)) throw refuse('label', 'unknown_category');
}

/** GET agreement and disagreements; POST decide and finish (a physician). */
function adjudicationRoutes(app: Api, ctx: AppContext) {
  const auth = authenticate(ctx);
  app.get('/scoring/rounds/agreement', { preHandler: auth, schema: scoringEndpoints['GET /scoring/rounds/agreement'] }, async (request) => {
    const round = await roundFor(ctx, request, request.query.round_id);
    requireSubmitted(round);
    return { data: await agreementAnswer(ctx.db, round, currentUser(request).id) };
  });

  app.get('/scoring/rounds/disagreements', { preHandler: auth, schema: scoringEndpoints['GET /scoring/rounds/disagreements'] }, async (request) => {
    const round = await roundFor(ctx, request, request.query.round_id);
    requireSubmitted(round);
    const { disagreements: _, ...answer } = await disagreementsAnswer(ctx.db, round);
    return { data: answer };
  });

  app.post('/scoring/rounds/decide', { preHandler: auth, schema: scoringEndpoints['POST /scoring/rounds/decide'] }, async (request) => {
    const user = physician(request);
    const round = await roundFor(ctx, request, request.body.round_id, 'write');
    requireSubmitted(round);
    if (round.status !== 'agreement') throw closed('decisions');
    const { items } = await disagreementsAnswer(ctx.db, round);
    if (!items.some((i) => i.item === request.body.item)) throw new ApiError(404, 'scoring_unknown_item', `No disagreement "${request.body.item}" in this round.`);
    await checkDecision(ctx, round, request.body.decision, (await roundScorers(ctx.db, round.id)).map((s) => `user:${s.user_id}`));
    await saveDecision(ctx.db, round.id, request.body.item, request.body.decision, user.id);
    const { disagreements: _, ...answer } = await disagreementsAnswer(ctx.db, round);
    return { data: answer };
  });

  app.post('/scoring/rounds/finish', { preHandler: auth, schema: scoringEndpoints['POST /scoring/rounds/finish'] }, async (request): Promise<{ data: FinishAnswer }> => {
    const user = physician(request);
    const round = await roundFor(ctx, request, request.body.round_id, 'write');
    requireSubmitted(round);
    const written = await finishRound(ctx.db, round.id, user.id, actingPhysicianId(user));
    return { data: { round: await presentRound(ctx.db, (await findRound(ctx.db, round.id))!, user.id), consensus_marks: written } };
  });
}

/** GET quality: an annotator their own; a physician any annotator of the practice. */
function qualityRoutes(app: Api, ctx: AppContext) {
  const auth = authenticate(ctx);
  app.get('/scoring/quality', { preHandler: auth, schema: scoringEndpoints['GET /scoring/quality'] }, async (request): Promise<{ data: ScorerQuality }> => {
    const caller = currentUser(request);
    const target = await annotatorOf(ctx.db, caller, request.query.user_id ?? caller.id);
    const rounds = await adjudicatedRoundsOf(ctx.db, target.id, request.query.nights ?? 10);
    const nights = [];
    for (const r of rounds) nights.push(await qualityNight(ctx.db, r, target.id));
    const mean = (xs: (number | null)[]) => {
      const v = xs.filter((x): x is number => x !== null);
      return v.length ? Math.round((v.reduce((s, x) => s + x, 0) / v.length) * 10_000) / 10_000 : null;
    };
    return { data: { user_id: target.id, name: target.name, nights, mean_kappa: mean(nights.map((n) => n.kappa)), mean_event_f1: mean(nights.map((n) => n.event_f1)) } };
  });
}

/** The double-scoring calls. */
export function scoringRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  roundRoutes(app, ctx);
  roundStateRoutes(app, ctx);
  adjudicationRoutes(app, ctx);
  qualityRoutes(app, ctx);
}
