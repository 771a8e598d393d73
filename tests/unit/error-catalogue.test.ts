import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { toApiError } from '../../src/api/errors';
import { errorText } from '../../src/api/messages';
import { ERROR_CODES, ERROR_PARAMS, NOT_FOUND_THINGS } from '../../contract/errors';

const LOCALES = join(import.meta.dirname, '..', '..', 'locales');

type Catalogue = { errors?: { codes?: Record<string, unknown>; things?: Record<string, unknown> } };

const catalogues = readdirSync(LOCALES)
  .filter((name) => name.endsWith('.json'))
  .map((name) => ({ language: name.replace(/\.json$/, ''), tree: JSON.parse(readFileSync(join(LOCALES, name), 'utf8')) as Catalogue }));

/** The names a message interpolates: `{{file}}` and `{{max, number}}` give file and max. */
function paramNames(message: string): string[] {
  return [...new Set([...message.matchAll(/\{\{\s*([\w.]+)\s*(?:,[^}]*)?\}\}/g)].map((m) => m[1]!))].sort();
}

describe('error catalogue (issue 35 point 5)', () => {
  it('reads every locale file', () => {
    expect(catalogues.length).toBe(7);
  });

  it('reads {{params}} with and without a format', () => {
    expect(paramNames('{{file}} is larger than {{max_mb, number}} MB ({{file}}).')).toEqual(['file', 'max_mb']);
  });

  it('has an entry for every code the server can send, in every locale', () => {
    const missing = catalogues.flatMap(({ language, tree }) =>
      ERROR_CODES.filter((code) => typeof tree.errors?.codes?.[code] !== 'string' || tree.errors.codes[code] === '').map((code) => `${language}: errors.codes.${code}`),
    );
    expect(missing).toEqual([]);
  });

  it("words each code with exactly the parameters the server sends for it, the same in every locale", () => {
    const wrong = catalogues.flatMap(({ language, tree }) =>
      ERROR_CODES.flatMap((code) => {
        const message = tree.errors?.codes?.[code];
        if (typeof message !== 'string') return [];
        const used = paramNames(message);
        const sent = [...ERROR_PARAMS[code]].sort();
        return used.join() === sent.join() ? [] : [`${language}: ${code} uses {${used.join(', ')}}, the server sends {${sent.join(', ')}}`];
      }),
    );
    expect(wrong).toEqual([]);
  });

  it('names every thing not_found can name, in every locale', () => {
    const missing = catalogues.flatMap(({ language, tree }) =>
      NOT_FOUND_THINGS.filter((thing) => typeof tree.errors?.things?.[thing] !== 'string').map((thing) => `${language}: errors.things.${thing}`),
    );
    expect(missing).toEqual([]);
  });

});

describe('errorText: a code in the user\'s words with its params', () => {
  const read = (language: string) => catalogues.find((c) => c.language === language)!.tree;
  beforeAll(async () => {
    await i18next.init({ lng: 'en-US', fallbackLng: 'en-US', resources: { 'en-US': { translation: read('en-US') }, 'de-AT': { translation: read('de-AT') } }, interpolation: { escapeValue: false }, showSupportNotice: false });
  });
  const occupied = toApiError(409, { code: 'device_occupied', message: 'Device is occupied: reserved for patient NCT1005 from 01 Mar 2026 to 08 Mar 2026.', data: { params: { patient: 'NCT1005', from: '2026-03-01', to: '2026-03-08' } } }, 'Conflict');

  it("says the occupied device's patient and dates in the user's language, never the server's English", () => {
    expect(errorText(i18next.getFixedT('en-US'), occupied)).toBe('This device is already reserved for patient NCT1005 from 01 Mar 2026 to 08 Mar 2026.');
    const de = errorText(i18next.getFixedT('de-AT'), occupied);
    expect(de).toMatch(/^Dieses Gerät ist bereits für Patient NCT1005 von 01 Mär 2026 bis 08 Mär 2026 reserviert\.$/);
  });

  it('names what was not found, and a nameless editor as someone else', () => {
    const missing = toApiError(404, { code: 'not_found', message: 'Recording not found.', data: { params: { thing: 'recording' } } }, 'Not Found');
    expect(errorText(i18next.getFixedT('de-AT'), missing)).toBe('Nicht gefunden: Aufzeichnung. Möglicherweise wurde es gelöscht.');
    const stale = toApiError(409, { code: 'annotation_changed', message: 'This annotation was changed…', data: { params: { who: '', at: '2026-03-01T22:15:00.000Z' } } }, 'Conflict');
    expect(errorText(i18next.getFixedT('en-US'), stale)).toMatch(/^This annotation was changed by someone else at 0[12] Mar 2026, \d\d:\d\d since you opened it\./);
  });

  it('says each day of a list of nights in the user\'s language (an upload stored in part)', () => {
    const partly = toApiError(409, { code: 'import_partly_stored', message: 'The nights of 2025-01-10, 2025-03-02 were stored; …', data: { params: { stored: '2025-01-10, 2025-03-02', night: '2025-10-25' } } }, 'Conflict');
    expect(errorText(i18next.getFixedT('en-US'), partly)).toMatch(/^Stored: the night\(s\) of 10 Jan 2025, 02 Mar 2025\. The night of 25 Oct 2025 was not stored/);
    expect(errorText(i18next.getFixedT('de-AT'), partly)).toMatch(/^Gespeichert: die Nacht\/Nächte vom 10 Jän\.? 2025, 02 Mär\.? 2025\. Die Nacht vom 25 Okt\.? 2025/);
  });

  it("shows the server's message only for a code the catalogue does not know", () => {
    const forbidden = toApiError(403, { code: 'forbidden', message: 'Annotators cannot import recordings.' }, 'Forbidden');
    expect(errorText(i18next.getFixedT('en-US'), forbidden)).toBe('Your account is not allowed to do this.');
    const unknown = toApiError(418, { code: 'from_a_newer_server', message: 'A newer server said this.' }, "I'm a teapot");
    expect(errorText(i18next.getFixedT('en-US'), unknown)).toBe('A newer server said this.');
  });
});
