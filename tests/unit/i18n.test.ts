import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { DYNAMIC_KEY_FAMILIES } from '../../src/i18nKeyFamilies';
import { leaves } from './catalogue-leaves';

const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');
/** contract/ names built-in things from the catalogues too (channel-names.ts, built-in-texts.ts: the app and the reports). */
const CONTRACT = join(ROOT, 'contract');
const LOCALES = join(ROOT, 'locales');

type Tree = { [key: string]: unknown };

const readCatalogue = (name: string): Tree => JSON.parse(readFileSync(join(LOCALES, `${name}.json`), 'utf8')) as Tree;

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

function sourceFiles(dir: string, ext = /\.(ts|tsx)$/): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full, ext);
    return ext.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

const en = readCatalogue('en-US');
const enLeaves = leaves(en);
const namespaces = Object.keys(en).join('|');
const localeNames = readdirSync(LOCALES)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''));

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
  for (const file of [...sourceFiles(SRC), ...sourceFiles(CONTRACT)]) {
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

/** The plural categories i18next asks for in `locale` (CLDR, as Intl knows them). */
const pluralForms = (locale: string): string[] => new Intl.PluralRules(locale).resolvedOptions().pluralCategories;

/** en-US's keys as the keys `locale` must have: plural keys in that locale's CLDR forms. */
function expectedKeys(locale: string): Set<string> {
  const out = new Set<string>();
  const forms = pluralForms(locale);
  for (const key of enLeaves.keys()) {
    const m = PLURAL.exec(key);
    const base = key.replace(PLURAL, '');
    if (m && enLeaves.has(`${base}_one`) && enLeaves.has(`${base}_other`)) {
      for (const f of forms) out.add(`${base}_${f}`);
    } else {
      out.add(key);
    }
  }
  return out;
}

const vars = (s: string) => new Set([...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!));

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

  it('lists the locale files the spec names', () => {
    for (const l of ['en-US', 'de-AT', 'fr-FR', 'ar-SA']) expect(localeNames).toContain(l);
  });

  it.each(localeNames)('%s has exactly en-US\'s keys, plurals in its CLDR forms', (locale) => {
    const have = new Set(leaves(readCatalogue(locale)).keys());
    const want = expectedKeys(locale);
    const missing = [...want].filter((k) => !have.has(k));
    const extra = [...have].filter((k) => !want.has(k));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });

  it.each(localeNames)('%s keeps every {{variable}} of en-US and adds none', (locale) => {
    const problems: string[] = [];
    for (const [key, value] of leaves(readCatalogue(locale))) {
      const form = PLURAL.exec(key)?.[1];
      const base = key.replace(PLURAL, '');
      const source = enLeaves.get(key) ?? (form ? enLeaves.get(`${base}_other`) : undefined);
      if (source === undefined) continue; // reported by the key test
      const want = vars(source);
      const have = vars(value);
      for (const v of want) {
        // "Ein Gerät", "جهاز واحد": a singular, dual or zero form may spell the number out.
        if (v === 'count' && (form === 'zero' || form === 'one' || form === 'two')) continue;
        if (!have.has(v)) problems.push(`${locale}: ${key} lacks {{${v}}}`);
      }
      for (const v of have) if (!want.has(v) && v !== 'count') problems.push(`${locale}: ${key} adds {{${v}}}`);
    }
    expect(problems).toEqual([]);
  });

  // A value not known is one mark everywhere, the en dash ("–", as the summary's figures show it):
  // the patient list once showed "—" beside a summary's "–" (2026-12-04).
  it.each(localeNames)('%s marks a value not known with the en dash', (locale) => {
    const other = [...leaves(readCatalogue(locale))].filter(([, v]) => /^\s*[-—‒―]\s*$/.test(v)).map(([k, v]) => `${k}: ${v}`);
    expect(other).toEqual([]);
    expect(leaves(readCatalogue(locale)).get('patients.unknown')).toBe('–');
  });

  it('has no other dash than "–" for a value not known in src/', () => {
    const found = sourceFiles(SRC, /\.tsx?$/).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:'[—‒―]'|"[—‒―]"|>\s*[—‒―]\s*<)/g)].map((m) => `${relative(ROOT, file)}: ${m[0]}`),
    );
    expect(found).toEqual([]);
  });

  it('declares every dynamic key family in the one allow-list, and each has keys', () => {
    const undeclared = usedKeys()
      .filter((u) => u.prefixOnly && !(DYNAMIC_KEY_FAMILIES as readonly string[]).includes(u.key))
      .map(({ file, key }) => `${file}: \`${key}.\${…}\``);
    expect(undeclared).toEqual([]);
    const empty = DYNAMIC_KEY_FAMILIES.filter((f) => !hasPath(en, f));
    expect(empty).toEqual([]);
  });

  it('has no unused key in en-US.json', () => {
    const used = usedKeys().filter((u) => !u.prefixOnly).map((u) => u.key);
    const prefixes = [...DYNAMIC_KEY_FAMILIES, ...used].map((p) => `${p}.`);
    const exact = new Set(used);
    const unused = [...enLeaves.keys()].filter((key) => {
      const base = key.replace(PLURAL, '');
      if (exact.has(key) || exact.has(base)) return false;
      return !prefixes.some((p) => key.startsWith(p));
    });
    expect(unused).toEqual([]);
  });
});

/** Attributes a user reads or hears. */
const TEXT_ATTRIBUTES = new Set(['title', 'placeholder', 'aria-label', 'alt', 'label', 'aria-description', 'aria-placeholder']);
const HAS_LETTER = /\p{L}/u;

/** Every JSX text node and text attribute literal with letters in `file`, as file:line: text. */
function hardCodedText(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const rel = relative(ROOT, file);
  const hits: string[] = [];
  const report = (node: ts.Node, what: string) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    hits.push(`${rel}:${line}: ${what.trim().slice(0, 60)}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && HAS_LETTER.test(node.text)) report(node, node.text);
    if (ts.isJsxAttribute(node) && TEXT_ATTRIBUTES.has(node.name.getText(source)) && node.initializer) {
      let init: ts.Node = node.initializer;
      if (ts.isJsxExpression(init) && init.expression) init = init.expression;
      if ((ts.isStringLiteral(init) || ts.isNoSubstitutionTemplateLiteral(init)) && HAS_LETTER.test(init.text)) {
        report(node, `${node.name.getText(source)}="${init.text}"`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return hits;
}

describe('hard-coded user-visible text', () => {
  it('finds JSX text when there is some (the scan works)', () => {
    const probe = join(import.meta.dirname, 'fixtures-hardcoded.tsx.txt');
    const src = ts.createSourceFile(probe, '<p title="Hello">Hi there {x}</p>', ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
    let count = 0;
    const visit = (n: ts.Node) => {
      if (ts.isJsxText(n) && HAS_LETTER.test(n.text)) count++;
      if (ts.isJsxAttribute(n) && TEXT_ATTRIBUTES.has(n.name.getText(src))) count++;
      ts.forEachChild(n, visit);
    };
    visit(src);
    expect(count).toBe(2);
  });

  // Parses every .tsx file: allow for a loaded machine (this is not a speed check).
  it('has none in src/**/*.tsx: every text goes through t()', { timeout: 60_000 }, () => {
    const files = sourceFiles(SRC, /\.tsx$/);
    expect(files.length).toBeGreaterThan(50);
    const hits = files.flatMap(hardCodedText);
    expect(hits).toEqual([]);
  });
});
