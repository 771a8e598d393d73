import { describe, expect, it } from 'vitest';
import { agreementOf, epochGrid, epochStages, eventAgreement, matchOneToOne, pooledF1, respiratoryEvents, stageAgreement, type ScoredMark } from '../../server/scoring/agreement';
import { consensusOf, disagreementsOf } from '../../server/scoring/consensus';

const S = 1000;
const mark = (labelName: string, startS: number, endS: number, label = 1, kpi = 'AP_timing'): ScoredMark => ({ startMs: startS * S, endMs: endS * S, label, labelName, kpi });
/** Stage marks of one 30-s epoch each, from a list of stages (null: nothing scored). */
const staged = (stages: (string | null)[]): ScoredMark[] => stages.flatMap((s, i) => (s ? [mark(s, i * 30, i * 30 + 30, 10)] : []));

describe('stage agreement (hand-computed)', () => {
  it('percent and Cohen κ over ten epochs', () => {
    // A: W W N1 N2 N2 N2 N2 REM REM N2
    // B: W N1 N1 N2 N2 N2 N3 REM N2 N2
    // Same in epochs 0,2,3,4,5,7,9: po = 7/10 = 0.7.
    // Marginals A: W 2, N1 1, N2 5, REM 2; B: W 1, N1 2, N2 5, N3 1, REM 1.
    // pe = (2·1 + 1·2 + 5·5 + 2·1) / 100 = 0.31; κ = (0.7 − 0.31) / (1 − 0.31) = 0.39 / 0.69 = 0.565217…
    const a = ['Wake', 'Wake', 'N1', 'N2', 'N2', 'N2', 'N2', 'REM', 'REM', 'N2'];
    const b = ['Wake', 'N1', 'N1', 'N2', 'N2', 'N2', 'N3', 'REM', 'N2', 'N2'];
    const grid = epochGrid(0, 300 * S);
    const r = stageAgreement('a', 'b', epochStages(grid, staged(a)), epochStages(grid, staged(b)));
    expect(r).toEqual({ a: 'a', b: 'b', epochs: 10, percent: 70, kappa: 0.5652, reason: null });
  });

  it('counts only epochs both scored; an epoch takes the stage covering its centre', () => {
    // One N2 mark 10 s–50 s covers the centre of epoch 0 (15 s) but not of epoch 1 (45 s < 50 s does: 45 s is inside).
    // So epochs 0 and 1 are N2; a mark 50 s–70 s covers no centre (75 s is outside): epoch 2 unscored.
    const grid = epochGrid(0, 90 * S);
    expect(epochStages(grid, [mark('N2', 10, 50), mark('REM', 50, 70)])).toEqual(['N2', 'N2', null]);
    // B scored epochs 1 and 2 only: one common epoch, the same stage: 100 %, and pe = 1 → κ defined as 1.
    const r = stageAgreement('a', 'b', ['N2', 'N2', null], [null, 'N2', 'REM']);
    expect(r).toMatchObject({ epochs: 1, percent: 100, kappa: 1, reason: null });
  });

  it('says why when there is nothing to compare', () => {
    expect(stageAgreement('a', 'b', [null, null], ['N2', null])).toMatchObject({ percent: null, kappa: null, reason: 'no_stage_marks' });
    expect(stageAgreement('a', 'b', ['N2', null], [null, 'N2'])).toMatchObject({ epochs: 0, kappa: null, reason: 'no_common_epochs' });
  });
});

