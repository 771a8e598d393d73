import { describe, expect, it } from 'vitest';
import { lintSnippet } from './lint-snippet';

// The 80-line limit of docs/decisions/0988-server-of-plugins.md (the browser's code too, issue 35 point 4),
// each snippet linted as if it stood at a path.

/** A function `lines` long, with a blank line and a comment after each statement (neither counts). */
function functionOf(lines: number): string {
  const steps = Array.from({ length: lines - 4 }, (_, i) => `  total += ${i};\n\n  // step ${i}\n`).join('');
  return `export function probe(): number {\n  let total = 0;\n${steps}  return total;\n}\n`;
}

/** The max-lines-per-function messages ESLint gives `code` standing at `file` (a path from the project's root). */
async function lengthErrors(file: string, code: string): Promise<string[]> {
  return (await lintSnippet(file, code)).filter((m) => m.ruleId === 'max-lines-per-function').map((m) => m.message);
}

describe('function length', () => {
  it.each(['server/devices/probe.ts', 'server/probe.ts', 'contract/probe.ts', 'workers/probe.ts', 'src/probe.ts', 'src/features/night/probe.tsx'])('an 81-line function in %s is an error', async (file) => {
    expect(await lengthErrors(file, functionOf(81))).toEqual([expect.stringMatching(/too many lines \(81\)\. Maximum allowed is 80/)]);
  });

  it.each(['server/devices/probe.ts', 'src/features/night/probe.tsx'])('an 80-line function in %s is allowed, blank lines and comments not counted', async (file) => {
    expect(await lengthErrors(file, functionOf(80))).toEqual([]);
  });

  it.each(['tests/server/probe.test.ts', 'tests/unit/probe.test.tsx', 'server/probe.test.ts', 'src/probe.test.tsx', 'bench/probe.ts', 'scripts/probe.ts'])('an 81-line function in %s is allowed', async (file) => {
    expect(await lengthErrors(file, functionOf(81))).toEqual([]);
  });
});
