/**
 * How a channel code is named, the same in the app and in the PDF reports (decision 1001):
 * Nocturne's own codes by their names in the catalogue, then the source signals Nocturne knows
 * by their label (ResMed's 'MaskPress.2s' → "Mask pressure (2 s)", the period in the language's
 * numbers); any other code as stored. The words come from the locale files through `lookup`
 * (i18next's t in the app, the report's catalogue on the server).
 */
import { labelPeriod, normaliseLabel } from './signal-labels';

/** A catalogue lookup: the text of `key` with `{{name}}` values filled in, or undefined when the catalogue has no such key. */
export type NameLookup = (key: string, values?: Record<string, string>) => string | undefined;

/** The source signals the catalogue names (locales' night.sourceSignals). */
export type SourceSignal =
  | 'therapyPressure' | 'maskPressure' | 'pressure' | 'expiratoryPressure' | 'leak' | 'tidalVolume' | 'minuteVentilation'
  | 'alveolarVentilation' | 'targetVentilation' | 'respiratoryRate' | 'snore' | 'flowLimitation' | 'ieRatio' | 'inspiratoryTime' | 'expiratoryTime';

/** Channels whose code is all the night view shows but which need a name on their own (Real Time). */
const LONG_CHANNEL_NAMES = new Set(['I', 'Q', 'IQ']);

/** A code a catalogue can take as part of a key: a file's label may hold '.' or ':', which i18next reads as key syntax. */
const PLAIN_CODE = /^[A-Za-z0-9_]+$/;

/**
 * Source signals the server keeps under their own label (server/recordings/labels.ts maps only
 * what means one of Nocturne's channels), by the same normalised key: ResMed's PLD and BRP
 * signals as real SD cards write them. 'Press' is looked up by its period (see sourceSignal).
 */
const SOURCE_SIGNALS: Readonly<Record<string, SourceSignal>> = {
  maskpress: 'maskPressure',
  eprpress: 'expiratoryPressure',
  leak: 'leak',
  tidvol: 'tidalVolume',
  minvent: 'minuteVentilation',
  alvminvent: 'alveolarVentilation',
  tgtvent: 'targetVentilation',
  resprate: 'respiratoryRate',
  snore: 'snore',
  flowlim: 'flowLimitation',
  ieratio: 'ieRatio',
  ti: 'inspiratoryTime',
  te: 'expiratoryTime',
};

/** Keys too short to mean one thing unless the label is ResMed's own ('Ti.2s'): a bare 'TE' may be anything. */
const ONLY_WITH_PERIOD = new Set(['ti', 'te']);

/**
 * ResMed's 'Press' is two signals: in BRP (every 40 ms) the pressure measured at the mask, a
 * waveform rising and falling with each breath; in PLD (every 2 s) the therapy pressure the
 * device sets. Without a period it is only a pressure.
 */
export function sourceSignal(code: string): SourceSignal | undefined {
  const key = normaliseLabel(code);
  const period = labelPeriod(code);
  if (key === 'press') return !period ? 'pressure' : period.unit === 'ms' || period.value < 1 ? 'maskPressure' : 'therapyPressure';
  return ONLY_WITH_PERIOD.has(key) && !period ? undefined : SOURCE_SIGNALS[key];
}

/** A Nocturne code's own name (the radar's raw I and Q spelt out), or undefined for any other code. */
export function ownName(lookup: NameLookup, code: string): string | undefined {
  if (LONG_CHANNEL_NAMES.has(code)) return lookup(`live.channelNames.${code}`);
  if (!PLAIN_CODE.test(code)) return undefined;
  return lookup(`night.channels.${code}`) || undefined;
}

/** A channel's name: see the file's head. `number` writes the label's period in the language's numbers. */
export function nameOfChannel(lookup: NameLookup, number: (value: number, decimals: number) => string, code: string): string {
  const own = ownName(lookup, code);
  if (own !== undefined) return own;
  const signal = sourceSignal(code);
  if (!signal) return code;
  const name = lookup(`night.sourceSignals.${signal}`) ?? code;
  const period = labelPeriod(code);
  if (!period) return name;
  const value = number(period.value, period.decimals);
  const periodText = lookup(period.unit === 'ms' ? 'night.sourcePeriod.ms' : 'night.sourcePeriod.s', { value }) ?? `${value} ${period.unit}`;
  return lookup('night.sourceNamed', { name, period: periodText }) ?? `${name} (${periodText})`;
}
