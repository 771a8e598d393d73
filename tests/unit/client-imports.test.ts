import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * What the web app loads at run time, followed from src/main.tsx through every import that
 * survives compilation (not `import type`, not an import of types only) and every dynamic
 * import. The API's TypeBox schemas (contract/*.ts) are for the server and for types: the
 * client takes values from schema-free contract files (night-rules, signal-labels, errors…),
 * so the schema library and the schemas' construction at start-up stay out of the first
 * paint's bundle (issue 34: 180 kB of TypeBox source was in it for two constants).
 */

const ROOT = path.resolve(__dirname, '../..');
const ENTRY = path.join(ROOT, 'src/main.tsx');

/** The module specifiers a file loads at run time. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!typesOnly(node)) out.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      out.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Whether an import or export declaration is erased by the compiler (types only). */
function typesOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
  }
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

/** A relative specifier's file (.ts, .tsx, or the folder's index), or null for another kind of file (CSS, JSON, ?worker). */
function resolve(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec.replace(/\?.*$/, ''));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null;
}

/** Every file and package the app loads at run time, each package with a chain of files that reaches it. */
function clientGraph(): { files: Set<string>; packages: Map<string, string[]> } {
  const files = new Set<string>([ENTRY]);
  const packages = new Map<string, string[]>();
  const via = new Map<string, string>();
  const queue = [ENTRY];
  const chain = (file: string) => {
    const out = [];
    for (let f: string | undefined = file; f; f = via.get(f)) out.unshift(path.relative(ROOT, f));
    return out;
  };
  while (queue.length) {
    const file = queue.shift()!;
    for (const spec of runtimeImports(file)) {
      if (spec.startsWith('.')) {
        const target = resolve(file, spec);
        if (target && !files.has(target)) {
          files.add(target);
          via.set(target, file);
          queue.push(target);
        }
      } else {
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (!packages.has(name)) packages.set(name, chain(file));
      }
    }
  }
  return { files, packages };
}

describe('what the web app loads at run time', () => {
  const { files, packages } = clientGraph();

  it('follows the app from its entry (a check that reads nothing would pass)', () => {
    expect(files.size).toBeGreaterThan(100);
    expect([...files].some((f) => f.endsWith(path.join('src', 'features', 'review', 'NightPage.tsx')))).toBe(true);
    expect(packages.has('react')).toBe(true);
  });

  it('holds no schema library: the contract values it needs come from schema-free files', () => {
    expect(packages.get('@sinclair/typebox') ?? null).toBeNull();
  });

  it('holds no server code', () => {
    expect([...files].map((f) => path.relative(ROOT, f)).filter((f) => f.startsWith(`server${path.sep}`))).toEqual([]);
  });
});
