import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * A file that registers routes holds no SQL and does not talk to the database itself: its
 * handlers validate, authorise, call the resource's repository or service functions and answer
 * (docs/decisions/0993-no-sql-in-route-files.md). A transaction (`db.transaction`) may still be
 * opened there, as the unit of work of a call: the statements inside it are repository calls.
 */

const ROOT = path.resolve(__dirname, '../..');
const SERVER = path.join(ROOT, 'server');

/** Fastify's route shorthands: `app.get('/path', …)` and its kin register a route. */
const ROUTE_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'all']);
/** Calls that reach the database without a repository (`db.query`, `tx.exec`, `db.notify`, `db.listen`). */
const DB_CALLS = new Set(['query', 'exec', 'notify', 'listen']);

/** Text that reads as SQL: a statement, or a fragment of one (a where clause, a positional parameter). */
const SQL: { name: string; pattern: RegExp }[] = [
  { name: 'select', pattern: /\bselect\s+(?:distinct\s+)?[\w.*"$]+(?:\s*,|\s+as\s|\s+from\s)/i },
  { name: 'insert', pattern: /\binsert\s+into\s/i },
  { name: 'update', pattern: /\bupdate\s+\w+\s+set\s/i },
  { name: 'delete', pattern: /\bdelete\s+from\s/i },
  { name: 'where', pattern: /\bwhere\s+[\w.]+\s*(?:=|<|>|\bis\b|\bin\b|\blike\b|\bilike\b)/i },
  { name: 'a positional parameter', pattern: /(?:[=<>(,]\s*\$\d+\b|\$\d+::\w)/ },
];

interface Finding {
  file: string;
  line: number;
  kind: string;
  text: string;
}

/** Every TypeScript file under a folder. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [full] : [];
  });
}

/** A string's or template's text, each `${…}` read as `x` so a statement split around its columns still reads as one. */
function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((s) => `x${s.literal.text}`).join('');
  return null;
}

/** The name of a call's method (`db.query(…)` → query), or null for a plain call. */
function methodOf(call: ts.CallExpression): string | null {
  return ts.isPropertyAccessExpression(call.expression) ? call.expression.name.text : null;
}

/** Whether the call registers a route: `app.get('/path', …)` (or a path kept in a table), or a TypeBox-typed route group. */
function registersRoute(call: ts.CallExpression): boolean {
  const method = methodOf(call);
  if (method === 'withTypeProvider') return true;
  if (method === null || !ROUTE_METHODS.has(method) || call.arguments.length < 2) return false;
  const [first] = call.arguments;
  const text = first && literalText(first);
  return text !== null && text !== undefined ? text.startsWith('/') : ts.isElementAccessExpression(first!) || ts.isIdentifier(first!);
}

/** What a database is called here (`db`, `tx`, `ctx.db`, `this.db`, a pool or client). */
const DB_NAME = /(?:^|\.)(?:db|tx|pool|client)$/;

/** Whether a call reaches the database itself: `exec` only on a database (a regular expression's does not). */
function callsDb(call: ts.CallExpression): boolean {
  const method = methodOf(call);
  if (method === null || !DB_CALLS.has(method)) return false;
  return method !== 'exec' || DB_NAME.test((call.expression as ts.PropertyAccessExpression).expression.getText());
}

/** Whether `source` registers routes, and where it holds SQL or calls the database. */
function inspect(file: string, source: string): { routes: boolean; findings: Finding[] } {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  let routes = false;
  const findings: Finding[] = [];
  const at = (node: ts.Node, kind: string, text: string) =>
    findings.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, kind, text: text.replace(/\s+/g, ' ').slice(0, 100) });
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      if (registersRoute(node)) routes = true;
      if (callsDb(node)) at(node, `a database call (.${methodOf(node)})`, node.getText(sf));
    }
    const text = literalText(node);
    const sql = text === null ? undefined : SQL.find((s) => s.pattern.test(text));
    if (sql) at(node, `SQL (${sql.name})`, text!);
    // A template's parts are read once, as the whole template.
    if (!ts.isTemplateExpression(node)) ts.forEachChild(node, visit);
    else node.templateSpans.forEach((s) => visit(s.expression));
  };
  visit(sf);
  return { routes, findings };
}

