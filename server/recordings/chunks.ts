/**
 * The first `byteLength` bytes of a channel's chunks in order (all of them when null; fewer
 * when fewer are stored). Chunks only ever grow at the end (frames in seq order; compaction
 * keeps the bytes in order), so a row's samples are the chunks' first bytes.
 */
export function joinChunks(chunks: readonly Uint8Array[], byteLength: number | null): Uint8Array {
  const total = chunks.reduce((n, c) => n + c.byteLength, 0);
  const out = new Uint8Array(byteLength === null ? total : Math.min(byteLength, total));
  let at = 0;
  for (const data of chunks) {
    if (at === out.byteLength) break;
    // subarray stops at the chunk's end: whole chunks go as they are, the last one in part.
    const part = data.subarray(0, out.byteLength - at);
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/** A channel's binary form joined from its parts, read in part order (decision 1008), or null when it has none. */
export function joinWire(parts: readonly Uint8Array[]): Uint8Array | null {
  return parts.length === 0 ? null : joinChunks(parts, null);
}
