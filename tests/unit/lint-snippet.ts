import path from 'node:path';
import { ESLint } from 'eslint';
import type { Linter } from 'eslint';

// Lints a snippet through ESLint's own API and the project's eslint.config.js, as if it stood at
// a path, without type information (the snippets are not on disk), so only the syntactic rules speak.

const ROOT = path.resolve(__dirname, '../..');

const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
  },
});

/** The messages ESLint gives `code` standing at `file` (a path from the project's root). */
export async function lintSnippet(file: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages;
}
