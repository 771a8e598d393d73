/**
 * Built-in texts the server stores in English, named in the reader's language by the app and by
 * the PDF reports alike: the spec's annotation categories (spec 2 §3) and the comments the
 * detectors write (server/analytics/routes.ts). What a user wrote (a custom category, their own
 * comment) is kept as written. Words from the locale files through `lookup` (contract/channel-names.ts).
 */
import { nameOfChannel, type NameLookup } from './channel-names';

/** The spec's built-in categories by their stored label → locales' annotations.builtIn key. */
const CATEGORY_KEYS: Readonly<Record<string, string>> = {
  Apnea: 'apnea',
  Desaturation: 'desaturation',
  Hypoapnea: 'hypoapnea',
  Movement: 'movement',
  'Central Apnea': 'centralApnea',
  'Obstructive Apnea': 'obstructiveApnea',
  Irregularities: 'irregularities',
};

/** A category's name: a built-in one's from the catalogue, a user-made one's (type 'custom') as stored. */
export function nameOfCategory(lookup: NameLookup, c: { label: string; type?: string | null }): string {
  const key = c.type === 'custom' ? undefined : CATEGORY_KEYS[c.label];
  return (key && lookup(`annotations.builtIn.${key}`)) || c.label;
}

/** The comments the detector writes, as patterns. */
const RESPIRATORY_COMMENT = /^(Apnea|Hypopnea) \((\w+)\), amplitude (-?\d+) % of baseline$/;
const DESATURATION_COMMENT = /^SpO2 (-?[\d.]+|–|null) → (-?[\d.]+|–|null) %$/;

/** An annotation comment: the detector's own from the catalogue, anything else as written. `number` writes a value with fixed decimals. */
export function textOfComment(lookup: NameLookup, number: (value: number, decimals: number) => string, comment: string): string {
  const resp = RESPIRATORY_COMMENT.exec(comment);
  if (resp) {
    const channel = nameOfChannel(lookup, number, resp[2]!);
    const key = resp[1] === 'Apnea' ? 'annotations.systemComment.apnea' : 'annotations.systemComment.hypopnea';
    return lookup(key, { channel, amplitude: number(Number(resp[3]), 0) }) ?? comment;
  }
  const desat = DESATURATION_COMMENT.exec(comment);
  if (desat) {
    const value = (s: string) => (/\d/.test(s) ? number(Number(s), s.includes('.') ? Math.min(2, s.split('.')[1]!.length) : 0) : '–');
    return lookup('annotations.systemComment.desaturation', { from: value(desat[1]!), to: value(desat[2]!) }) ?? comment;
  }
  return comment;
}