const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

describe('no SQL in route files', () => {
  const files = sourceFiles(SERVER).map((f) => ({ file: rel(f), ...inspect(rel(f), readFileSync(f, 'utf8')) }));
  const routeFiles = files.filter((f) => f.routes);

  it('finds the files that register routes', () => {
    expect(routeFiles.length).toBeGreaterThan(30);
    for (const f of ['server/patients/history-routes.ts', 'server/live/viewer-socket.ts', 'server/audit/routes.ts', 'server/plugins/web.ts']) {
      expect(routeFiles.map((r) => r.file)).toContain(f);
    }
    // A repository is no route file.
    expect(files.find((f) => f.file === 'server/devices/repository.ts')?.routes).toBe(false);
  });

  it('no file that registers routes holds SQL or calls the database (put the statement in the resource\'s repository)', () => {
    expect(routeFiles.flatMap((f) => f.findings).map((x) => `${x.file}:${x.line} ${x.kind}: ${x.text}`)).toEqual([]);
  });

  it('the repositories are seen to hold SQL (the patterns still read it)', () => {
    for (const f of ['server/devices/repository.ts', 'server/patients/repository.ts']) {
      expect(files.find((x) => x.file === f)?.findings.length, f).toBeGreaterThan(3);
    }
  });

  const route = (body: string) => `export function probeRoutes(app: Api, ctx: AppContext) {\n  app.get('/probe', { preHandler: auth }, async (request) => {\n${body}\n  });\n}\n`;

  it.each([
    ['a query on the context', "    const rows = await ctx.db.query('select 1');\n    return { data: rows };"],
    ['a query in a transaction', "    await ctx.db.transaction((tx) => tx.query('select 1'));\n    return { data: null };"],
    ['a notification', "    await ctx.db.notify('channel', 'x');\n    return { data: null };"],
    ['a script', "    await db.exec('vacuum');\n    return { data: null };"],
    ['a select in a string', "    return { data: await run(`select id, label from categories where patient_id = ${1}`) };"],
    ['an insert', "    return { data: await run('insert into notes (text) values (?)') };"],
    ['an update', "    return { data: await run(`update notes set text = ? where id = ?`) };"],
    ['a delete', "    return { data: await run('delete from notes') };"],
    ['a where clause', "    return { data: await run(`${COLUMNS} where t.patient_id = ? order by t.id`) };"],
    ['a positional parameter', "    return { data: await run(`${COLUMNS} and x = $1`) };"],
  ])('%s in a route file is found', (_name, body) => {
    const { routes, findings } = inspect('server/probe/routes.ts', route(body));
    expect(routes).toBe(true);
    expect(findings).toHaveLength(1);
  });

  it('a handler that calls its repository, in a transaction, with a regular expression, is clean', () => {
    const body = [
      '    const m = /^(\\d+)$/.exec(request.query.id);',
      '    const ID = /x/; ID.exec("x");',
      '    const row = await ctx.db.transaction((tx) => saveNote(tx, request.body));',
      "    if (!row) throw new ApiError(400, 'validation_failed', 'Select a patient from the list, then save.');",
      '    return { data: { row, query: request.query, m } };',
    ].join('\n');
    expect(inspect('server/probe/routes.ts', route(body))).toEqual({ routes: true, findings: [] });
  });

  it('a route path kept in a table still marks the file as one that registers routes', () => {
    expect(inspect('server/probe/routes.ts', 'for (const k of KINDS) app.get(PATHS[k], opts, handler);\n').routes).toBe(true);
    expect(inspect('server/probe/repository.ts', "export const rows = (db: Queryable) => db.query('select * from notes');\n").routes).toBe(false);
  });
});
