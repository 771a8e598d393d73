import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en-US.json';
import { STORAGE } from './config';
import { readItem, writeItem } from './state/storage';

/** Languages offered in the selector, in the order shown; English is the source of truth. */
export const LANGUAGES = ['en-US', 'ar-SA', 'de-AT', 'es', 'fr-FR', 'it-IT', 'zh-Hans-CN'] as const;
export type Language = (typeof LANGUAGES)[number];
const DEFAULT_LANGUAGE: Language = 'en-US';

/** Other catalogues are split out of the main bundle and fetched on first use. */
const loaders = import.meta.glob<{ default: Record<string, unknown> }>([
  '../locales/*.json',
  '!../locales/en-US.json',
]);

function isLanguage(value: string | null): value is Language {
  return value !== null && (LANGUAGES as readonly string[]).includes(value);
}

async function ensureLoaded(lng: Language): Promise<void> {
  if (i18n.hasResourceBundle(lng, 'translation')) return;
  const load = loaders[`../locales/${lng}.json`];
  // A language without a catalogue yet falls back to English key by key.
  const bundle = load ? (await load()).default : {};
  i18n.addResourceBundle(lng, 'translation', bundle, true, true);
}

/** Mirrors the language onto <html> so CSS logical properties flip the layout for Arabic. */
function applyToDocument(lng: string): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = lng;
  document.documentElement.dir = i18n.dir(lng);
}

/** The language asked for last: a slow catalogue must not override a later choice. */
let requested: Language | null = null;

/** Switches language, loading its catalogue first and remembering the choice. */
export async function setLanguage(lng: Language): Promise<void> {
  requested = lng;
  await ensureLoaded(lng);
  if (requested !== lng) return;
  await i18n.changeLanguage(lng);
  writeItem('localStorage', STORAGE.language, lng);
}

/**
 * i18next canonicalises the language code (Intl.getCanonicalLocales) on every t() call; a
 * night screen's first render makes thousands of calls, and that alone was about half of its
 * translation time (issue 14 point 7). The answer depends on the code only (the options are
 * fixed at init), so each code is canonicalised once.
 */
function memoizeLanguageCodes(): void {
  const utils = i18n.services.languageUtils as { formatLanguageCode(code: string): string };
  const format = utils.formatLanguageCode.bind(utils);
  const known = new Map<string, string>();
  utils.formatLanguageCode = (code: string) => {
    let formatted = known.get(code);
    if (formatted === undefined) {
      formatted = format(code);
      known.set(code, formatted);
    }
    return formatted;
  };
}

/** Starts i18next with the remembered language (or English) before the first render. */
export async function initI18n(): Promise<typeof i18n> {
  const saved = readItem('localStorage', STORAGE.language);
  const lng = isLanguage(saved) ? saved : DEFAULT_LANGUAGE;
  i18n.on('languageChanged', applyToDocument);
  await i18n.use(initReactI18next).init({
    resources: { 'en-US': { translation: en } },
    lng: DEFAULT_LANGUAGE,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    load: 'currentOnly',
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
  });
  memoizeLanguageCodes();
  applyToDocument(DEFAULT_LANGUAGE);
  if (lng !== DEFAULT_LANGUAGE) await setLanguage(lng).catch(() => undefined);
  return i18n;
}

export default i18n;
