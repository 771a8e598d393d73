import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { leaves } from './catalogue-leaves';

const ROOT = join(import.meta.dirname, '..', '..');
const LOCALES = join(ROOT, 'locales');
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** The LANGUAGES list of src/i18n.ts, read as text so the test needs no Vite glob. */
function registered(): string[] {
  const source = readFileSync(join(ROOT, 'src', 'i18n.ts'), 'utf8');
  const list = /export const LANGUAGES = \[([^\]]*)\]/.exec(source);
  if (!list) throw new Error('LANGUAGES not found in src/i18n.ts');
  return [...list[1]!.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
}

const catalogue = (lng: string) => leaves(JSON.parse(readFileSync(join(LOCALES, `${lng}.json`), 'utf8')));

/** en-US's key set as `lng` must spell it: plural keys get exactly the language's plural forms. */
function expectedKeys(lng: string): string[] {
  const forms = new Intl.PluralRules(lng).resolvedOptions().pluralCategories;
  const keys = new Set<string>();
  for (const key of catalogue('en-US').keys()) {
    if (PLURAL.test(key)) for (const form of forms) keys.add(key.replace(PLURAL, `_${form}`));
    else keys.add(key);
  }
  return [...keys].sort();
}

const vars = (s: string) => [...new Set([...s.matchAll(/\{\{(\w+)\}\}|<(\w+)>/g)].map((m) => m[1] ?? m[2]))].sort();

describe('registered locales', () => {
  const languages = registered();

  it('registers the seven locales of the spec', () => {
    expect(languages).toEqual(['en-US', 'ar-SA', 'de-AT', 'es', 'fr-FR', 'it-IT', 'zh-Hans-CN']);
  });

  it('names every registered language in every catalogue', () => {
    for (const lng of languages) {
      const keys = catalogue(lng);
      for (const other of languages) expect(keys.get(`languages.${other}`), `${lng}: languages.${other}`).toBeTruthy();
    }
  });

  for (const lng of languages.filter((l) => l !== 'en-US')) {
    it(`${lng} has exactly en-US's keys in its own plural forms, placeholders kept`, () => {
      const keys = catalogue(lng);
      const expected = expectedKeys(lng);
      const extra = [...keys.keys()].filter((k) => !expected.includes(k));
      expect(extra, `${lng}: keys en-US does not have`).toEqual([]);
      expect(expected.filter((k) => !keys.has(k)), `${lng}: missing keys`).toEqual([]);
      const en = catalogue('en-US');
      for (const [key, value] of keys) {
        expect(value.trim(), `${lng}: ${key} is empty`).not.toBe('');
        const source = PLURAL.test(key) ? en.get(key.replace(PLURAL, '_other'))! : en.get(key)!;
        // A singular or dual form may spell the number out instead of {{count}}.
        const want = vars(source).filter((v) => !(PLURAL.test(key) && v === 'count'));
        const got = vars(value).filter((v) => !(PLURAL.test(key) && v === 'count'));
        expect(got, `${lng}: ${key} placeholders`).toEqual(want);
      }
    });
  }
});
