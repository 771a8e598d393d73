/** The binary channel format lives beside the engine, which decodes it in browser and Node. */
export { decodeWire, encodeWire, WIRE_HEADER_BYTES, WIRE_MAGIC, type WireChannel } from '../../engine/wire';
