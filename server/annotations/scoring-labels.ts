/**
 * Labels of scoring files (NSRR EventConcepts, EDF+ annotation texts) and Nocturne's category
 * names, both ways. A file's label is filed under a category by its meaning where the meaning
 * is clear (every apnea type → Apnea, hypopnea → Hypoapnea, SpO2 desaturation → Desaturation,
 * AASM/R&K stages → Wake, N1, N2, N3, REM); any other label is its own category, named after
 * the label. Written back, a category gets the NSRR concept labs and Luna read.
 */
import { scoredKind } from '../recordings/vendors';
import type { ScoredStage } from '../recordings/edf/hypnogram';

/** The longest category name (annotation_categories.label, spec 2 §9). */
export const CATEGORY_NAME_MAX = 20;

/** NSRR EventType and EventConcept of the categories whose meaning NSRR names. */
const NSRR_OF: Readonly<Record<string, { type: string; concept: string }>> = {
  apnea: { type: 'Respiratory|Respiratory', concept: 'Apnea|Apnea' },
  hypoapnea: { type: 'Respiratory|Respiratory', concept: 'Hypopnea|Hypopnea' },
  desaturation: { type: 'Respiratory|Respiratory', concept: 'SpO2 desaturation|SpO2 desaturation' },
  wake: { type: 'Stages|Stages', concept: 'Wake|0' },
  n1: { type: 'Stages|Stages', concept: 'Stage 1 sleep|1' },
  n2: { type: 'Stages|Stages', concept: 'Stage 2 sleep|2' },
  n3: { type: 'Stages|Stages', concept: 'Stage 3 sleep|3' },
  rem: { type: 'Stages|Stages', concept: 'REM sleep|5' },
  unscored: { type: 'Stages|Stages', concept: 'Unscored|9' },
  arousal: { type: 'Arousals|Arousals', concept: 'Arousal|Arousal ()' },
};

/** Device-scored kinds (device_events.kind) as NSRR concepts. */
const NSRR_OF_KIND: Readonly<Record<string, string>> = {
  obstructive_apnea: 'Obstructive apnea|Obstructive Apnea',
  central_apnea: 'Central apnea|Central Apnea',
  mixed_apnea: 'Mixed apnea|Mixed Apnea',
  apnea: 'Apnea|Apnea',
  hypopnea: 'Hypopnea|Hypopnea',
  desaturation: 'SpO2 desaturation|SpO2 desaturation',
  arousal: 'Arousal|Arousal ()',
  rera: 'RERA|RERA',
};

const key = (s: string) => s.trim().toLowerCase();

/** A category's NSRR EventType and EventConcept ("Snore|Snore" for one NSRR does not name). */
export function nsrrConceptOf(category: string): { type: string; concept: string } {
  const known = NSRR_OF[key(category)];
  if (known) return known;
  const plain = category.replace(/\|/g, '/');
  return { type: '', concept: `${plain}|${plain}` };
}

/** A hypnogram epoch's stage as NSRR writes it (R&K's stage 4 and movement time kept apart). */
const NSRR_OF_STAGE: Readonly<Record<ScoredStage, string>> = {
  W: 'Wake|0',
  1: 'Stage 1 sleep|1',
  2: 'Stage 2 sleep|2',
  3: 'Stage 3 sleep|3',
  4: 'Stage 4 sleep|4',
  R: 'REM sleep|5',
  M: 'Movement|6',
  '?': 'Unscored|9',
};

/** A file's sleep stage as an NSRR EventType and EventConcept. */
export const nsrrConceptOfStage = (stage: ScoredStage) => ({ type: 'Stages|Stages', concept: NSRR_OF_STAGE[stage] });

/** A device event's kind as an NSRR concept (its text when the kind has none). */
export function nsrrConceptOfKind(kind: string, text: string): { type: string; concept: string } {
  const concept = NSRR_OF_KIND[kind];
  if (!concept) return { type: '', concept: `${text.replace(/\|/g, '/')}|${text.replace(/\|/g, '/')}` };
  return { type: kind === 'arousal' ? 'Arousals|Arousals' : 'Respiratory|Respiratory', concept };
}

/** Stage labels of NSRR (concept before '|', with its number), EDF+ (Sleep-EDF, HMC) and plain AASM. */
const STAGES: ReadonlyArray<[RegExp, string]> = [
  [/^(wake|w|sleep stage w|stage w|awake)$/, 'Wake'],
  [/^(stage 1 sleep|sleep stage (n)?1|stage n1|n1|s1)$/, 'N1'],
  [/^(stage 2 sleep|sleep stage (n)?2|stage n2|n2|s2)$/, 'N2'],
  [/^(stage 3 sleep|stage 4 sleep|sleep stage (n)?[34]|stage n3|n3|s3|s4)$/, 'N3'],
  [/^(rem sleep|sleep stage r(em)?|stage r(em)?|rem|r)$/, 'REM'],
  [/^(unscored|sleep stage \?|movement time|sleep stage m(ovement)?)$/, 'Unscored'],
];

/** NSRR's SDO concepts (the EDF Editor and Translator writes them) with a meaning we file. */
const SDO: Readonly<Record<string, string>> = {
  obstructiveapneafinding: 'Apnea',
  centralapneafinding: 'Apnea',
  mixedapneafinding: 'Apnea',
  apneafinding: 'Apnea',
  hypopneafinding: 'Hypoapnea',
  hemoglobinoxygendesaturationfinding: 'Desaturation',
  sleeparousalfinding: 'Arousal',
};

/**
 * The category name a file's label is filed under: its meaning's category where known,
 * else the label itself (an NSRR "Name|Name" by its first part), cut to 20 characters.
 */
export function categoryNameOf(label: string): string {
  const first = label.split('|')[0]!.trim() || label.trim();
  const sdo = /^SDO:(\w+)$/i.exec(first);
  if (sdo) {
    const known = SDO[sdo[1]!.toLowerCase()];
    if (known) return known;
    // SDO:LimbMovementFinding → "Limb Movement".
    return cut(sdo[1]!.replace(/Finding$/, '').replace(/([a-z])([A-Z])/g, '$1 $2'));
  }
  const k = key(first);
  for (const [re, name] of STAGES) if (re.test(k)) return name;
  if (k === 'hypoapnea') return 'Hypoapnea';
  const kind = scoredKind(first);
  if (kind === 'hypopnea') return 'Hypoapnea';
  if (kind === 'desaturation' || k === 'spo2 desaturation') return 'Desaturation';
  if (kind && kind.endsWith('apnea')) return 'Apnea';
  if (kind === 'arousal') return 'Arousal';
  return cut(first);
}

const cut = (s: string) => s.trim().slice(0, CATEGORY_NAME_MAX).trim();