describe('event agreement (hand-computed)', () => {
  it('matches one to one, greatest overlap first', () => {
    // A: [0,10] [20,30] [40,50]; B: [5,25] [28,45] [100,110].
    // Overlaps: A0–B0 5, A1–B0 5, A1–B1 2, A2–B1 5. Greatest first (ties by A's start):
    // A0–B0 taken, A1–B0 (B0 used), A2–B1 taken, A1–B1 (B1 used): 2 matched.
    const a = [mark('Apnea', 0, 10), mark('Apnea', 20, 30), mark('Apnea', 40, 50)];
    const b = [mark('Obstructive Apnea', 5, 25), mark('Central Apnea', 28, 45), mark('Apnea', 100, 110)];
    expect(matchOneToOne(a, b)).toBe(2);
    // Sensitivity 2/3, PPV 2/3, F1 = 2·2 / (3 + 3) = 0.6667.
    expect(eventAgreement('apnea', { key: 'a', marks: a }, { key: 'b', marks: b })).toEqual({ category: 'apnea', a: 'a', b: 'b', a_count: 3, b_count: 3, matched: 2, sensitivity: 0.6667, ppv: 0.6667, f1: 0.6667 });
  });

  it('a greater overlap wins over an earlier one', () => {
    // A: [0,10] [8,30]; B: [5,20]. A0–B0 overlaps 5 s, A1–B0 12 s: B0 goes to A1, A0 stays unmatched.
    expect(matchOneToOne([mark('Apnea', 0, 10), mark('Apnea', 8, 30)], [mark('Apnea', 5, 20)])).toBe(1);
    // Touching is not overlapping.
    expect(matchOneToOne([mark('Apnea', 0, 10)], [mark('Apnea', 10, 20)])).toBe(0);
  });

  it('pools F1 over categories and leaves the other categories apart', () => {
    // Apnea: A 1, B 1, matched 1. Hypopnea: A 1, B 0. Arousal: A 0, B 1 (overlapping A's hypopnea, another category).
    // Pooled F1 = 2·1 / (2 + 2) = 0.5.
    const a = { key: 'a', marks: [mark('Apnea', 0, 10), mark('Hypoapnea', 50, 60)] };
    const b = { key: 'b', marks: [mark('Apnea', 2, 12), mark('Arousal', 52, 55), mark('N2', 0, 30)] };
    expect(pooledF1(a, b)).toBe(0.5);
  });

  it('AHI per scorer: apneas and hypopneas per hour, not those in the set’s own Wake epochs', () => {
    // Two apneas and one hypopnea; the one at 35 s starts in epoch 1, scored Wake: 2 events over 0.5 h = 4/h.
    const grid = epochGrid(0, 120 * S);
    const set = { key: 'u', marks: [mark('Apnea', 5, 15), mark('Hypoapnea', 35, 45), mark('Central Apnea', 65, 75), mark('Wake', 30, 60), mark('Desaturation', 5, 20)] };
    expect(respiratoryEvents(grid, set)).toBe(2);
    const { ahi } = agreementOf(grid, [set], { hours: 0.5, basis: 'sleep', breathing: true });
    expect(ahi[0]).toEqual({ scorer: 'u', events: 2, ahi: 4, hours: 0.5, basis: 'sleep', reason: null });
    expect(agreementOf(grid, [set], { hours: 0.5, basis: 'sleep', breathing: false }).ahi[0]).toMatchObject({ ahi: null, reason: 'no_breathing_signal' });
  });
});

describe('disagreements and consensus', () => {
  // u1: apnea 0–10 s, apnea 60–70 s, N2 over the four epochs.
  // u2: apnea 2–12 s, hypopnea 100–110 s, N2 0–60 s, N3 60–120 s.
  const grid = epochGrid(0, 120 * S);
  const u1 = { key: 'user:1', marks: [mark('Apnea', 0, 10, 1, 'AP_timing'), mark('Apnea', 60, 70), mark('N2', 0, 120, 12)] };
  const u2 = { key: 'user:2', marks: [mark('Apnea', 2, 12, 1, 'SPO2'), mark('Hypoapnea', 100, 110, 2), mark('N2', 0, 60, 12), mark('N3', 60, 120, 13)] };

  it('finds the clusters and epochs where the scorers differ', () => {
    const d = disagreementsOf(grid, [u1, u2]);
    // The first apneas agree: their consensus spans the mean start (1 s) to the mean end (11 s), on both channels.
    expect(d.agreedEvents).toEqual([{ startMs: 1000, endMs: 11000, label: 1, labelName: 'Apnea', kpi: 'AP_timing,SPO2' }]);
    expect(d.items.map((i) => i.item)).toEqual(['event:apnea:60000', 'stage:60000', 'event:hypopnea:100000']);
    const apnea = d.items.find((i) => i.item === 'event:apnea:60000')!;
    expect(apnea.options).toEqual([{ scorer: 'user:1', marks: [mark('Apnea', 60, 70)] }, { scorer: 'user:2', marks: [] }]);
    const stage = d.items.find((i) => i.kind === 'stage')!;
    expect([stage.startMs, stage.endMs]).toEqual([60000, 120000]);
    expect(stage.options.map((o) => o.marks[0]!.labelName)).toEqual(['N2', 'N3']);
    // Agreed: the apnea cluster and the run of N2 epochs 0–1.
    expect(d.agreed).toBe(2);
  });

  it('builds the consensus from what was agreed and what was decided', () => {
    const d = disagreementsOf(grid, [u1, u2]);
    const decisions = new Map([
      ['event:apnea:60000', { kind: 'scorer' as const, scorer: 'user:1' }],
      ['event:hypopnea:100000', { kind: 'none' as const }],
      ['stage:60000', { kind: 'scorer' as const, scorer: 'user:2' }],
    ]);
    const c = consensusOf(grid, d, decisions, () => 'x');
    expect(c.map((m) => [m.labelName, m.startMs / S, m.endMs / S])).toEqual([
      ['N2', 0, 60],
      ['Apnea', 1, 11],
      ['Apnea', 60, 70],
      ['N3', 60, 120],
    ]);
    // A new mark decided in place of a stage run: that mark, and the run's epochs unscored.
    const drawn = consensusOf(grid, d, new Map([['stage:60000', { kind: 'mark' as const, start_ms: 60000, end_ms: 90000, label: 14 }]]), () => 'REM');
    expect(drawn.filter((m) => m.labelName === 'REM')).toEqual([{ startMs: 60000, endMs: 90000, label: 14, labelName: 'REM', kpi: 'AP_timing' }]);
  });
});
