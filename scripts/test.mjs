// `npm test`: typecheck, lint, unit, server (PGlite, then PostgreSQL when TEST_DATABASE_URL is
// set), end-to-end in Chromium. Ends with one line "Tests: N passed, N failed".
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { ensureChromium } from './ensure-chromium.mjs';

const RESULTS = '.vitest-results';
rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });

let passed = 0;
let failed = 0;
const failures = [];

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label} ===`);
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return res.status === 0;
}

function step(label, cmd, args, env) {
  if (!run(label, cmd, args, env)) {
    failures.push(label);
    finish();
  }
}

function vitest(label, project, env = {}) {
  const out = `${RESULTS}/${label.replace(/\W+/g, '-')}.json`;
  const ok = run(label, 'npx', ['vitest', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], env);
  try {
    const report = JSON.parse(readFileSync(out, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    if (report.numTotalTests === 0) failures.push(`${label}: no tests ran`);
  } catch {
    failures.push(`${label}: no report`);
  }
  if (!ok) failures.push(label);
}

function finish() {
  console.log('');
  if (failures.length) console.log(`Failed: ${failures.join('; ')}`);
  console.log(`Tests: ${passed} passed, ${failed} failed`);
  process.exit(failures.length || failed ? 1 : 0);
}

step('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
step('lint (promises nobody handles)', 'npx', ['eslint', '.']);
step('build engine', 'npm', ['run', '--silent', 'build:engine']);
vitest('unit', 'unit');
vitest('server on PGlite', 'server', { NOCTURNE_TEST_DB: 'pglite' });
if (process.env.TEST_DATABASE_URL) {
  vitest('server on PostgreSQL', 'server', { NOCTURNE_TEST_DB: 'postgres' });
} else {
  console.log('\n(TEST_DATABASE_URL is not set: the server suite ran on PGlite only.)');
}
step('build web app', 'npm', ['run', '--silent', 'build:web']);
ensureChromium();
vitest('end-to-end in Chromium', 'e2e');
finish();
