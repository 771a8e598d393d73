import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
