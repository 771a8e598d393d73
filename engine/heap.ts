// Moves data in and out of the engine's linear memory. Typed-array views of
// WASM memory are short-lived: memory.grow detaches them, so every access
// builds a fresh view and every result is copied into its own buffer.
import type { WasmExports } from './wasm';

/** Allocation helpers over the engine's exports; every alloc pairs with a free. */
export class Heap {
  private scratchPtr = 0;
  private scratchSize = 0;

  constructor(private readonly wasm: WasmExports) {}

  get buffer(): ArrayBuffer {
    return this.wasm.memory.buffer;
  }

  /** Runs `use` with `bytes` of fresh memory, freed afterwards whatever happens. */
  withBlock<T>(bytes: number, use: (ptr: number) => T): T {
    const ptr = this.wasm.alloc(Math.max(bytes, 1));
    try {
      return use(ptr);
    } finally {
      this.wasm.free(ptr);
    }
  }

  /** Copies float64 values into fresh memory for the duration of `use`. */
  withF64<T>(values: ArrayLike<number>, use: (ptr: number) => T): T {
    return this.withBlock(values.length * 8, (ptr) => {
      new Float64Array(this.buffer, ptr, values.length).set(values);
      return use(ptr);
    });
  }

  /**
   * A reusable output area of at least `bytes` (kept between calls, grown on
   * demand, released by dispose). Valid until the next call to scratch.
   */
  scratch(bytes: number): number {
    if (bytes > this.scratchSize) {
      const size = Math.max(bytes, this.scratchSize * 2, 4096);
      const ptr = this.wasm.alloc(size);
      this.wasm.free(this.scratchPtr);
      this.scratchPtr = ptr;
      this.scratchSize = size;
    }
    return this.scratchPtr;
  }

  /**
   * Copies `bytes` at `ptr` into `into` when it is a usable ArrayBuffer of at
   * least that size, else into a new one; never a view of WASM memory, so
   * the result is safe to transfer.
   */
  copyOut(ptr: number, bytes: number, into?: ArrayBuffer): ArrayBuffer {
    // new + set is about three times faster than ArrayBuffer.prototype.slice here.
    const usable = into instanceof ArrayBuffer && into.byteLength >= bytes && into !== this.buffer;
    const copy = usable ? into : new ArrayBuffer(bytes);
    new Uint8Array(copy, 0, bytes).set(new Uint8Array(this.buffer, ptr, bytes));
    return copy;
  }

  /** Reads `count` float64 at `ptr`. */
  readF64(ptr: number, count: number): Float64Array {
    return new Float64Array(this.copyOut(ptr, count * 8));
  }

  /** Releases the output area. */
  dispose(): void {
    this.wasm.free(this.scratchPtr);
    this.scratchPtr = 0;
    this.scratchSize = 0;
  }
}
