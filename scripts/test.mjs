// `npm test`: engine build; typecheck, lint, knip, web build and unit side by side; server (on PGlite,
// and side by side on PostgreSQL when TEST_DATABASE_URL is set); end-to-end in Chromium. Ends
// with each failed test and one line "Tests: N passed, N failed".
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { ensureChromium } from './ensure-chromium.mjs';

const RESULTS = '.vitest-results';
rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });

let passed = 0;
let failed = 0;
const failures = [];
/** Each failed test with its first message line, repeated at the end where a truncated log still shows it. */
const failedTests = [];

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label} ===`);
  const started = Date.now();
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(`--- ${label}: ${Math.round((Date.now() - started) / 1000)} s`);
  return res.status === 0;
}

function step(label, cmd, args, env) {
  if (!run(label, cmd, args, env)) {
    failures.push(label);
    finish();
  }
}

const vitestArgs = (project, out) => ['vitest', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`];
const reportFile = (label) => `${RESULTS}/${label.replace(/\W+/g, '-')}.json`;

function vitest(label, project, env = {}) {
  count(label, run(label, 'npx', vitestArgs(project, reportFile(label)), env));
}

/**
 * Several commands side by side, each printed whole when all have ended; true for each that
 * passed. The server suite mostly waits (on sockets, child processes, timers), so on PGlite
 * and on PostgreSQL at once it takes little longer than one of them alone; the type check,
 * the lint and the web build each keep one core busy.
 */
async function together(jobs) {
  console.log(`\n=== ${jobs.map((j) => j.label).join(', ')}: side by side ===`);
  const ended = await Promise.all(
    jobs.map(({ label, cmd, args, env = {} }) => {
      const log = `${RESULTS}/${label.replace(/\W+/g, '-')}.log`;
      const fd = openSync(log, 'w');
      const started = Date.now();
      const child = spawn(cmd, args, { stdio: ['ignore', fd, fd], env: { ...process.env, FORCE_COLOR: '1', ...env } });
      return new Promise((resolve) => child.on('close', (code) => resolve({ label, log, ok: code === 0, seconds: Math.round((Date.now() - started) / 1000) })));
    }),
  );
  for (const { label, log, seconds } of ended) {
    console.log(`\n=== ${label} (${seconds} s) ===`);
    process.stdout.write(readFileSync(log));
  }
  return ended;
}

/** A vitest run of `project` as a job for together(): `files` only (every one must exist), or all but `exclude`. */
const vitestJob = ({ label, project, env, exclude = [], files = [] }) => {
  const missing = files.filter((f) => !existsSync(f));
  if (missing.length) throw new Error(`${label}: no such test file: ${missing.join(', ')}`);
  return { label, cmd: 'npx', args: [...vitestArgs(project, reportFile(label)), ...exclude.flatMap((f) => ['--exclude', f]), ...files], env };
};

/** Steps and vitest runs (jobs with a `project`, each counted) side by side; the run stops after them if a step failed. */
async function stepsTogether(jobs) {
  const ended = await together(jobs.map((j) => (j.project ? vitestJob(j) : j)));
  ended.forEach(({ label, ok }, i) => {
    if (jobs[i].project) count(label, ok);
    else if (!ok) failures.push(label);
  });
  if (failures.length) finish();
}

/** vitest runs side by side, each counted. */
async function vitestTogether(runs) {
  const ended = await together(runs.map(vitestJob));
  for (const { label, ok } of ended) count(label, ok);
}

