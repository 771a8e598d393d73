// Parameters written into a statement's text, for PostgreSQL's simple query protocol: the only
// way to send several statements in one round trip (a BEGIN or COMMIT with a statement that
// has parameters: Db.procedure on PostgreSQL). For our own fixed SQL texts only ($n never
// inside one of their literals); every string is quoted as an E'' literal, bytes in hex.

/** One value as a quoted SQL literal (also a transaction's settings: adapter.ts). */
export function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`inline SQL: ${value} is not a finite number`);
    // Parenthesised: a negative number next to an operator or a cast stays one value.
    return `(${String(value)})`;
  }
  if (typeof value === 'bigint') return `(${value.toString()})`;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  // An E'' string (backslashes escaped whatever standard_conforming_strings says), by two native
  // replaces: pg's escapeLiteral loops over every character in JavaScript (a batch's JSON is ~20 KB).
  if (typeof value === 'string') return `E'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  // bytea's hex form: only hex digits after the backslash, nothing to escape.
  if (value instanceof Uint8Array) return `E'\\\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}'`;
  if (Array.isArray(value) && value.every((v) => typeof v === 'number' && Number.isFinite(v))) return `'{${value.join(',')}}'`;
  throw new Error(`inline SQL: no literal for a value of type ${typeof value}`);
}

/** `sql` with each $n replaced by params[n - 1] as a quoted literal. */
export function inlineParams(sql: string, params: readonly unknown[]): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => {
    const i = Number(n) - 1;
    if (i < 0 || i >= params.length) throw new Error(`inline SQL: $${n} has no parameter`);
    return literal(params[i]);
  });
}

/** A prepared statement's arguments for EXECUTE: `(lit1, lit2, …)` (each coerced to its parameter's type). */
export function inlineArgs(params: readonly unknown[]): string {
  return params.length ? `(${params.map(literal).join(', ')})` : '';
}
