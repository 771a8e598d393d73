// Comments and check-up dates of the Patient details tab (spec 2 §5, §6, §7).
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { practiceSessions, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let physician = '';
let secondary = '';
let annotator = '';
let stranger = '';
let patientId = 0;
beforeAll(async () => {
  server = await startTestServer();
  ({ physician, secondary, annotator, stranger, patientId } = await practiceSessions(server));
});
afterAll(() => server.close());

const comments = async (token = physician) => (await server.call('POST', '/patient/get-comment', { token, body: { id: patientId } })).json().data.comments as Array<{ id: number; comment: string; author: string; updated_date: string; user_id: number }>;

describe('comments', () => {
  it('adds, lists newest first, edits and deletes a comment', async () => {
    const added = await server.call('POST', '/patient/add-comment', { token: physician, body: { user_id: patientId, comment: '  Snores less since the CPAP titration.  ' } });
    expect(added.statusCode).toBe(200);
    expect(added.json().message).toBe('Comment added successfully');
    await server.call('POST', '/patient/add-comment', { token: physician, body: { user_id: patientId, comment: "Patient's wife reports pauses \\ at 3 am." } });
    let list = await comments();
    expect(list.map((c) => c.comment)).toEqual(["Patient's wife reports pauses \\ at 3 am.", 'Snores less since the CPAP titration.']);
    expect(list[0]!.author).toBe('Clara Meier');
    // Annotators read them.
    expect((await comments(annotator)).length).toBe(2);

    const first = list[1]!;
    const edited = await server.call('POST', '/patient/update-comment', { token: physician, body: { user_id: patientId, id: first.id, comment: 'Snores much less.', updated_date: first.updated_date } });
    expect(edited.statusCode).toBe(200);
    // A second edit from the same old version is stale: nothing is overwritten.
    const stale = await server.call('POST', '/patient/update-comment', { token: physician, body: { user_id: patientId, id: first.id, comment: 'Overwrite', updated_date: first.updated_date } });
    expect(stale.statusCode).toBe(409);
    list = await comments();
    expect(list.find((c) => c.id === first.id)!.comment).toBe('Snores much less.');

    expect((await server.call('POST', '/patient/delete-comment', { token: physician, body: { user_id: patientId, id: first.id } })).statusCode).toBe(200);
    expect((await comments()).map((c) => c.id)).not.toContain(first.id);
    expect((await server.call('POST', '/patient/delete-comment', { token: physician, body: { user_id: patientId, id: first.id } })).statusCode).toBe(404);
  });

  it('refuses empty and over-long comments, annotators, other authors and other practices', async () => {
    const empty = await server.call('POST', '/patient/add-comment', { token: physician, body: { user_id: patientId, comment: '   ' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Please enter a comment.');
    const long = await server.call('POST', '/patient/add-comment', { token: physician, body: { user_id: patientId, comment: 'x'.repeat(10_241) } });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toContain('10240');
    expect((await server.call('POST', '/patient/add-comment', { token: physician, body: { user_id: patientId, comment: 'x'.repeat(10_240) } })).statusCode).toBe(200);
    expect((await server.call('POST', '/patient/add-comment', { token: annotator, body: { user_id: patientId, comment: 'mine' } })).statusCode).toBe(403);
    expect((await server.call('POST', '/patient/add-comment', { token: stranger, body: { user_id: patientId, comment: 'hi' } })).statusCode).toBe(404);
    expect((await server.call('POST', '/patient/get-comment', { token: stranger, body: { id: patientId } })).statusCode).toBe(404);
    // The secondary user sees the comment but cannot change the physician's.
    const [latest] = await comments(secondary);
    const foreign = await server.call('POST', '/patient/update-comment', { token: secondary, body: { user_id: patientId, id: latest!.id, comment: 'changed' } });
    expect(foreign.statusCode).toBe(403);
    expect((await comments())[0]!.comment).toBe('x'.repeat(10_240));
  });
});

describe('check-ups', () => {
  const tomorrow = DateTime.utc().plus({ days: 1 }).toISODate()!;
  const inAWeek = DateTime.utc().plus({ days: 7 }).toISODate()!;

  it('adds upcoming check-ups from tomorrow, refuses taken and past dates, toggles completion', async () => {
    const add = (date: string, token = physician) => server.call('POST', '/patient/add-checkup', { token, body: { patient_id: patientId, checkup_date: date } });
    expect((await add(inAWeek)).statusCode).toBe(200);
    const res = await add(tomorrow);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.upcoming.map((c: { checkup_date: string }) => c.checkup_date)).toEqual([tomorrow, inAWeek]);
    const taken = await add(inAWeek);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('A check-up is already set for that date.');
    const past = await add(DateTime.utc().minus({ days: 2 }).toISODate()!);
    expect(past.statusCode).toBe(400);
    expect((await add('2026-02-30')).statusCode).toBe(400);
    expect((await add(DateTime.utc().plus({ days: 3 }).toISODate()!, annotator)).statusCode).toBe(403);

    const list = (await server.call('POST', '/patient/get-checkup-list', { token: annotator, body: { patient_id: patientId } })).json().data;
    const id = list.upcoming[0].checkup_date_id as number;
    const done = await server.call('POST', '/patient/mark-as-complete', { token: physician, body: { patient_id: patientId, checkup_date_id: id } });
    expect(done.json().data.past.map((c: { checkup_date_id: number }) => c.checkup_date_id)).toEqual([id]);
    expect(done.json().data.upcoming).toHaveLength(1);
    const undone = await server.call('POST', '/patient/mark-as-complete', { token: physician, body: { patient_id: patientId, checkup_date_id: id } });
    expect(undone.json().data.upcoming).toHaveLength(2);
    expect((await server.call('POST', '/patient/mark-as-complete', { token: stranger, body: { patient_id: patientId, checkup_date_id: id } })).statusCode).toBe(404);
  });
});