function count(label, ok) {
  const out = reportFile(label);
  try {
    const report = JSON.parse(readFileSync(out, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    for (const file of report.testResults ?? []) {
      for (const t of file.assertionResults ?? []) {
        if (t.status === 'failed') failedTests.push(`${label}: ${file.name.replace(`${process.cwd()}/`, '')} > ${t.fullName}\n    ${String(t.failureMessages?.[0] ?? '').split('\n')[0]}`);
      }
    }
    if (report.numTotalTests === 0) failures.push(`${label}: no tests ran`);
  } catch {
    failures.push(`${label}: no report`);
  }
  if (!ok) failures.push(label);
}

function finish() {
  console.log('');
  for (const t of failedTests) console.log(`✗ ${t}`);
  if (failures.length) console.log(`Failed: ${failures.join('; ')}`);
  console.log(`Tests: ${passed} passed, ${failed} failed`);
  process.exit(failures.length || failed ? 1 : 0);
}

step('build engine', 'npm', ['run', '--silent', 'build:engine']);
// The unit tests (one worker, a core) beside the checks: the four checks leave a core idle
// for half their time, and the unit files need only the engine built above.
await stepsTogether([
  { label: 'typecheck', cmd: 'npx', args: ['tsc', '-p', 'tsconfig.json', '--noEmit'] },
  { label: 'lint (promises nobody handles)', cmd: 'npx', args: ['eslint', '.'] },
  { label: 'unused files, exports and dependencies (knip)', cmd: 'npx', args: ['knip', '--no-progress'] },
  { label: 'build web app', cmd: 'npm', args: ['run', '--silent', 'build:web'] },
  { label: 'unit', project: 'unit' },
]);
/**
 * Server test files whose cost is the engine's, the file parsers', the simulator's or the PDF
 * renderer's, not the database's (decision 0999): with PostgreSQL they run once, in its run,
 * where a test costs about half the CPU (the database is native, not WebAssembly in the test's
 * process). Their SQL is the routes' SQL, which the PGlite run executes through the access
 * matrix (every route, every role) and the answers contract, as the PostgreSQL run does.
 */
const ENGINE_WORK = [
  'analytics', 'bad-input', 'corrections', 'double-scoring', 'engine-pool', 'fuzz', 'mail', 'night-basis', 'night-files',
  'night-sessions', 'one-number', 'overload', 'reports', 'safe-defaults', 'scoring-files', 'server-log-redaction',
  'simulated-nights', 'timeouts', 'upload-fuzz',
].map((name) => `tests/server/${name}.test.ts`);

/**
 * Server test files that run on PostgreSQL too (decision 1000): where PostgreSQL differs from
 * PGlite, which is the same SQL engine in WebAssembly — the driver's answers (the answers
 * contract, cursors, the trail's batches), every route and role (the access matrix),
 * connections at once (concurrency, imports and staged imports, sign-in limits under a
 * burst), live ingest and its group commit (prepared statements, notices, the live path's own
 * connections), fan-out across processes and faults, and the migrations. Every other
 * file runs once, on PGlite, the database `npm start` runs on.
 */
const ON_POSTGRES_TOO = [
  'access-matrix', 'annotation-pages', 'answers', 'audit-trail', 'concurrency', 'imports', 'live', 'live-batch', 'live-fanout', 'live-faults',
  'migration-015', 'migration-033', 'signin-jam', 'staged-import',
].map((name) => `tests/server/${name}.test.ts`);

/**
 * Server test files that never use the run's database: they start servers and tools on
 * PGlite data directories of their own (first start, start-up failures, the data directory's
 * lock). Either run gives them the same machine, so they go to the PostgreSQL run, which
 * otherwise ends 1–2 minutes before the PGlite run (2026-12-01: 363 against 477 s).
 */
const OWN_DATABASE = ['startup', 'pglite-lock'].map((name) => `tests/server/${name}.test.ts`);

if (process.env.TEST_DATABASE_URL) {
  await vitestTogether([
    { label: 'server on PGlite', project: 'server', env: { NOCTURNE_TEST_DB: 'pglite' }, exclude: [...ENGINE_WORK, ...OWN_DATABASE] },
    { label: 'server on PostgreSQL', project: 'server', env: { NOCTURNE_TEST_DB: 'postgres' }, files: [...ENGINE_WORK, ...ON_POSTGRES_TOO, ...OWN_DATABASE] },
  ]);
} else {
  vitest('server on PGlite', 'server', { NOCTURNE_TEST_DB: 'pglite' });
  console.log('\n(TEST_DATABASE_URL is not set: the server suite ran on PGlite only.)');
}
ensureChromium();
vitest('end-to-end in Chromium', 'e2e');
finish();
