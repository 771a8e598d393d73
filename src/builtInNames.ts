import type { TFunction } from 'i18next';
import { labelPeriod } from '../contract/signal-labels';
import { nameOfChannel, ownName, sourceSignal, type NameLookup } from '../contract/channel-names';
import { nameOfCategory, textOfComment } from '../contract/built-in-texts';
import { formatNumber } from './format';

/**
 * Names of built-in data (stored in English by the server) in the user's language: annotation
 * categories, the detector's annotation comments, conditions and countries. Each lookup
 * falls back to the stored text, so what a user made themselves (a custom category, a comment
 * they wrote) is shown as they wrote it.
 */

/** A category's name: a built-in one's in the UI language, a user-made one's as stored (contract/built-in-texts.ts). */
export function categoryName(t: TFunction, c: { label: string; type?: string } | undefined): string | undefined {
  return c ? nameOfCategory(lookupOf(t), c) : undefined;
}

/** An annotation comment: the detector's own in the UI language, anything else as written. */
export function commentText(t: TFunction, language: string, comment: string): string {
  return textOfComment(lookupOf(t), (value, decimals) => formatNumber(value, language, decimals), comment);
}

/** Conditions (migration 002) by their short name. */
const CONDITION_CODES = new Set(['None', 'OSA', 'CSA', 'INS', 'HTN', 'HF', 'AF', 'COPD', 'AST', 'T2D', 'OBE', 'RLS', 'NAR', 'DEP', 'CKD']);

/** A condition's name in the UI language; one the catalogue does not know, as stored. */
export function conditionName(t: TFunction, d: { disease_description: string; disease_shortname: string | null } | undefined): string | undefined {
  if (!d) return undefined;
  return d.disease_shortname && CONDITION_CODES.has(d.disease_shortname) ? t(`patientAdmin.conditions.${d.disease_shortname}` as 'patientAdmin.conditions.None') : d.disease_description;
}

const regionNames = new Map<string, Intl.DisplayNames>();
function regions(language: string): Intl.DisplayNames {
  let names = regionNames.get(language);
  if (!names) {
    names = new Intl.DisplayNames([language, 'en'], { type: 'region', fallback: 'code' });
    regionNames.set(language, names);
  }
  return names;
}

/** ISO codes by English name, for countries stored by name (patients, profiles). */
let codeByEnglishName: Map<string, string> | null = null;
function codeOf(stored: string): string | null {
  if (/^[A-Z]{2}$/.test(stored)) return stored;
  if (!codeByEnglishName) {
    codeByEnglishName = new Map();
    const en = regions('en');
    for (let a = 65; a <= 90; a++)
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        const name = en.of(code);
        if (name && name !== code) codeByEnglishName.set(name.toLowerCase(), code);
      }
  }
  return codeByEnglishName.get(stored.trim().toLowerCase()) ?? null;
}

/** A country (stored as its ISO code or English name) named in `language`; unknown: as stored. */
export function countryName(language: string, stored: string): string {
  const code = codeOf(stored);
  return code ? (regions(language).of(code) ?? stored) : stored;
}

/** A country list named and sorted in `language`. */
export function localCountries<C extends { code: string }>(countries: readonly C[], language: string): Array<C & { localName: string }> {
  const collator = new Intl.Collator(language);
  return countries.map((c) => ({ ...c, localName: regions(language).of(c.code) ?? c.code })).sort((a, b) => collator.compare(a.localName, b.localName));
}

/** The app's catalogue as the shared naming reads it (undefined for a key it lacks). */
function lookupOf(t: TFunction): NameLookup {
  return (key, values) => (t(key as 'night.sourceNamed', { ...values, defaultValue: '' }) as string) || undefined;
}

/**
 * A channel's name in the UI language: Nocturne's own codes by their names, then the source
 * signals Nocturne knows by their label (ResMed's 'MaskPress.2s' → "Mask pressure (2 s)", the
 * period in `language`'s numbers); any other code as stored (decision 1001; the rules are
 * contract/channel-names.ts, which the PDF reports name channels by too).
 */
export function channelName(t: TFunction, language: string, code: string): string {
  return nameOfChannel(lookupOf(t), (value, decimals) => formatNumber(value, language, decimals), code);
}

/**
 * {@link channelName} in two parts, the name and what follows it ("Maskendruck", " (2 s)"), so a
 * header too narrow for the whole cuts the name and keeps the period; one part for any other code.
 */
export function channelNameParts(t: TFunction, language: string, code: string): { name: string; period: string } {
  const full = channelName(t, language, code);
  const signal = ownName(lookupOf(t), code) === undefined && labelPeriod(code) ? sourceSignal(code) : undefined;
  const name = signal ? t(`night.sourceSignals.${signal}`) : full;
  return full.startsWith(name) ? { name, period: full.slice(name.length) } : { name: full, period: '' };
}

/** "Source signal: MaskPress.2s" where {@link channelName} named a stored label (a tooltip beside the name), else undefined. */
export function sourceTitle(t: TFunction, code: string): string | undefined {
  return ownName(lookupOf(t), code) === undefined && sourceSignal(code) ? t('night.sourceLabel', { label: code }) : undefined;
}
