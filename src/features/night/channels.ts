// The channels of the single-night view (spec 2 §1, §4, §9): which exist, how they are
// drawn, which are on by default, and the order the physician saved.
import type { SeriesStyle } from '../../charts/core/geometry';
import { membershipIncludes } from '../../state/membership';
import type { NightInfo, PhysicianPreferences } from './types';

/** Value axis of coded channels (spec 2 §9). */
export type CodedAxis = 'stages' | 'sleepAwake' | 'bed';

/** How one selectable channel is charted. */
export interface ChannelDef {
  code: string;
  /** Data channels drawn in the block (IQ draws I and Q; bp draws systolic and diastolic). */
  sources: readonly string[];
  style: SeriesStyle;
  psg?: boolean;
  /** Threshold bands from the patient's vital parameters. */
  bands?: 'br' | 'pr' | 'spo2';
  axis?: CodedAxis;
  /** Fixed value range; otherwise the night's min and max. */
  yDomain?: readonly [number, number];
  /** A stored channel Nocturne has no meaning for (an imported EEG, a CPAP's pressure): drawn under its own label. */
  unmapped?: boolean;
}

const def = (code: string, more: Partial<ChannelDef> = {}): ChannelDef => ({ code, sources: [code], style: 'line', ...more });

/**
 * How long a step channel's value holds, ms: its sample period (a stage epoch's 30 s), so its
 * last epoch (or one between gaps) is drawn for its whole length; undefined for other styles or
 * a rate the night does not give.
 */
export function holdMsOf(night: Pick<NightInfo, 'channels'>, code: string, style: SeriesStyle): number | undefined {
  if (style !== 'step') return undefined;
  const fs = night.channels.find((c) => c.code === code)?.fs;
  return fs !== undefined && fs > 0 && Number.isFinite(fs) ? 1000 / fs : undefined;
}

/** Every chartable channel, in the default order (spec 2 §9 "Graph channels", then IQ, weight, ODI). */
const CHANNELS: readonly ChannelDef[] = [
  def('SLP_STGS', { style: 'step', axis: 'stages', yDomain: [-0.4, 3.4] }),
  def('Y_DIST'),
  def('MOV'),
  def('BR', { bands: 'br' }),
  def('BRV'),
  def('HR'),
  def('HRV'),
  def('SPO2', { bands: 'spo2' }),
  def('PR', { bands: 'pr' }),
  def('IQ', { sources: ['I', 'Q'] }),
  def('I'),
  def('Q'),
  def('SA', { style: 'step', axis: 'sleepAwake', yDomain: [-0.3, 1.3] }),
  def('TB', { style: 'step', axis: 'bed', yDomain: [-0.3, 1.3] }),
  def('bp', { sources: ['bp', 'bp_diastolic'], style: 'points' }),
  def('blood_sugar', { style: 'points' }),
  def('body_temp', { style: 'points' }),
  def('weight', { style: 'points' }),
  def('NC_PSG', { psg: true }),
  def('THRX_PSG', { psg: true }),
  def('ABD_PSG', { psg: true }),
  def('SPO2_PSG', { psg: true }),
  def('ODI', { sources: [] }),
];

const CHANNEL_BY_CODE: ReadonlyMap<string, ChannelDef> = new Map(CHANNELS.map((c) => [c.code, c]));

/** The signal-quality channel behind the artefacts toggle (not a chart, spec 2 §9). */
export const ARTEFACT_CODE = 'SQB';

/** Stored channels that are part of another chart, never a chart of their own. */
const NOT_CHARTED: ReadonlySet<string> = new Set([ARTEFACT_CODE, 'bp_diastolic']);

/**
 * How a stored channel is charted: its own definition, or, for a channel Nocturne has no
 * meaning for, a line of its samples under its own label (every stored channel can be opened).
 */
export function channelDef(code: string): ChannelDef {
  return CHANNEL_BY_CODE.get(code) ?? def(code, { unmapped: true });
}

/** Off until the user turns them on (spec 2 §4): weight and the PSG channels. */
function defaultOff(code: string): boolean {
  return code === 'weight' || CHANNEL_BY_CODE.get(code)?.psg === true;
}

/** The night view's defaults: also off, the stored channels without a meaning here (an EEG, a CPAP's leak). */
export function nightDefaultOff(code: string): boolean {
  return defaultOff(code) || !CHANNEL_BY_CODE.has(code);
}

export interface Audience {
  annotator: boolean;
  membership: 'paid' | 'non-paid' | undefined;
}

/**
 * Channels offered for a night (spec 2 §4): those with data, IQ when I or Q is
 * present, I and Q themselves for annotators only, ODI for non-paid memberships; then
 * every other stored channel (an import's EEG, EOG, pressure, leak…) under its own label,
 * in the order stored.
 */
export function availableChannels(present: readonly string[], who: Audience): string[] {
  const has = new Set(present);
  const known = CHANNELS.filter((c) => {
    if (c.code === 'IQ') return has.has('I') || has.has('Q');
    if (c.code === 'I' || c.code === 'Q') return who.annotator && has.has(c.code);
    if (c.code === 'ODI') return who.membership !== undefined && membershipIncludes(who.membership, 'odiChannel');
    return has.has(c.code);
  }).map((c) => c.code);
  const others = [...has].filter((code) => !CHANNEL_BY_CODE.has(code) && !NOT_CHARTED.has(code));
  return [...known, ...others];
}

/**
 * The data channels to load for the charts shown, in screen order (the visible ones
 * first, so the first chart draws first), then SQB for the artefacts toggle.
 */
