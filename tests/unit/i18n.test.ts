import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');
const LOCALES = join(ROOT, 'locales');

type Tree = { [key: string]: unknown };

const readCatalogue = (name: string): Tree => JSON.parse(readFileSync(join(LOCALES, `${name}.json`), 'utf8')) as Tree;

/** Every leaf as a dotted path → string (arrays are indexed like objects). */
function leaves(tree: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (tree !== null && typeof tree === 'object') {
    for (const [k, v] of Object.entries(tree)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out.set(prefix, String(tree));
  }
  return out;
}

/** Whether `path` names a node (leaf or subtree) of the catalogue. */
function hasPath(tree: Tree, path: string): boolean {
  let node: unknown = tree;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object' || !(part in node)) return false;
    node = (node as Tree)[part];
  }
  return true;
}

const PLURAL = /_(zero|one|two|few|many|other)$/;

/** A key used as t('x', { count }) lives in the catalogue as x_one, x_other… */
const resolves = (tree: Tree, key: string): boolean =>
  hasPath(tree, key) || ['one', 'other'].some((form) => hasPath(tree, `${key}_${form}`));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

const en = readCatalogue('en-US');
const namespaces = Object.keys(en).join('|');

/** Literal keys in calls, Trans props, config objects and any namespaced string literal. */
const PATTERNS: RegExp[] = [
  /\bt\(\s*['"]([^'"]+)['"]/g,
  /i18nKey=\{?\s*['"]([^'"]+)['"]/g,
  /\b(?:\w*Key|key):\s*['"]([^'"]+)['"]/g,
  new RegExp(`['"]((?:${namespaces})\\.[A-Za-z0-9_.-]+)['"]`, 'g'),
];

/** Static prefix of a template key such as `static.${id}.title` → `static`. */
const TEMPLATE = /\bt\(\s*`([^`$]*)\$\{/g;

function usedKeys(): { file: string; key: string; prefixOnly: boolean }[] {
  const found: { file: string; key: string; prefixOnly: boolean }[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const rel = relative(ROOT, file);
    for (const pattern of PATTERNS) {
      for (const m of text.matchAll(pattern)) {
        const key = m[1]!;
        // Imports, CSS classes and test ids are not keys; keys are dotted paths.
        if (!key.includes('.') || key.startsWith('.') || key.includes('/')) continue;
        found.push({ file: rel, key, prefixOnly: false });
      }
    }
    for (const m of text.matchAll(TEMPLATE)) {
      const prefix = m[1]!.replace(/\.$/, '');
      if (prefix) found.push({ file: rel, key: prefix, prefixOnly: true });
    }
  }
  return found;
}

describe('translation catalogues', () => {
  it('finds the keys the app uses', () => {
    expect(usedKeys().length).toBeGreaterThan(100);
  });

  it('has every key used in src/ in en-US.json', () => {
    const missing = usedKeys()
      .filter(({ key }) => !resolves(en, key))
      .map(({ file, key }) => `${file}: ${key}`);
    expect(missing).toEqual([]);
  });

  it('keeps every other catalogue a subset of en-US, interpolations included', () => {
    const enLeaves = leaves(en);
    const enBases = new Map([...enLeaves].map(([k, v]) => [k.replace(PLURAL, ''), v]));
    const catalogues = readdirSync(LOCALES).filter((f) => f.endsWith('.json') && f !== 'en-US.json');
    expect(catalogues).toContain('ar-SA.json');
    for (const file of catalogues) {
      for (const [key, value] of leaves(readCatalogue(file.replace(/\.json$/, '')))) {
        const source = enBases.get(key.replace(PLURAL, ''));
        expect(source, `${file}: ${key} is not in en-US.json`).toBeDefined();
        const vars = (s: string) => new Set([...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]));
        const allowed = vars(source!);
        allowed.add('count');
        for (const v of vars(value)) expect(allowed, `${file}: ${key} uses {{${v}}}`).toContain(v);
      }
    }
  });

  it('translates the shell and sign-in fully in Arabic', () => {
    const ar = readCatalogue('ar-SA');
    for (const ns of ['nav', 'titles', 'logout', 'notFound', 'auth', 'validation']) {
      const enKeys = [...leaves(en[ns], ns).keys()];
      const missing = enKeys.filter((k) => !hasPath(ar, k));
      expect(missing, `ar-SA misses ${ns} keys`).toEqual([]);
    }
  });
});
