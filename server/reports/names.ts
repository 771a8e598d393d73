// Channel names, built-in categories and the detector's comments in a report's language, by the
// app's rules (contract/channel-names.ts, contract/built-in-texts.ts) and from
// the app's own catalogues (locales/), so a PDF names a channel as the screen does: "Nasal
// cannula", "Maskendruck (2 s)", never NC_PSG or MaskPress.2s (a code no catalogue knows stays).
import en from '../../locales/en-US.json';
import de from '../../locales/de-AT.json';
import { nameOfChannel, type NameLookup } from '../../contract/channel-names';
import { nameOfCategory, textOfComment } from '../../contract/built-in-texts';
import type { ReportLanguage } from '../../contract/report-types';

const CATALOGUES: Record<ReportLanguage, unknown> = { en, de };
/** The number format of each report language (the catalogue's locale). */
const LOCALES: Record<ReportLanguage, string> = { en: 'en-US', de: 'de-AT' };

/** A catalogue's text at a dotted key with its `{{value}}`s filled in; undefined where it has none. */
function lookupIn(catalogue: unknown): NameLookup {
  return (key, values) => {
    let node = catalogue;
    for (const part of key.split('.')) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
    if (typeof node !== 'string' || node === '') return undefined;
    return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k: string) => values?.[k] ?? '');
  };
}

const lookups: Record<ReportLanguage, NameLookup> = { en: lookupIn(CATALOGUES.en), de: lookupIn(CATALOGUES.de) };

/** A number in `language` with fixed decimals. */
const numberIn = (language: ReportLanguage) => (value: number, decimals: number) =>
  new Intl.NumberFormat(LOCALES[language], { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);

/** One channel code's name in `language`. */
export function reportChannelName(language: ReportLanguage, code: string): string {
  return nameOfChannel(lookups[language], numberIn(language), code);
}

/** An annotation category's name in `language`: a built-in one's translated, a custom one's as stored. */
export function reportCategoryName(language: ReportLanguage, category: { label: string; type: string | null }): string {
  return nameOfCategory(lookups[language], category);
}

/** An annotation's comment in `language`: the detector's own translated, a person's as written. */
export function reportComment(language: ReportLanguage, comment: string): string {
  return textOfComment(lookups[language], numberIn(language), comment);
}

/** An annotation's channels (its stored `kpi`, codes joined by commas) named, joined the same way. */
export function reportChannelsLine(language: ReportLanguage, kpi: string): string {
  return kpi
    .split(',')
    .filter((c) => c !== '')
    .map((c) => reportChannelName(language, c))
    .join(', ');
}
