// Pure logic of the histories and questionnaires (issue 17 point 3).
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { checkupProblem, entriesUpTo, historyProblem, screeningProblem } from '../../contract/questionnaire-rules';
import { fromLocalInput, nightDayEnd, toLocalInput } from '../../src/features/patient-details/historyTime';
import { initialScreening, screeningAnswers, screeningReducer } from '../../src/features/patient-admin/logic/screening';

const NOW = Date.UTC(2026, 10, 23, 8, 0);

describe('historyProblem', () => {
  it('accepts a trimmed value and a time from 2000 up to a day ahead', () => {
    expect(historyProblem(NOW, '  Headache ', NOW)).toBeNull();
    expect(historyProblem(NOW + 23 * 3_600_000, 'Plan starts tomorrow', NOW)).toBeNull();
    expect(historyProblem(Date.UTC(2000, 0, 1), 'Old', NOW)).toBeNull();
  });
  it('names what is wrong', () => {
    expect(historyProblem(NOW, '   ', NOW)).toBe('value');
    expect(historyProblem(NOW, 'x'.repeat(501), NOW)).toBe('valueTooLong');
    expect(historyProblem(NOW, ` ${'x'.repeat(500)} `, NOW)).toBeNull();
    expect(historyProblem(NOW + 25 * 3_600_000, 'Too far ahead', NOW)).toBe('timestamp');
    expect(historyProblem(Date.UTC(1999, 11, 31), 'Too old', NOW)).toBe('timestamp');
    expect(historyProblem(Number.NaN, 'No time', NOW)).toBe('timestamp');
  });
});

describe('entriesUpTo', () => {
  const e = (id: number, timestamp: number) => ({ id, timestamp });
  it('keeps entries before the end of the night\'s day, newest first, ties by newest id', () => {
    const end = Date.UTC(2026, 10, 23);
    const list = [e(1, end - 10), e(2, end), e(3, end - 1000), e(4, end + 1), e(5, end - 10)];
    expect(entriesUpTo(list, end).map((x) => x.id)).toEqual([5, 1, 3]);
    expect(list.map((x) => x.id)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('times in the patient\'s zone', () => {
  it('turns a wall-clock input into the instant in the patient\'s zone and back', () => {
    const ms = fromLocalInput('2026-03-29T01:30', 'Europe/Vienna')!;
    expect(ms).toBe(Date.UTC(2026, 2, 29, 0, 30));
    expect(toLocalInput(ms, 'Europe/Vienna')).toBe('2026-03-29T01:30');
    expect(toLocalInput(ms, 'America/New_York')).toBe('2026-03-28T20:30');
    expect(fromLocalInput('', 'Europe/Vienna')).toBeNull();
    expect(fromLocalInput('2026-02-30T10:00', 'Europe/Vienna')).toBeNull();
  });
  it('ends a night at the end of the day it ends on, in the patient\'s zone', () => {
    // A night ending 06:30 in Vienna on 23 Nov (05:30 UTC) counts entries up to 24 Nov 00:00 Vienna.
    const stop = Date.UTC(2026, 10, 23, 5, 30);
    expect(nightDayEnd(stop, 'Europe/Vienna')).toBe(DateTime.fromISO('2026-11-24T00:00', { zone: 'Europe/Vienna' }).toMillis());
    // The same instant is still 22 Nov in Los Angeles.
    expect(nightDayEnd(stop, 'America/Los_Angeles')).toBe(DateTime.fromISO('2026-11-23T00:00', { zone: 'America/Los_Angeles' }).toMillis());
  });
});

describe('screening answers', () => {
  const passing = { implant: 'no', pregnant: 'no', underAge: 'no', infoSheet: 'yes' };
  it('lets allocation proceed only on no, no, no, yes and names the first question that blocks or is missing', () => {
    expect(screeningProblem(passing)).toBeNull();
    expect(screeningProblem({ ...passing, implant: 'yes' })).toBe('implant');
    expect(screeningProblem({ ...passing, infoSheet: 'no' })).toBe('infoSheet');
    expect(screeningProblem({ implant: 'no' })).toBe('pregnant');
    expect(screeningProblem({ ...passing, extra: 'no' })).toBe('extra');
  });
  it('gives the wizard\'s answers to send only once they pass', () => {
    let state = initialScreening;
    expect(screeningAnswers(state)).toBeNull();
    for (const [question, answer] of Object.entries(passing)) state = screeningReducer(state, { type: 'answer', question: question as 'implant', answer: answer as 'no' });
    expect(screeningAnswers(state)).toEqual(passing);
    state = screeningReducer(state, { type: 'answer', question: 'pregnant', answer: 'yes' });
    expect(screeningAnswers(state)).toBeNull();
  });
});

describe('check-up questionnaire', () => {
  const answers = { sleepQuality: 'fair', daytimeSleepiness: 'no', medicationChanged: 'yes', deviceProblems: 'no' };
  it('wants every question answered with one of its choices, the note optional', () => {
    expect(checkupProblem(answers)).toBeNull();
    expect(checkupProblem({ ...answers, note: 'Snoring less' })).toBeNull();
    expect(checkupProblem({ ...answers, sleepQuality: 'yes' })).toBe('sleepQuality');
    expect(checkupProblem({ sleepQuality: 'good' })).toBe('daytimeSleepiness');
    expect(checkupProblem({ ...answers, note: 'x'.repeat(1001) })).toBe('note');
    expect(checkupProblem({ ...answers, mood: 'good' })).toBe('mood');
  });
});
