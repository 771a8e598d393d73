import { describe, expect, it } from 'vitest';
import type { RoundScorer } from '../../contract/scoring-rounds';
import { adjudicationWindow } from '../../src/features/scoring/Adjudication';
import { onePerPair } from '../../src/features/scoring/AgreementView';

// The double-scoring panel's pure parts (issue 36 point 2): which pairs the agreement lists, and
// the window the charts move to for a disagreement.

const scorer = (key: string, kind: RoundScorer['kind']): RoundScorer => ({ key, kind, user_id: null, name: key, submitted_at: null, marks: 0 });
const scorers = [scorer('user:7', 'human'), scorer('user:3', 'human'), scorer('automatic', 'automatic'), scorer('device', 'device')];

describe('the agreement table', () => {
  it('lists each pair once, the scorer listed first as the reference', () => {
    const rows = [
      { a: 'user:7', b: 'user:3', f1: 0.4 },
      { a: 'user:3', b: 'user:7', f1: 0.4 },
      { a: 'automatic', b: 'user:7', f1: 0.1 },
      { a: 'user:7', b: 'automatic', f1: 0.1 },
      { a: 'device', b: 'automatic', f1: 0.9 },
      { a: 'automatic', b: 'device', f1: 0.9 },
    ];
    expect(onePerPair(rows, scorers)).toEqual([
      { a: 'user:7', b: 'user:3', f1: 0.4 },
      { a: 'user:7', b: 'automatic', f1: 0.1 },
      { a: 'automatic', b: 'device', f1: 0.9 },
    ]);
  });

  it('keeps a pair naming a scorer the round does not list only once, after the listed ones', () => {
    expect(onePerPair([{ a: 'user:7', b: 'consensus' }, { a: 'consensus', b: 'user:7' }], scorers)).toEqual([{ a: 'user:7', b: 'consensus' }]);
  });
});

describe('the adjudication window', () => {
  const night = { startMs: 1_000_000, stopMs: 1_000_000 + 8 * 3_600_000 };

  it('shows the disagreement with 30 s either side', () => {
    expect(adjudicationWindow({ start_ms: 2_000_000, end_ms: 2_020_000 }, night)).toEqual({ t0: 1_970_000, t1: 2_050_000 });
  });

  it('stays inside the night at its edges', () => {
    expect(adjudicationWindow({ start_ms: 1_010_000, end_ms: 1_040_000 }, night)).toEqual({ t0: 1_000_000, t1: 1_070_000 });
    expect(adjudicationWindow({ start_ms: night.stopMs - 10_000, end_ms: night.stopMs }, night)).toEqual({ t0: night.stopMs - 40_000, t1: night.stopMs });
  });
});
