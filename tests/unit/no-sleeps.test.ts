import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Tests wait for what they mean (a poll, an event, a page function) or move a fake clock
 * (vitest's fake timers, Playwright's page.clock); they never sleep a fixed time.
 */

const TESTS = path.resolve('tests');

/** Ways of sleeping a fixed time. */
const SLEEPS: { name: string; pattern: RegExp }[] = [
  { name: "Playwright's waitForTimeout", pattern: /\bwaitForTimeout\(/ },
  // new Promise((r) => setTimeout(r, 50)), new Promise((resolve) => setTimeout(() => resolve(), 50))
  { name: 'a promise that only waits for a timer', pattern: /new Promise(?:<[^>]*>)?\(\s*\(?\s*\w+\s*\)?\s*=>\s*\{?\s*setTimeout\(/ },
  // setTimeout(resolve, ms) anywhere: a resolve handed straight to a timer
  { name: 'a timer that resolves a promise', pattern: /\bsetTimeout\(\s*(?:r|res|resolve|done)\s*,/ },
  { name: "node:timers/promises' setTimeout", pattern: /from\s+['"](?:node:)?timers\/promises['"]/ },
  { name: 'a sleep helper', pattern: /\b(?:const\s+(?:sleep|delay|pause|wait)\s*=\s*(?:async\s*)?\(|function\s+(?:sleep|delay|pause|wait)\s*\()/ },
];


function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : testFiles(full);
    return /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

interface Sleep {
  file: string;
  line: number;
  text: string;
  kind: string;
}

function findSleeps(file: string, source: string): Sleep[] {
  const rel = path.relative(TESTS, file).split(path.sep).join('/');
  return source.split('\n').flatMap((text, i) => {
    const kind = SLEEPS.find((s) => s.pattern.test(text))?.name;
    return kind ? [{ file: rel, line: i + 1, text: text.trim(), kind }] : [];
  });
}

/** This file, whose samples are sleeps on purpose. */
const SELF = 'unit/no-sleeps.test.ts';

describe('no fixed sleeps in tests', () => {
  const sleeps = testFiles(TESTS)
    .flatMap((f) => findSleeps(f, readFileSync(f, 'utf8')))
    .filter((s) => s.file !== SELF);

  it('no test sleeps a fixed time (wait for the condition, or move a fake clock)', () => {
    expect(sleeps.map((s) => `${s.file}:${s.line} ${s.kind}: ${s.text}`)).toEqual([]);
  });

  it('recognises each way of sleeping', () => {
    const samples = [
      'await page.waitForTimeout(500);',
      'await new Promise((r) => setTimeout(r, 300));',
      'await new Promise<void>((resolve) => setTimeout(() => resolve(), 50));',
      'await new Promise((resolve) => { setTimeout(resolve, 20); });',
      "import { setTimeout as wait } from 'node:timers/promises';",
      'const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));',
    ];
    for (const text of samples) expect(findSleeps(path.join(TESTS, 'x.ts'), text), text).toHaveLength(1);
    // A timer that bounds a wait on an event is no sleep.
    expect(findSleeps(path.join(TESTS, 'x.ts'), "const timer = setTimeout(() => reject(new Error('no answer')), 20_000);")).toEqual([]);
  });
});
