/**
 * Whether a view spans its whole ArrayBuffer: only then can the buffer be moved to another
 * thread (or wrapped as another typed array) without taking bytes that are not the view's.
 */
export function ownsBuffer(view: ArrayBufferView): view is ArrayBufferView & { buffer: ArrayBuffer } {
  return view.byteOffset === 0 && view.byteLength === view.buffer.byteLength && view.buffer instanceof ArrayBuffer;
}

/** The bytes in a buffer of their own: the same view when it owns its buffer, else a copy. */
export function ownBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return ownsBuffer(bytes) ? (bytes as Uint8Array<ArrayBuffer>) : bytes.slice();
}

/** Bytes that came from another thread as a Buffer, as the database drivers give bytea (no copy). */
export function asBuffer(bytes: Uint8Array | null | undefined): Buffer | null {
  return bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : null;
}
