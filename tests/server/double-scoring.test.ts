import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulateForPatient } from '../../server/simulator/simulated';
import { MAX_SCORERS } from '../../contract/scoring-rounds';
import { DEMO_ACCOUNTS, signIn, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let physician = '';
let secondary = '';
let scorer1 = '';
let scorer2 = '';
let a1 = 0;
let a2 = 0;
let patientId = 0;
let night = 0;
let t0 = 0;
const labels: Record<string, number> = {};

const S = 1000;

beforeAll(async () => {
  server = await startTestServer();
  physician = (await signIn(server, DEMO_ACCOUNTS.physician)).token;
  secondary = (await signIn(server, DEMO_ACCOUNTS.secondary)).token;
  ({ token: scorer1, userId: a1 } = await signIn(server, DEMO_ACCOUNTS.annotator));
  ({ token: scorer2, userId: a2 } = await signIn(server, DEMO_ACCOUNTS.annotator2));
  patientId = (await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1003'`))[0].id;
  const [recordingId] = await simulateForPatient(server.db, { patientId, patientCode: 'NCT1003', deviceId: 'NCT0003', timezone: 'Europe/Zurich', nights: 1, profile: 'moderate_osa', lastEvening: '2026-03-09', seed: 'double-scoring' });
  const [r] = await server.db.query<{ night_key: number; start_ms: string }>('select night_key, start_ms from recordings where id = $1', [recordingId]);
  night = Number(r.night_key);
  t0 = Number(r.start_ms);
  for (const [label, color] of [['N2', '#123456'], ['N3', '#654321']]) {
    const res = await server.call('POST', '/patient/add-label', { token: physician, body: { patient_id: patientId, label, color_code: color } });
    expect(res.statusCode).toBe(201);
  }
  const list = (await server.call('POST', '/patient/get-label-list', { token: physician, body: { patient_id: patientId } })).json().data.labels as { label: string; label_id: number }[];
  for (const l of list) labels[l.label] = l.label_id;
}, 180_000);
afterAll(() => server.close());

/** Adds one mark `from`–`to` seconds after the night's start. */
const add = (token: string, label: string, from: number, to: number) =>
  server.call('POST', '/analytics/patient/new-annotations', { token, body: { patient_id: patientId, night, kpi: 'AP_timing', start_time: t0 + from * S, end_time: t0 + to * S, label: labels[label] } });
const marks = async (token: string) => {
  const res = await server.call('POST', '/analytics/patient/get-annotations', { token, body: { patient_id: patientId, night } });
  expect(res.statusCode).toBe(200);
  // The list as columns (decision 0994) shows each scorer exactly what the list does.
  const columns = await server.call('POST', '/analytics/patient/get-annotation-columns', { token, body: { patient_id: patientId, night } });
  expect(columns.json().data.columns.annotation_map_id).toEqual(res.json().data.annotations.filter((a: { type: string }) => a.type !== 'device').map((a: { annotation_map_id: number }) => a.annotation_map_id));
  return res.json().data.annotations as { annotation_map_id: number; start_ms: number; end_ms: number; label: number; type: string; created_by: number | null; scoring_round_id: number | null; consensus_round_id: number | null; version: number }[];
};
const post = (url: string, token: string, body: unknown) => server.call('POST', url, { token, body });
const get = (url: string, token: string) => server.call('GET', url, { token });
const createRound = (token = physician, extra: Record<string, unknown> = {}) => post('/scoring/rounds', token, { patient_id: patientId, night, scorer_ids: [a1, a2], show_automatic: false, ...extra });

describe('double scoring, blind, agreed and adjudicated (issue 36 points 2–3)', () => {
  let roundId = 0;
  let physicianMark = 0;

  it('assigns a night to two annotators; only physicians may', async () => {
    physicianMark = (await add(physician, 'Apnea', 3000, 3020)).json().data.annotations[0].annotation_map_id;
    const annotators = (await get(`/scoring/annotators?patient_id=${patientId}`, physician)).json().data.annotators as { id: number }[];
    expect(annotators.map((a) => a.id).sort()).toEqual([a1, a2].sort());
    expect((await createRound(scorer1)).statusCode).toBe(403);
    expect((await createRound(physician, { scorer_ids: [a1, (await signIn(server, DEMO_ACCOUNTS.secondary)).userId] })).json().code).toBe('scoring_not_annotator');
    expect((await createRound(physician, { scorer_ids: [a1] })).statusCode).toBe(400);
    expect((await createRound(physician, { scorer_ids: Array.from({ length: MAX_SCORERS + 1 }, (_, i) => a1 + i) })).statusCode).toBe(400);
    const res = await createRound();
    expect(res.statusCode).toBe(201);
    const round = res.json().data.round;
    roundId = round.round_id;
    expect(round).toMatchObject({ status: 'scoring', blind: false, show_automatic: false });
    expect(round.scorers.map((s: { key: string }) => s.key)).toEqual([`user:${a1}`, `user:${a2}`]);
    const again = await createRound(secondary);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('scoring_round_open');
    expect((await get(`/scoring/rounds?patient_id=${patientId}&night=${night}`, scorer1)).json().data.round).toMatchObject({ round_id: roundId, blind: true });
    expect((await get('/scoring/assignments', scorer2)).json().data.assignments[0]).toMatchObject({ round_id: roundId, patient_code: 'NCT1003', status: 'scoring', submitted_at: null });
  });

  it('each scorer sees only their own marks; the physician sees neither set', async () => {
    // Scorer 1: N2 epochs 0–6, N3 7–9; apneas at 600 s and 1200 s; a hypopnea at 1800 s.
    for (const [label, from, to] of [['N2', 0, 210], ['N3', 210, 300], ['Apnea', 600, 620], ['Apnea', 1200, 1215], ['Hypoapnea', 1800, 1820]] as const) expect((await add(scorer1, label, from, to)).statusCode).toBe(201);
    // Scorer 2: N2 epochs 0–4, N3 5–9; the first apnea (shifted 2 s), the hypopnea (shifted 5 s), a movement at 2400 s.
    for (const [label, from, to] of [['N2', 0, 150], ['N3', 150, 300], ['Apnea', 602, 622], ['Hypoapnea', 1805, 1825], ['Movement', 2400, 2405]] as const) expect((await add(scorer2, label, from, to)).statusCode).toBe(201);
    const own1 = await marks(scorer1);
    expect(own1).toHaveLength(5);
    expect(own1.every((m) => m.created_by === a1 && m.scoring_round_id === roundId)).toBe(true);
    const own2 = await marks(scorer2);
    expect(own2.every((m) => m.created_by === a2)).toBe(true);
    expect((await marks(physician)).map((m) => m.annotation_map_id)).toEqual([physicianMark]);
    // Not another's set, not a mark of record while blind.
    const other = own2[0]!;
    expect((await post('/analytics/patient/update-annotations', scorer1, { annotation_map_id: other.annotation_map_id, version: other.version, comment: 'x' })).statusCode).toBe(404);
    const record = await post('/analytics/patient/delete-annotations', scorer1, { ids: [physicianMark] });
    expect(record.statusCode).toBe(409);
    expect(record.json().code).toBe('scoring_own_marks_only');
  });

  it('keeps the scoring files and the CSV blind too', async () => {
    const [{ id: recordingId }] = await server.db.query<{ id: number }>('select id from recordings where patient_id = $1 and night_key = $2', [patientId, night]);
    const csv1 = (await get(`/analytics/patient/annotations-csv?patient_id=${patientId}&recording_id=${recordingId}`, scorer1)).body;
    expect(csv1.trim().split('\n')).toHaveLength(1 + 5);
    const xml = (await get(`/analytics/patient/export-nsrr-xml?patient_id=${patientId}&recording_id=${recordingId}`, scorer2)).body;
    // The file's first ScoredEvent is its recording start; then the scorer's five marks.
    expect(xml.match(/<ScoredEvent>/g)).toHaveLength(1 + 5);
    const xmlPhysician = (await get(`/analytics/patient/export-nsrr-xml?patient_id=${patientId}&recording_id=${recordingId}&source=human`, physician)).body;
    expect(xmlPhysician.match(/<ScoredEvent>/g)).toHaveLength(1 + 1);
  });

  it('submits: the set freezes; the agreement waits for every scorer', async () => {
    expect((await get(`/scoring/rounds/agreement?round_id=${roundId}`, physician)).json().code).toBe('scoring_not_submitted');
    expect((await post('/scoring/rounds/submit', physician, { round_id: roundId })).json().code).toBe('scoring_not_scorer');
    expect((await post('/scoring/rounds/submit', scorer1, { round_id: roundId })).statusCode).toBe(200);
    expect((await post('/scoring/rounds/submit', scorer1, { round_id: roundId })).json().code).toBe('scoring_already_submitted');
    expect((await add(scorer1, 'Apnea', 4000, 4010)).json().code).toBe('scoring_set_frozen');
    const mine = (await marks(scorer1))[0]!;
    expect((await post('/analytics/patient/delete-annotations', scorer1, { ids: [mine.annotation_map_id] })).json().code).toBe('scoring_set_frozen');
    // Still blind until the round leaves 'scoring'.
    expect(await marks(scorer1)).toHaveLength(5);
    const done = await post('/scoring/rounds/submit', scorer2, { round_id: roundId });
    expect(done.json().data.round.status).toBe('agreement');
    expect((await marks(scorer1)).map((m) => m.annotation_map_id)).toEqual([physicianMark]);
    // Waiting for adjudication, a scorer makes no mark of record (Finish would replace it unsaid),
    // nor changes one; the physician still may.
    for (const token of [scorer1, scorer2]) {
      const refused = await add(token, 'Apnea', 4000, 4010);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toContain('waits for adjudication');
    }
    expect((await post('/analytics/patient/delete-annotations', scorer2, { ids: [physicianMark] })).json().code).toBe('scoring_set_frozen');
    expect((await marks(scorer1)).map((m) => m.annotation_map_id)).toEqual([physicianMark]);
  });

  it('shows the agreement: κ, percent, event F1 and AHI per scorer', async () => {
    const res = await get(`/scoring/rounds/agreement?round_id=${roundId}`, physician);
    expect(res.statusCode).toBe(200);
    const ag = res.json().data;
    expect(ag.matching_rule).toBe('overlap_one_to_one');
    // The physician's list of the practice's rounds says this one waits for them.
    const listed = (await get('/scoring/assignments', physician)).json().data.assignments.find((r: { round_id: number }) => r.round_id === roundId);
    expect(listed).toMatchObject({ patient_code: 'NCT1003', status: 'agreement', submitted_at: null });
    expect(ag.scorers.map((s: { key: string }) => s.key)).toEqual([`user:${a1}`, `user:${a2}`, 'automatic']);
    // Epochs 0–4 N2 both, 5–6 N2 vs N3, 7–9 N3 both: po = 8/10; marginals 7/3 and 5/5: pe = 0.5; κ = 0.3 / 0.5 = 0.6.
    expect(ag.staging.find((s: { a: string; b: string }) => s.a === `user:${a1}` && s.b === `user:${a2}`)).toEqual({ a: `user:${a1}`, b: `user:${a2}`, epochs: 10, percent: 80, kappa: 0.6, reason: null });
    const ev = (category: string) => ag.events.find((e: { category: string; a: string; b: string }) => e.category === category && e.a === `user:${a1}` && e.b === `user:${a2}`);
    // Apneas: 2 against 1, one matched: sensitivity 1/2, PPV 1, F1 2/3.
    expect(ev('apnea')).toMatchObject({ a_count: 2, b_count: 1, matched: 1, sensitivity: 0.5, ppv: 1, f1: 0.6667 });
    expect(ev('hypopnea')).toMatchObject({ matched: 1, f1: 1 });
    expect(ev('movement')).toMatchObject({ a_count: 0, b_count: 1, matched: 0, sensitivity: null, ppv: 0, f1: 0 });
    const ahi = ag.ahi.find((x: { scorer: string }) => x.scorer === `user:${a1}`);
    expect(ahi.events).toBe(3);
    if (ahi.ahi !== null) expect(ahi.ahi).toBeCloseTo(3 / ahi.hours, 1);
  });

  let automaticTrendAhi: { value: number; events_source?: string };
  /** The night's AHI point of the trend, as the trend view asks for it. */
  const trendAhi = async () => {
    const res = await get(`/analytics/patient-trendview/type=AHI?patient_id=${patientId}&device_start_time=${night - 86_400}&device_stop_time=${night + 2 * 86_400}`, physician);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data.AHI as Array<{ night: number; value: number; events_source?: string }>).find((p) => p.night === night)!;
  };

  it('adjudicates three disagreements; bad decisions are refused with their codes', async () => {
    const d = (await get(`/scoring/rounds/disagreements?round_id=${roundId}`, physician)).json().data;
    const keys = d.items.map((i: { item: string }) => i.item);
    expect(keys).toEqual([`stage:${t0 + 150 * S}`, `event:apnea:${t0 + 1200 * S}`, `event:movement:${t0 + 2400 * S}`]);
    expect(d.agreed).toBe(4);
    const decide = (item: string, decision: unknown, token = physician) => post('/scoring/rounds/decide', token, { round_id: roundId, item, decision });
    expect((await decide(keys[0], { kind: 'none' }, scorer1)).statusCode).toBe(403);
    expect((await decide('event:apnea:1', { kind: 'none' })).json().code).toBe('scoring_unknown_item');
    expect((await decide(keys[0], { kind: 'scorer', scorer: 'user:999999' })).json()).toMatchObject({ code: 'scoring_invalid_decision', data: { field: 'scorer' } });
    expect((await decide(keys[0], { kind: 'mark', start_ms: t0 + 200 * S, end_ms: t0 + 150 * S, label: labels.N3 })).json()).toMatchObject({ code: 'scoring_invalid_decision', data: { rule: 'before_start' } });
    expect((await decide(keys[0], { kind: 'mark', start_ms: t0 - 100 * S, end_ms: t0 + 150 * S, label: labels.N3 })).json()).toMatchObject({ code: 'scoring_invalid_decision', data: { rule: 'outside_recording' } });
    expect((await decide(keys[0], { kind: 'mark', start_ms: t0 + 150 * S, end_ms: t0 + 210 * S, label: 999999 })).json()).toMatchObject({ code: 'scoring_invalid_decision', data: { rule: 'unknown_category' } });
    expect((await decide(keys[0], { kind: 'maybe' })).statusCode).toBe(400);
    expect((await decide(keys[0], { kind: 'scorer', scorer: `user:${a2}` })).statusCode).toBe(200);
    expect((await decide(keys[1], { kind: 'scorer', scorer: `user:${a1}` })).statusCode).toBe(200);
    // The trend is asked (and kept) before the consensus exists: its AHI is then Nocturne's own.
    // Twice: the first stores the night's rows, the second answer is kept.
    await trendAhi();
    automaticTrendAhi = await trendAhi();
    expect(automaticTrendAhi.events_source).toBeUndefined();
    const early = await post('/scoring/rounds/finish', physician, { round_id: roundId });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'scoring_undecided', data: { params: { count: 1 } } });
    expect((await decide(keys[2], { kind: 'none' })).json().data.items.every((i: { decision: unknown }) => i.decision !== null)).toBe(true);
    expect((await post('/scoring/rounds/finish', scorer1, { round_id: roundId })).statusCode).toBe(403);
    const done = await post('/scoring/rounds/finish', physician, { round_id: roundId });
    expect(done.statusCode).toBe(200);
    expect(done.json().data.round.status).toBe('adjudicated');
    expect((await post('/scoring/rounds/finish', physician, { round_id: roundId })).json().code).toBe('scoring_round_closed');
  });

  it('makes the consensus the marks of record; the summary counts it; every set is kept', async () => {
    const record = await marks(physician);
    // Apnea (mean of 600–620 and 602–622: 601–621), apnea 1200–1215, hypopnea 1802.5–1822.5 → rounded ms, N2 0–150, N3 150–300.
    expect(record.map((m) => [m.label, (m.start_ms - t0) / S, (m.end_ms - t0) / S])).toEqual([
      [labels.N2, 0, 150],
      [labels.N3, 150, 300],
      [labels.Apnea, 601, 621],
      [labels.Apnea, 1200, 1215],
      [labels.Hypoapnea, 1802.5, 1822.5],
    ]);
    expect(record.every((m) => m.consensus_round_id === roundId && m.type === 'custom')).toBe(true);
    const [deleted] = await server.db.query<{ delete_flag: number }>('select delete_flag from annotations where annotation_map_id = $1', [physicianMark]);
    expect(deleted.delete_flag).toBe(1);
    const sets = await server.db.query<{ created_by: number; n: number }>('select created_by, count(*)::int as n from annotations where scoring_round_id = $1 and delete_flag = 0 group by created_by order by created_by', [roundId]);
    expect(sets).toEqual([{ created_by: Math.min(a1, a2), n: 5 }, { created_by: Math.max(a1, a2), n: 5 }]);

    const res = await post('/analytics/patient/all-kpi-summary', physician, { patient_id: patientId, night });
    expect(res.statusCode, res.body).toBe(200);
    const summary = res.json().data;
    expect(summary).toMatchObject({ events_source: 'consensus', events_round_id: roundId, apneas: 2, hypopneas: 1 });
    // Per the hours the detectors' AHI is per (the sleep with a breathing signal, or the monitoring time).
    expect(summary.ahi).toBeCloseTo(3 / summary.ahi_hours, 2);
    const kpi = (await get(`/analytics/patient/summary/kpi=AHI?patient_id=${patientId}&night=${night}`, physician)).json().data;
    expect(kpi).toMatchObject({ ahi: summary.ahi, apneas: 2, hypopneas: 1, events_source: 'consensus' });
    const ag = (await get(`/scoring/rounds/agreement?round_id=${roundId}`, physician)).json().data;
    expect(ag.ahi.find((x: { scorer: string }) => x.scorer === 'consensus').events).toBe(3);
    // The trend follows (its kept answer was left behind by the round's new state): the same AHI as the summary.
    const trend = await trendAhi();
    expect(trend).toMatchObject({ value: summary.ahi, events_source: 'consensus' });
    expect(trend.value).not.toBe(automaticTrendAhi.value);
  });

  it('tells each annotator their agreement with consensus', async () => {
    // Scorer 1 against the consensus: epochs as against scorer 2 (κ 0.6); events 3 of 3 matched: F1 1.
    const q1 = (await get('/scoring/quality', scorer1)).json().data;
    expect(q1).toMatchObject({ user_id: a1, mean_kappa: 0.6, mean_event_f1: 1 });
    expect(q1.nights[0]).toMatchObject({ round_id: roundId, night, kappa: 0.6, event_f1: 1 });
    // Scorer 2: the same stages (κ 1); apnea 1 of 2, hypopnea 1 of 1, movement 0 of 0: F1 = 2·2 / (3 + 3).
    const q2 = (await get(`/scoring/quality?user_id=${a2}`, physician)).json().data;
    expect(q2.nights[0]).toMatchObject({ kappa: 1, event_f1: 0.6667 });
    expect((await get(`/scoring/quality?user_id=${a2}`, scorer1)).statusCode).toBe(404);
    expect((await get('/scoring/quality?nights=0', scorer1)).statusCode).toBe(400);
  });

  it('shows a scorer the automatic marks when allowed; cancels a round: the sets stay, never of record', async () => {
    expect((await post('/analytics/patient/generate-system-annotations', physician, { patient_id: patientId, night, type: 'system' })).statusCode).toBeLessThan(300);
    const system = (await marks(physician)).filter((m) => m.type === 'system').length;
    expect(system).toBeGreaterThan(0);
    const round = (await createRound(physician, { show_automatic: true })).json().data.round;
    expect((await add(scorer1, 'Apnea', 5000, 5010)).statusCode).toBe(201);
    // Scorer 1 sees Nocturne's marks and their own, not the consensus (human marks of record); scorer 2 not scorer 1's.
    const seen = await marks(scorer1);
    expect(seen.filter((m) => m.type === 'system')).toHaveLength(system);
    expect(seen.filter((m) => m.type !== 'system').map((m) => [m.created_by, m.scoring_round_id])).toEqual([[a1, round.round_id]]);
    expect((await marks(scorer2)).every((m) => m.type === 'system')).toBe(true);
    expect((await post('/scoring/rounds/cancel', scorer1, { round_id: round.round_id })).statusCode).toBe(403);
    const res = await post('/scoring/rounds/cancel', physician, { round_id: round.round_id });
    expect(res.json().data.round.status).toBe('cancelled');
    expect((await post('/scoring/rounds/cancel', physician, { round_id: round.round_id })).json().code).toBe('scoring_round_closed');
    expect((await marks(physician)).some((m) => m.start_ms === t0 + 5000 * S)).toBe(false);
    expect((await marks(scorer1)).some((m) => m.start_ms === t0 + 5000 * S)).toBe(false);
    expect((await get('/scoring/rounds/agreement?round_id=99999999', physician)).json()).toMatchObject({ code: 'not_found', data: { params: { thing: 'scoring_round' } } });
  });
});
