// From the server's binary channel format (engine/wire.ts) to a channel the
// engine loads: the header carries everything but the channel's name.
import type { ChannelInput, ChannelRef } from './types';
import { hz, ms } from './units';
import type { WireChannel } from './wire';

/** The ChannelInput of a decoded wire buffer, named by `ref`. */
export function channelInputFromWire(ref: ChannelRef, wire: WireChannel): ChannelInput {
  return {
    night: ref.night,
    code: ref.code,
    samples: wire.samples,
    sampleRateHz: hz(wire.sampleRate),
    t0Ms: ms(wire.t0),
    scale: wire.scale,
    offset: wire.offset,
    count: wire.samples.length,
    missingCodes: [...wire.missingCodes],
  };
}
