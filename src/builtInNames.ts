import type { TFunction } from 'i18next';
import type en from '../locales/en-US.json';
import { labelPeriod, normaliseLabel } from '../contract/signal-labels';
import { formatNumber } from './format';

/**
 * Names of built-in data (stored in English by the server) in the user's language: annotation
 * categories, the detector's annotation comments, conditions and countries. Each lookup
 * falls back to the stored text, so what a user made themselves (a custom category, a comment
 * they wrote) is shown as they wrote it.
 */

/** The spec's built-in categories (spec 2 §3) by their stored label. */
const CATEGORY_KEYS: Record<string, string> = {
  Apnea: 'apnea',
  Desaturation: 'desaturation',
  Hypoapnea: 'hypoapnea',
  Movement: 'movement',
  'Central Apnea': 'centralApnea',
  'Obstructive Apnea': 'obstructiveApnea',
  Irregularities: 'irregularities',
};

/** A category's name: a built-in one's in the UI language, a user-made one's as stored. */
export function categoryName(t: TFunction, c: { label: string; type?: string } | undefined): string | undefined {
  if (!c) return undefined;
  const key = c.type === 'custom' ? undefined : CATEGORY_KEYS[c.label];
  return key ? t(`annotations.builtIn.${key}` as 'annotations.builtIn.apnea') : c.label;
}

/** The comments the detector writes (server/analytics/routes.ts), as patterns. */
const RESPIRATORY_COMMENT = /^(Apnea|Hypopnea) \((\w+)\), amplitude (-?\d+) % of baseline$/;
const DESATURATION_COMMENT = /^SpO2 (-?[\d.]+|–|null) → (-?[\d.]+|–|null) %$/;

/** An annotation comment: the detector's own in the UI language, anything else as written. */
export function commentText(t: TFunction, language: string, comment: string): string {
  const resp = RESPIRATORY_COMMENT.exec(comment);
  if (resp) {
    const channel = channelName(t, language, resp[2]!);
    const key = resp[1] === 'Apnea' ? 'annotations.systemComment.apnea' : 'annotations.systemComment.hypopnea';
    return t(key, { channel, amplitude: formatNumber(Number(resp[3]), language) });
  }
  const desat = DESATURATION_COMMENT.exec(comment);
  if (desat) {
    const value = (s: string) => (/\d/.test(s) ? formatNumber(Number(s), language, s.includes('.') ? Math.min(2, s.split('.')[1]!.length) : 0) : '–');
    return t('annotations.systemComment.desaturation', { from: value(desat[1]!), to: value(desat[2]!) });
  }
  return comment;
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

/** Channels whose code is all the night view shows but which need a name on their own (Real Time). */
const LONG_CHANNEL_NAMES = new Set(['I', 'Q', 'IQ']);

/** A code i18next can take as part of a key: a file's label may hold '.' or ':', which it reads as key syntax. */
const PLAIN_CODE = /^[A-Za-z0-9_]+$/;

type SourceSignal = keyof typeof en.night.sourceSignals;

/**
 * Source signals the server keeps under their own label (server/recordings/labels.ts maps only
 * what means one of Nocturne's channels), by the same normalised key: ResMed's PLD and BRP
 * signals as real SD cards write them. 'Press' is looked up by its period (see sourceSignal).
 */
const SOURCE_SIGNALS: Readonly<Record<string, SourceSignal>> = {
  maskpress: 'maskPressure',
  eprpress: 'expiratoryPressure',
  leak: 'leak',
  tidvol: 'tidalVolume',
  minvent: 'minuteVentilation',
  alvminvent: 'alveolarVentilation',
  tgtvent: 'targetVentilation',
  resprate: 'respiratoryRate',
  snore: 'snore',
  flowlim: 'flowLimitation',
  ieratio: 'ieRatio',
  ti: 'inspiratoryTime',
  te: 'expiratoryTime',
};

/** Keys too short to mean one thing unless the label is ResMed's own ('Ti.2s'): a bare 'TE' may be anything. */
const ONLY_WITH_PERIOD = new Set(['ti', 'te']);

/**
 * ResMed's 'Press' is two signals: in BRP (every 40 ms) the pressure measured at the mask, a
 * waveform rising and falling with each breath; in PLD (every 2 s) the therapy pressure the
 * device sets. Without a period it is only a pressure.
 */
function sourceSignal(code: string): SourceSignal | undefined {
  const key = normaliseLabel(code);
  const period = labelPeriod(code);
  if (key === 'press') return !period ? 'pressure' : period.unit === 'ms' || period.value < 1 ? 'maskPressure' : 'therapyPressure';
  return ONLY_WITH_PERIOD.has(key) && !period ? undefined : SOURCE_SIGNALS[key];
}

/** A Nocturne code's own name (the radar's raw I and Q spelt out), or undefined for any other code. */
function ownName(t: TFunction, code: string): string | undefined {
  if (LONG_CHANNEL_NAMES.has(code)) return t(`live.channelNames.${code}` as 'live.channelNames.I');
  if (!PLAIN_CODE.test(code)) return undefined;
  return t(`night.channels.${code}` as 'night.channels.BR', { defaultValue: '' }) || undefined;
}

/**
 * A channel's name in the UI language: Nocturne's own codes by their names, then the source
 * signals Nocturne knows by their label (ResMed's 'MaskPress.2s' → "Mask pressure (2 s)", the
 * period in `language`'s numbers); any other code as stored (decision 1001).
 */
export function channelName(t: TFunction, language: string, code: string): string {
  const own = ownName(t, code);
  if (own !== undefined) return own;
  const signal = sourceSignal(code);
  if (!signal) return code;
  const name = t(`night.sourceSignals.${signal}`);
  const period = labelPeriod(code);
  if (!period) return name;
  const value = formatNumber(period.value, language, period.decimals);
  return t('night.sourceNamed', { name, period: period.unit === 'ms' ? t('night.sourcePeriod.ms', { value }) : t('night.sourcePeriod.s', { value }) });
}

/**
 * {@link channelName} in two parts, the name and what follows it ("Maskendruck", " (2 s)"), so a
 * header too narrow for the whole cuts the name and keeps the period; one part for any other code.
 */
export function channelNameParts(t: TFunction, language: string, code: string): { name: string; period: string } {
  const full = channelName(t, language, code);
  const signal = ownName(t, code) === undefined && labelPeriod(code) ? sourceSignal(code) : undefined;
  const name = signal ? t(`night.sourceSignals.${signal}`) : full;
  return full.startsWith(name) ? { name, period: full.slice(name.length) } : { name: full, period: '' };
}

/** "Source signal: MaskPress.2s" where {@link channelName} named a stored label (a tooltip beside the name), else undefined. */
export function sourceTitle(t: TFunction, code: string): string | undefined {
  return ownName(t, code) === undefined && sourceSignal(code) ? t('night.sourceLabel', { label: code }) : undefined;
}
