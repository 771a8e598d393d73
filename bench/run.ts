// `npm run bench`: runs every bench/*.bench.ts, each in its own Node process
// (one benchmark's memory and JIT state never skews the next), the engine's
// first. Keeps going when one fails and exits non-zero at the end.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('./', import.meta.url));
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.bench.ts'))
  .sort((a, b) => Number(b === 'engine.bench.ts') - Number(a === 'engine.bench.ts') || a.localeCompare(b));

const failed: string[] = [];
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', `${dir}${file}`], { stdio: 'inherit' });
  if (run.status !== 0) failed.push(file);
}
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
