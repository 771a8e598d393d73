// Entry point of the Nocturne signal engine (compiled by asc with SIMD).
// The JS face (engine/index.ts) drives these kernels through raw pointers.

export { alloc, free, liveBytes, liveBlocks } from './memory';
export { sumF32 } from './sum';
export {
  channelCreate, channelValues, channelDestroy, channelConvertI16, channelConvertF32,
  channelBuild, channelValidCount, channelLo, channelHi, channelIndexBytes,
} from './channel';
export { view, viewScan, copyBytes } from './view';
export { statsFast, statsExact } from './stats';
export { histogramEdges, bandCounts } from './histogram';

/** Engine ABI version; the JS face refuses a build whose version differs. */
export const ENGINE_ABI: i32 = 2;
