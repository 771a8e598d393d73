// Type-aware lint for what the compiler does not catch: promises nobody awaits or handles,
// imports across the project's boundaries (docs/decisions/0975-contract-floor.md), and
// functions over 80 lines outside tests, benchmarks and scripts.
// Run by `npm run lint` and by `npm test` (scripts/test.mjs).
import tseslint from 'typescript-eslint';

/** A relative import that climbs into one of our top-level folders (`../server/x`, `../../src/y`). */
const into = (...folders) => `^(\\.\\./)+(${folders.join('|')})(/.*)?$`;

/**
 * One boundary: files under `from` may not import the folders `banned`, whether by `import`,
 * `import type`, `export … from`, `import()` or a `typeof import()` type. `typesOf` names
 * folders whose types (and only types) may still be imported.
 */
function boundary(from, banned, why, typesOf = []) {
  const message = `${from}/ may not import ${banned.join(', ')}/ ${why} (docs/decisions/0975-contract-floor.md)`;
  const patterns = [{ regex: into(...banned), message }];
  if (typesOf.length > 0) patterns.push({ regex: into(...typesOf), allowTypeImports: true, message: `${from}/ may import only types of ${typesOf.join(', ')}/ (docs/decisions/0975-contract-floor.md)` });
  const dynamic = `/${into(...banned, ...typesOf).replaceAll('/', '\\/')}/`;
  return {
    files: [`${from}/**/*.ts`, `${from}/**/*.tsx`],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns }],
      'no-restricted-syntax': [
        'error',
        { selector: `ImportExpression[source.value=${dynamic}]`, message },
        { selector: `TSImportType[source.value=${dynamic}]`, message },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'engine/assembly/**', 'engine/build/**', 'public/**'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  // What the browser and the server share lives in contract/; bench/ and tests/ may import anything.
  boundary('src', ['server'], ': what both sides need lives in contract/'),
  boundary('server', ['src'], ': what both sides need lives in contract/'),
  boundary('contract', ['server', 'src', 'workers'], ': contract/ is the floor under both sides', ['engine']),
  boundary('workers', ['server', 'src'], ': the workers serve both sides'),
  // Short functions: a route file registers small groups, SQL lives in repositories; a screen is hooks,
  // components and pure helpers (docs/decisions/0988-server-of-plugins.md, issue 35 point 4).
  {
    files: ['server/**/*.ts', 'contract/**/*.ts', 'workers/**/*.ts', 'src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
);
