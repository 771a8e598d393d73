import { describe, expect, it } from 'vitest';
import { lintSnippet } from './lint-snippet';

// The boundaries of docs/decisions/0975-contract-floor.md, each snippet linted as if it stood at `file`.

/** The boundary messages ESLint gives `code` standing at `file` (a path from the project's root). */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  return (await lintSnippet(file, code)).filter((m) => /0975-contract-floor/.test(m.message)).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('import boundaries', () => {
  it.each([
    ['src → server', 'src/features/probe/probe.ts', "import { x } from '../../../server/x';\nexport const y = x;\n"],
    ['src → server, a type', 'src/probe.ts', "import type { X } from '../server/live/x';\nexport type Y = X;\n"],
    ['src → server, re-exported', 'src/api/probe.ts', "export { x } from '../../server/x';\n"],
    ['src → server, dynamic', 'src/features/probe/probe.ts', "export const load = () => import('../../../server/x');\n"],
    ['src → server, an import type', 'src/features/probe/probe.ts', "export type Y = typeof import('../../../server/x');\n"],
    ['server → src', 'server/devices/probe.ts', "import { x } from '../../src/x';\nexport const y = x;\n"],
    ['contract → server', 'contract/probe.ts', "import { x } from '../server/x';\nexport const y = x;\n"],
    ['contract → server, a type', 'contract/probe.ts', "import type { X } from '../server/x';\nexport type Y = X;\n"],
    ['contract → src', 'contract/probe.ts', "import { x } from '../src/x';\nexport const y = x;\n"],
    ['contract → engine, a value', 'contract/probe.ts', "import { x } from '../engine/x';\nexport const y = x;\n"],
    ['workers → server', 'workers/probe.ts', "import { x } from '../server/x';\nexport const y = x;\n"],
  ])('%s is an error', async (_name, file, code) => {
    expect(await boundaryErrors(file, code)).toHaveLength(1);
  });

  it.each([
    ['src → contract', 'src/features/probe/probe.ts', "import { x } from '../../../contract/x';\nexport const y = x;\n"],
    ['server → contract', 'server/devices/probe.ts', "import { x } from '../../contract/x';\nexport const y = x;\n"],
    ['contract → engine, a type', 'contract/probe.ts', "import type { X } from '../engine/x';\nexport type Y = X;\n"],
    ['contract → contract', 'contract/probe.ts', "import { x } from './common';\nexport const y = x;\n"],
    ['tests → anything', 'tests/unit/probe.test.ts', "import { x } from '../../server/x';\nimport { z } from '../../src/z';\nexport const y = [x, z];\n"],
    ['bench → anything', 'bench/probe.ts', "import { x } from '../server/x';\nimport { z } from '../src/z';\nexport const y = [x, z];\n"],
  ])('%s is allowed', async (_name, file, code) => {
    expect(await boundaryErrors(file, code)).toEqual([]);
  });
});
