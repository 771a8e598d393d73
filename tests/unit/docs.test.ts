import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The README is a front door and docs/ holds the rest: the README stays short, every relative
// link of the README and docs/ reaches a file (and a heading, for an #anchor), every decision
// record has its three sections, and the decisions' index is the one the script writes.

const ROOT = path.resolve(__dirname, '../..');
const DECISIONS = path.join(ROOT, 'docs/decisions');

/** Every markdown file under `dir`, recursively. */
function markdownUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return markdownUnder(full);
    return name.endsWith('.md') ? [full] : [];
  });
}

/** The text outside fenced code blocks and inline code spans, where links are links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading's text (github-slugger): lower case, punctuation dropped, each space a hyphen. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\*+/g, '')
    .trim();
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of a markdown file's headings, a repeated one numbered as GitHub does (x, x-1, x-2). */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Relative links (and images) of a markdown file that reach no file, or no heading of it. */
function brokenLinks(file: string, markdown: string, read: (f: string) => string | null): string[] {
  const broken: string[] = [];
  for (const m of prose(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = m[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
    const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
    const resolved = pathPart ? path.resolve(path.dirname(file), decodeURIComponent(pathPart)) : file;
    const text = read(resolved);
    if (text === null) {
      broken.push(`${target}: no such file`);
      continue;
    }
    if (anchor !== undefined && resolved.endsWith('.md') && !anchors(text).has(anchor)) broken.push(`${target}: no heading #${anchor}`);
  }
  return broken;
}

const readIfFile = (f: string): string | null => (existsSync(f) && statSync(f).isFile() ? readFileSync(f, 'utf8') : null);

describe('the README and docs/', () => {
  it('keep the README to 200 lines', () => {
    const lines = readFileSync(path.join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(200);
  });

  it('link only to files and headings that exist', () => {
    const files = [path.join(ROOT, 'README.md'), ...markdownUnder(path.join(ROOT, 'docs'))];
    const broken = files.flatMap((f) => brokenLinks(f, readFileSync(f, 'utf8'), readIfFile).map((b) => `${path.relative(ROOT, f)}: ${b}`));
    expect(broken).toEqual([]);
  });

  it('find a broken link and a broken anchor (the check can fail)', () => {
    const file = path.join(ROOT, 'docs/example.md');
    const pages: Record<string, string> = { [path.join(ROOT, 'docs/there.md')]: '# There\n\n## Two words, `code` and more\n' };
    const read = (f: string) => pages[f] ?? null;
    const text = '[ok](there.md#two-words-code-and-more) [gone](missing.md) [bad](there.md#nowhere) `[code](not-a-link.md)` [web](https://example.com)';
    expect(brokenLinks(file, text, read)).toEqual(['missing.md: no such file', 'there.md#nowhere: no heading #nowhere']);
  });

  it('slug headings as GitHub does', () => {
    expect(slug('Live ingest (`bench:realtime`)')).toBe('live-ingest-benchrealtime');
    expect(slug("A patient's night")).toBe('a-patients-night');
    expect(slug('0001 — Title')).toBe('0001--title');
    expect([...anchors('# A\n## A\n## A\n')]).toEqual(['a', 'a-1', 'a-2']);
  });
});

describe('the decision records', () => {
  const records = readdirSync(DECISIONS).filter((f) => /^\d{4}-[a-z0-9-]+\.md$/.test(f));

  it('are numbered once each', () => {
    const numbers = records.map((f) => f.slice(0, 4));
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(records.length).toBeGreaterThan(0);
  });

  it('each have a title with their number, then Context, Decision and Consequences, none empty', () => {
    const wrong = records.filter((f) => {
      const text = readFileSync(path.join(DECISIONS, f), 'utf8');
      if (!text.startsWith(`# ${f.slice(0, 4)} — `)) return true;
      const sections = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
      if (sections.join('|') !== 'Context|Decision|Consequences') return true;
      return text.split(/^## .+$/m).slice(1).some((body) => body.trim() === '');
    });
    expect(wrong).toEqual([]);
  });

  it('are indexed by the current docs/decisions/README.md', () => {
    // Exits 1 (and execFileSync throws) when the index is stale.
    expect(() => execFileSync(process.execPath, [path.join(ROOT, 'scripts/decisions-index.mjs'), '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});
