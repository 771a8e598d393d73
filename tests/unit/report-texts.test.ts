import { describe, expect, it } from 'vitest';
import { MEASURED_TEXTS } from '../../server/reports/measured-texts';
import { TEXTS } from '../../server/reports/texts';

// The PDF reports are set in PDFKit's standard Helvetica, whose glyphs are WinAnsi's (cp1252): a
// character outside it is drawn as another one ("SD/√n" came out as 'SD/"n' in a trend report).

/** cp1252's characters: printable ASCII, Latin-1's upper half, and the 27 it places at 0x80–0x9F. */
const WIN_ANSI = new Set([
  ...Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)),
  ...Array.from({ length: 0x100 - 0xa0 }, (_, i) => String.fromCharCode(0xa0 + i)),
  ...'€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ',
  '\n',
]);

/** Every string inside a texts object, by its path. */
function strings(value: unknown, path: string): Array<[string, string]> {
  if (typeof value === 'string') return [[path, value]];
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => strings(v, `${path}.${k}`));
  return [];
}

describe('report texts', () => {
  it.each(['en', 'de'] as const)('%s: every character has a glyph in the reports\' font', (language) => {
    const all = [...strings(TEXTS[language], 'texts'), ...strings(MEASURED_TEXTS[language], 'measured')];
    expect(all.length).toBeGreaterThan(50);
    const missing = all.flatMap(([path, text]) => [...text].filter((ch) => !WIN_ANSI.has(ch)).map((ch) => `${path}: ${ch}`));
    expect(missing).toEqual([]);
  });
});
