import { MISSING_CODES, type ChannelData, type RecordingSource } from './model';

/**
 * Which stored values mean "missing", per channel. Our radar device writes -1 and -2 into
 * its measurement channels (spec 2 §5); other tools' files define no such codes, so there
 * a -1 is a -1 and a gap is NaN. Coded channels (sleep quality, apnea flags, body
 * position) carry categories, never missing codes.
 */

/** Channels whose values are categories, not measurements: -1 is no missing code for them. */
const CODED_CHANNELS: ReadonlySet<string> = new Set(['SQB', 'SA', 'TB']);

/** The codes a channel of a night from `source` has when its reader did not say. */
export function defaultMissingCodes(source: RecordingSource, code: string): readonly number[] {
  if (source !== 'simulated' && source !== 'device') return [];
  return CODED_CHANNELS.has(code) ? [] : MISSING_CODES;
}

/** The channel's own codes, else the source's default. */
export function missingCodesOf(channel: Pick<ChannelData, 'code' | 'missingCodes'>, source: RecordingSource): readonly number[] {
  return channel.missingCodes ?? defaultMissingCodes(source, channel.code);
}
