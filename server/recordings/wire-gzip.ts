import { promisify } from 'node:util';
import { gzip as gzipCb, constants as zlib } from 'node:zlib';
import { encodeWire } from '../../engine/wire';
import type { ChannelData } from './model';

const gzip = promisify(gzipCb);

/**
 * A channel in the engine's binary form, gzipped. Huffman only: string matching finds
 * little in noisy samples; entropy coding alone keeps most of the gain at half the time.
 */
export async function gzipWire(c: Pick<ChannelData, 't0' | 'sampleRate' | 'scale' | 'offset' | 'storage' | 'samples'> & { missingCodes: readonly number[] }): Promise<Uint8Array> {
  const body = encodeWire({ t0: c.t0, sampleRate: c.sampleRate, scale: c.scale, offset: c.offset, storage: c.storage, missingCodes: c.missingCodes, samples: c.samples });
  return new Uint8Array(await gzip(body, { level: zlib.Z_BEST_SPEED, strategy: zlib.Z_HUFFMAN_ONLY }));
}
