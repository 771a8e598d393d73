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

/** Most answers `memoizeTranslations` keeps; past it the store starts again (counts and values make new calls without end). */
const TRANSLATIONS_KEPT = 20_000;

/**
 * One call's identity: the key, the language and every option, or null when an option is not
 * a plain value (an object, a function: such a call is translated every time). Numbers and
 * strings are told apart (`1` and `"1"` give different keys).
 */
function callIdentity(key: string, options: unknown): string | null {
  let id = `${i18n.language}\u0000${key}`;
  if (options === undefined || options === null) return id;
  if (typeof options !== 'object') return null;
  for (const [name, value] of Object.entries(options)) {
    const item = Array.isArray(value) && value.every((v) => typeof v === 'string') ? `a${JSON.stringify(value)}` : plainValue(value);
    if (item === null) return null;
    id += `\u0000${name}\u0001${item}`;
  }
  return id;
}

function plainValue(value: unknown): string | null {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
    case 'boolean':
    case 'undefined':
      return `${(typeof value)[0]}${String(value)}`;
    default:
      return null;
  }
}

/**
 * Keeps t()'s answers (decision 1016). A night screen's first render makes thousands of calls,
 * most of them the same few hundred keys, and i18next resolves each one again (the language
 * hierarchy, the key's path, interpolation): 70–80 ms of the first render on a slow machine.
 * An answer depends only on the language, the catalogues and the call's options, so it is
 * kept by those and forgotten whenever the language or a catalogue changes. Calls with an
 * object or function option, and answers that are not strings (`returnObjects`), are never kept.
 */
const kept = new Map<string, string>();
const forget = () => kept.clear();
/** i18next's own t(), once it is wrapped (a second init must not wrap the wrapper, whose answers its new store's changes would not clear). */
let translate: ((...args: unknown[]) => unknown) | null = null;

function memoizeTranslations(): void {
  // Each init makes a new catalogue store: its changes clear the kept answers too (an init
  // after the first, as the unit tests that share this module make, starts with none kept).
  kept.clear();
  i18n.store.on('added', forget);
  i18n.store.on('removed', forget);
  if (translate) return;
  const original = i18n.t.bind(i18n) as unknown as (...args: unknown[]) => unknown;
  translate = original;
  i18n.on('languageChanged', forget);
  const memo = (...args: unknown[]): unknown => {
    const [key, options] = args;
    const id = typeof key === 'string' && args.length <= 2 ? callIdentity(key, options) : null;
    if (id === null) return original(...args);
    const known = kept.get(id);
    if (known !== undefined) return known;
    const answer = original(key, options);
    if (typeof answer === 'string') {
      if (kept.size >= TRANSLATIONS_KEPT) kept.clear();
      kept.set(id, answer);
    }
    return answer;
  };
  i18n.t = memo as unknown as typeof i18n.t;
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
  memoizeTranslations();
  applyToDocument(DEFAULT_LANGUAGE);
  if (lng !== DEFAULT_LANGUAGE) await setLanguage(lng).catch(() => undefined);
  return i18n;
}

export default i18n;