export function sourcesToLoad(choices: readonly ChannelChoice[], present: ReadonlySet<string>): string[] {
  const codes: string[] = [];
  for (const c of choices) {
    if (!c.visible) continue;
    for (const source of channelDef(c.code).sources) if (present.has(source) && !codes.includes(source)) codes.push(source);
  }
  if (present.has(ARTEFACT_CODE)) codes.push(ARTEFACT_CODE);
  return codes;
}

/** The channels the visible charts draw (their sources, in chart order, once each): what a full-night overview is asked for. */
export function overviewCodes(visible: readonly string[], present: ReadonlySet<string>): string[] {
  return [...new Set(visible.flatMap((c) => channelDef(c).sources))].filter((c) => present.has(c));
}

/** A channel in the selector: its code and whether its chart is shown. */
export interface ChannelChoice {
  code: string;
  visible: boolean;
}

/**
 * The selector's order: the saved preference's key order (its booleans are visibility),
 * then the channels it does not name, in default order with default visibility.
 * `withData`: the night's channels holding at least one valid sample (all of them when not given).
 */
export function orderChannels(
  available: readonly string[],
  saved: Record<string, boolean> | null | undefined,
  withData?: ReadonlySet<string>,
  offByDefault: (code: string) => boolean = defaultOff,
): ChannelChoice[] {
  const offered = new Set(available);
  const out: ChannelChoice[] = [];
  const seen = new Set<string>();
  for (const [code, visible] of Object.entries(saved ?? {})) {
    if (offered.has(code) && !seen.has(code)) {
      out.push({ code, visible: visible === true });
      seen.add(code);
    }
  }
  for (const code of available) if (!seen.has(code)) out.push({ code, visible: !offByDefault(code) });
  return withDataShown(referenceShown(out, withData), withData);
}

/** The radar's own signals: a night holding one with data was recorded by the radar. */
const RADAR_SIGNALS: readonly string[] = ['Y_DIST', 'I', 'Q', 'MOV'];

/**
 * A night the radar did not record (a CPAP's SD card, a PSG, an oximeter) opens on its
 * reference channels with data (its flow, belts, SpO2), whatever the defaults or the saved
 * layout say of them (they are off only beside the radar's own signals, which they mirror),
 * and without the charts that would draw nothing (a CPAP's pulse channel with no valid value).
 */
function referenceShown(choices: ChannelChoice[], withData: ReadonlySet<string> | undefined): ChannelChoice[] {
  if (withData === undefined || RADAR_SIGNALS.some((code) => withData.has(code))) return choices;
  const draws = (code: string) => (code === 'ODI' ? withData.has('SPO2') || withData.has('SPO2_PSG') : drawsData(code, withData));
  const shown = choices.map((c) => ({ code: c.code, visible: (c.visible || channelDef(c.code).psg === true) && draws(c.code) }));
  return shown.some((c) => c.visible) ? shown : choices;
}

/**
 * The night screen's starting charts for a night and the user: what the screen shows first
 * and what the page's start fetches for it (one rule for both, so the two never disagree).
 */
export function startingChoices(night: Pick<NightInfo, 'channels'>, preferences: PhysicianPreferences | null): ChannelChoice[] {
  const who = { annotator: preferences?.is_annotator === true, membership: preferences?.membership_type };
  return orderChannels(availableChannels(night.channels.map((c) => c.code), who), preferences?.kpi_order_preference, channelsWithData(night.channels), nightDefaultOff);
}

/** The night's channels with at least one valid sample (the night list's valid count; its sample count when the server has none). */
export function channelsWithData(channels: readonly { code: string; count: number; valid?: number }[]): Set<string> {
  return new Set(channels.filter((c) => (c.valid ?? c.count) > 0).map((c) => c.code));
}

/**
 * A chart that draws a recorded channel with data: one of its sources has a valid sample
 * (ODI has no source: it is derived, and empty without oximetry).
 */
const drawsData = (code: string, withData: ReadonlySet<string> | undefined) =>
  channelDef(code).sources.some((source) => withData === undefined || withData.has(source));

/**
 * When none of the charts the choices show would draw a recorded channel with data (a
 * CPAP night: its flow is a PSG channel, off by default, so only the derived ODI chart was
 * on, empty; or its oximeter recorded no valid value all night, so the pulse and SpO2
 * charts would only say so), the channels with data are shown instead, every one of them,
 * and the others hidden. Otherwise the choices stay as they are. Only the screen's
 * starting choices: a user who then turns every chart off sees none.
 */
function withDataShown(choices: readonly ChannelChoice[], withData: ReadonlySet<string> | undefined): ChannelChoice[] {
  if (choices.some((c) => c.visible && drawsData(c.code, withData))) return [...choices];
  if (!choices.some((c) => drawsData(c.code, withData))) return [...choices];
  return choices.map((c) => ({ code: c.code, visible: drawsData(c.code, withData) }));
}

/** The preference map to save: order as keys, visibility as values. */
export function toPreference(choices: readonly ChannelChoice[]): Record<string, boolean> {
  return Object.fromEntries(choices.map((c) => [c.code, c.visible]));
}

/** Moves the item at `from` to index `to` (drag and drop). */
export function move<T>(list: readonly T[], from: number, to: number): T[] {
  const out = [...list];
  if (from < 0 || from >= out.length || to < 0 || to >= out.length || from === to) return out;
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item!);
  return out;
}

// Stage codes to chart values: shared with the server's overviews (engine/stages.ts).
export { mapStages } from '../../../engine/stages';
