/** Every leaf of a translation catalogue as a dotted path → string (arrays are indexed like objects). */
export function leaves(tree: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (tree !== null && typeof tree === 'object') {
    for (const [k, v] of Object.entries(tree)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out.set(prefix, String(tree));
  }
  return out;
}
