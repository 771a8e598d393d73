import { instantiate } from '@assemblyscript/loader';

/** Raw exports of engine/build/nocturne.wasm (see engine/assembly/index.ts). */
export interface WasmExports {
  memory: WebAssembly.Memory;
  ENGINE_ABI: WebAssembly.Global;
  alloc(bytes: number): number;
  free(ptr: number): void;
  liveBytes(): number;
  liveBlocks(): number;
  sumF32(ptr: number, n: number): number;
  channelCreate(n: number): number;
  channelValues(handle: number): number;
  channelDestroy(handle: number): void;
  channelConvertI16(handle: number, src: number, scale: number, offset: number, codes: number, nCodes: number, nonPositive: boolean): void;
  channelConvertF32(handle: number, src: number, scale: number, offset: number, codes: number, nCodes: number, nonPositive: boolean): void;
  channelBuild(handle: number): void;
  channelValidCount(handle: number): number;
  channelLo(handle: number): number;
  channelHi(handle: number): number;
  channelIndexBytes(handle: number): number;
  view(handle: number, a: number, b: number, pixels: number, pxMs: number, out: number): void;
  viewScan(handle: number, a: number, b: number, pixels: number, pxMs: number, out: number): void;
  copyBytes(dst: number, src: number, bytes: number): void;
  statsFast(handle: number, s: number, e: number, out: number): void;
  statsExact(handle: number, s: number, e: number, out: number, scratch: number): void;
  histogramEdges(handle: number, s: number, e: number, edges: number, nEdges: number, out: number): void;
  bandCounts(handle: number, s: number, e: number, ranges: number, nRanges: number, levels: number, out: number): void;
}

/** Where the build puts the module; Vite turns this URL into an asset. */
const WASM_URL = new URL('./build/nocturne.wasm', import.meta.url);

/** ABI version this face was written for. */
const EXPECTED_ABI = 2;

async function readWasmBytes(url: URL): Promise<ArrayBuffer | Uint8Array> {
  if (url.protocol === 'file:') {
    // Node (server, tests, benchmarks): read the file; the specifier is a
    // variable so browser bundlers leave node:fs alone.
    const fsModule = 'node:fs/promises';
    const fs = (await import(/* @vite-ignore */ fsModule)) as typeof import('node:fs/promises');
    return fs.readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`engine: cannot fetch ${url.href} (HTTP ${response.status})`);
  return response.arrayBuffer();
}

/**
 * Instantiates the engine's WebAssembly module in a browser (fetch) or in Node
 * (file read) and checks its ABI version.
 */
export async function instantiateEngine(url: URL = WASM_URL): Promise<WasmExports> {
  const bytes = await readWasmBytes(url);
  const { exports } = await instantiate<Record<string, unknown>>(bytes as BufferSource);
  const wasm = exports as unknown as WasmExports;
  const abi = Number(wasm.ENGINE_ABI.value);
  if (abi !== EXPECTED_ABI) {
    throw new Error(`engine: nocturne.wasm ABI ${abi}, expected ${EXPECTED_ABI}; run npm run build:engine`);
  }
  return wasm;
}

/** True when this JS runtime validates WebAssembly SIMD (the engine needs it). */
export function hasWasmSimd(): boolean {
  // Smallest module using a v128 instruction: (func (result v128) i32.const 0 i8x16.splat)
  const probe = new Uint8Array([
    0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11,
  ]);
  return WebAssembly.validate(probe);
}
