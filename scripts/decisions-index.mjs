#!/usr/bin/env node
// Rewrites docs/decisions/README.md from the records' titles; `--check` exits 1 when it is stale.
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'decisions');
const INDEX = path.join(DIR, 'README.md');
const RECORD = /^(\d{4})-[a-z0-9-]+\.md$/;

/** The index as it should read, one row per record in number order. */
function renderIndex(dir = DIR) {
  const rows = readdirSync(dir)
    .filter((f) => RECORD.test(f))
    .sort()
    .map((file) => {
      const heading = readFileSync(path.join(dir, file), 'utf8').split('\n', 1)[0];
      const m = /^# (\d{4}) — (.+)$/.exec(heading);
      if (!m || m[1] !== file.slice(0, 4)) throw new Error(`${file}: the first line must be "# ${file.slice(0, 4)} — <title>"`);
      return `| [${m[1]}](${file}) | ${m[2].replaceAll('|', '\\|')} |`;
    });
  return [
    '# Decisions',
    '',
    'One record per decision: its context, what was decided, and what follows from it.',
    'This index is generated from the records\' titles by `node scripts/decisions-index.mjs`',
    '(`--check` fails when it is stale). A new decision is a new record with the next free number.',
    '',
    '| record | decision |',
    '|---|---|',
    ...rows,
    '',
  ].join('\n');
}

const wanted = renderIndex();
if (process.argv.includes('--check')) {
  const current = existsSync(INDEX) ? readFileSync(INDEX, 'utf8') : '';
  if (current !== wanted) {
    console.error('docs/decisions/README.md is stale: run `node scripts/decisions-index.mjs`');
    process.exit(1);
  }
} else {
  writeFileSync(INDEX, wanted);
}
