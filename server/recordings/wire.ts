/** The binary channel format lives beside the engine, which decodes it in browser and Node. */
export { decodeWire } from '../../engine/wire';
