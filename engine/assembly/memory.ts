// Raw (unmanaged) memory shared with the JS face. Every block handed out by
// `alloc` must come back through `free`; `liveBytes` lets tests prove it.

let live: usize = 0;
let blocks: i32 = 0;

/** Allocates `bytes` of unmanaged memory, 16-byte aligned. */
export function alloc(bytes: usize): usize {
  const ptr = heap.alloc(bytes + 16);
  store<usize>(ptr, bytes);
  live += bytes;
  blocks++;
  return ptr + 16;
}

/** Releases a block returned by `alloc`. Null is ignored. */
export function free(ptr: usize): void {
  if (ptr == 0) return;
  const base = ptr - 16;
  live -= load<usize>(base);
  blocks--;
  heap.free(base);
}

/** Bytes currently handed out by `alloc` and not yet freed. */
export function liveBytes(): f64 {
  return <f64>live;
}

/** Number of blocks currently handed out by `alloc`. */
export function liveBlocks(): i32 {
  return blocks;
}
