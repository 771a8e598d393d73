import { describe, expect, it } from 'vitest';
import { categoryNameOf, nsrrConceptOf } from '../../server/annotations/scoring-labels';

describe('scoring file labels', () => {
  it('files NSRR, SDO, EDF+ and AASM labels under the category of their meaning', () => {
    const cases: Record<string, string> = {
      'Obstructive apnea|Obstructive Apnea': 'Apnea',
      'Central apnea|Central Apnea': 'Apnea',
      'Mixed apnea|Mixed Apnea': 'Apnea',
      'Hypopnea|Hypopnea': 'Hypoapnea',
      'SpO2 desaturation|SpO2 desaturation': 'Desaturation',
      'SDO:HemoglobinOxygenDesaturationFinding': 'Desaturation',
      'SDO:ObstructiveApneaFinding': 'Apnea',
      'SDO:HypopneaFinding': 'Hypoapnea',
      'SDO:SleepArousalFinding': 'Arousal',
      'Arousal|Arousal ()': 'Arousal',
      'Wake|0': 'Wake',
      'Stage 1 sleep|1': 'N1',
      'Stage 2 sleep|2': 'N2',
      'Stage 3 sleep|3': 'N3',
      'Stage 4 sleep|4': 'N3',
      'REM sleep|5': 'REM',
      'Unscored|9': 'Unscored',
      'Sleep stage W': 'Wake',
      'Sleep stage N1': 'N1',
      'Sleep stage 4': 'N3',
      'Sleep stage R': 'REM',
      'Sleep stage ?': 'Unscored',
      'Central Apnea': 'Apnea',
    };
    expect(Object.fromEntries(Object.keys(cases).map((k) => [k, categoryNameOf(k)]))).toEqual(cases);
  });

  it('keeps any other label as its own name, cut to 20 characters', () => {
    expect(categoryNameOf('SpO2 artifact|SpO2 artifact')).toBe('SpO2 artifact');
    expect(categoryNameOf('SDO:PeriodicLimbMovementFinding')).toBe('Periodic Limb Moveme');
    expect(categoryNameOf('Lights off')).toBe('Lights off');
    expect(categoryNameOf('Oximetry Artifact Event')).toBe('Oximetry Artifact Ev');
  });

  it('writes each category as the NSRR concept it reads back as', () => {
    for (const name of ['Apnea', 'Hypoapnea', 'Desaturation', 'Wake', 'N1', 'N2', 'N3', 'REM', 'Unscored', 'Arousal', 'Snore', 'Leg kick']) {
      expect(categoryNameOf(nsrrConceptOf(name).concept)).toBe(name);
    }
    expect(nsrrConceptOf('Hypoapnea')).toEqual({ type: 'Respiratory|Respiratory', concept: 'Hypopnea|Hypopnea' });
    expect(nsrrConceptOf('a|b').concept).toBe('a/b|a/b');
  });
});
