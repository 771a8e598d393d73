import { describe, expect, it } from 'vitest';
import { inlineParams } from '../../server/db/inline-sql';

describe('parameters written into a statement (PostgreSQL simple query protocol)', () => {
  it('quotes strings, bytes, numbers and number arrays as literals; $10 is not $1 followed by 0', () => {
    const params = ["it's \\ here", Buffer.from([0, 1, 255]), -5, [1, -2], null, true, 6, 7, 8, 'ten'];
    expect(inlineParams('select $1, $2::bytea, $3, $4::int[], $5, $6, $10', params)).toBe(
      "select E'it''s \\\\ here', E'\\\\x0001ff'::bytea, (-5), '{1,-2}'::int[], NULL, TRUE, E'ten'",
    );
  });

  it('refuses what it cannot quote, and a $n without its parameter', () => {
    expect(() => inlineParams('select $1', [Number.NaN])).toThrow(/finite/);
    expect(() => inlineParams('select $1', [{ a: 1 }])).toThrow(/no literal/);
    expect(() => inlineParams('select $1', [['a']])).toThrow(/no literal/);
    expect(() => inlineParams('select $2', [1])).toThrow(/\$2 has no parameter/);
  });
});
