import { breathingAmplitude, type Amplitude } from './amplitude';
import { BREATH, breathSegments, PAUSE, segmentAt, segmentEnd, type Breaths, type BreathingSignalKind } from './breaths';
import type { DetectedEvent, Series } from './series';

export interface RespiratoryOptions {
  /** Apnea: amplitude down by at least this fraction (AASM 0.9). */
  apneaDrop?: number;
  /** Hypopnea: amplitude down by at least this fraction (AASM 0.3). */
  hypopneaDrop?: number;
  /** Minimum event length, s. */
  minDurationS?: number;
  /** A hypopnea needs a desaturation starting between 5 s before its onset and this long after its end, s. */
  desaturationLagS?: number;
  /** The desaturation rule the `desaturations` were detected with (3 or 4 %), for the events' reasons. */
  desaturationRule?: 3 | 4;
  /**
   * Score every hypopnea on the breathing signal alone (no desaturation needed), labelled
   * `flowOnly`: for nights recorded without oximetry (or with an all-missing SpO2 channel).
   */
  flowOnlyHypopneas?: boolean;
  /**
   * A flow-only hypopnea needs this larger drop (AASM 1999 "Chicago" criteria: ≥ 50 % for
   * ≥ 10 s stands alone; a lesser drop needs a desaturation, which cannot be seen here).
   */
  flowOnlyDrop?: number;
  /**
   * The night's SpO2, when it has one: a hypopnea whose window (onset to end + lag) has
   * under half its SpO2 samples valid cannot be confirmed by a desaturation, and is scored
   * flow-only (labelled) instead of being dropped.
   */
  oximetry?: Series;
  /**
   * How the breathing signal relates to airflow, for cutting it into breaths: 'flow' (CPAP
   * flow, nasal pressure, thermistor; the default) or 'volume' (radar displacement, belts).
   */
  signal?: BreathingSignalKind;
  /** Where an event's edges are read (see {@link EventEdges}). */
  eventEdges?: EventEdges;
  /** Effort belts: apneas are obstructive (effort continues), central (none) or mixed; unclassified without them. */
  thorax?: Series;
  abdomen?: Series;
}

/**
 * Where an event's edges are read: 'signal' (the default: the last/first big excursion
 * around the low stretch), 'hybrid' (opt-in: the signal's edges moved to the breath
 * boundary AASM measures from, where the breaths there are cut with confidence; meets the
 * simulated goal, not the ResMed 20250808 one: docs/decisions/0134-hybrid-event-edges-tried-opt-in-eventedges-hybrid-not-the.md) or
 * 'breaths' (the run of clearly reduced breaths; tried, not adopted).
 */
export type EventEdges = 'hybrid' | 'signal' | 'breaths';

const DEFAULTS = { apneaDrop: 0.9, hypopneaDrop: 0.3, minDurationS: 10, desaturationLagS: 45, desaturationRule: 3, flowOnlyHypopneas: false, flowOnlyDrop: 0.5, signal: 'flow', eventEdges: 'signal' } as const;
/** AASM: the baseline is the breathing of the 2 minutes before the event. */
const BASELINE_S = 120;
/** With fewer valid seconds than this in the 2 minutes, look back up to LOOKBACK_S. */
const BASELINE_MIN_S = 30;
const LOOKBACK_S = 300;
/** The breaths' baseline needs at least this many stable breaths. */
const MIN_BASELINE_BREATHS = 5;
/** Longer stretches of low amplitude are a lost or removed sensor, not an event. */
const MAX_EVENT_S = 120;
/**
 * A baseline under this fraction of the night's median amplitude is no breathing to
 * compare with (sensor off, mask removed): nothing is scored against it.
 */
const MIN_BASELINE_OF_NIGHT = 0.25;
/** A breath cut on the signal lasts 1 to 15 s (4 to 60 breaths a minute); anything else is no breath to measure an edge on. */
const MIN_BREATH_S = 1;
const MAX_BREATH_S = 15;
/** A breath longer than this many times the median breath before it is not cut with confidence. */
const MAX_BREATH_OF_PERIOD = 1.5;
/** Effort below this fraction of its own baseline is absent (central). */
const EFFORT_ABSENT = 0.2;

/**
 * Apneas and hypopneas under AASM 2012 (v2.x/v3) rules on any breathing signal at any rate
 * (CPAP flow, nasal pressure, thermistor, radar displacement):
 * - amplitude: breath-by-breath peak-to-peak of the band-passed signal ({@link breathingAmplitude});
 * - baseline: median amplitude of the stable breathing (outside scored events) in the 2
 *   minutes before, frozen for the event;
 * - apnea: amplitude down ≥ `apneaDrop` (90 %) for ≥ `minDurationS` (10 s); obstructive /
 *   central / mixed from the effort belts where given, else unclassified;
 * - hypopnea: down ≥ `hypopneaDrop` (30 %) for ≥ 10 s, with a desaturation (≥ 3 or 4 %, the
 *   physician's rule) starting from 5 s before its onset to `desaturationLagS` after its
 *   end; without oximetry, the same drop alone, labelled `flowOnly`.
 * Every event carries its `reason` (drop %, duration, desaturation, rule). Samples without
 * a valid signal or with bad quality (`quality` 0, e.g. radar SQB) never count as an event:
 * a stretch cut by a gap is scored only when its visible part meets the rules.
 */
export function detectRespiratoryEvents(
  breathing: Series,
  desaturations: readonly DetectedEvent[] = [],
  options: RespiratoryOptions = {},
  quality?: Series,
): DetectedEvent[] {
  const o = { ...DEFAULTS, ...options };
  const amp = breathingAmplitude(breathing);
  if (quality) vetoBadQuality(amp, quality, o.eventEdges === 'breaths');
  const a = amp.values;
  const n = a.length;
  const rate = amp.rate;
  const seconds = Math.ceil(n / rate);
  const perSecond = new Float32Array(seconds).fill(Number.NaN);
  for (let s = 0; s < seconds; s++) {
    const i = Math.min(n - 1, Math.floor((s + 0.5) * rate));
    perSecond[s] = a[i];
  }
  const nightMedian = quantile(perSecond, 0, seconds, 0.5, () => true);
  if (!(nightMedian > 0)) return [];
  const inEvent = new Uint8Array(seconds);
  const baselineAt = (s: number) => {
    const stable = (k: number) => !inEvent[k];
    let b = quantile(perSecond, s - BASELINE_S, s, 0.5, stable, BASELINE_MIN_S);
    if (!Number.isFinite(b)) b = quantile(perSecond, s - LOOKBACK_S, s, 0.5, stable, BASELINE_MIN_S);
    return b >= MIN_BASELINE_OF_NIGHT * nightMedian ? b : Number.NaN;
  };
  const effort = [o.thorax, o.abdomen].filter((e): e is Series => !!e).map((e) => breathingAmplitude(e));
  const halfW = (amp.windowS * 1000) / 2;
  const halfN = Math.round((amp.windowS * rate) / 2);
  const timeOf = (i: number) => amp.t0 + (i * 1000) / rate;
  const hypoLevel = 1 - o.hypopneaDrop;
  /** How far past the window an edge is looked for (one slow breath). */
  const searchN = Math.round(8 * rate);
  const sig = amp.signal;
  /**
   * Edges on the signal: the low stretch of the amplitude is shorter than the event by about
   * one window, so from the middle of the stretch outwards, the last and first samples whose
   * excursion from the event's centre reaches the level (and at least half the baseline's):
   * the last breath above the level before the event, the first after.
   */
  const signalSpan = (k0: number, k1: number, level: number, base: number) => {
    const half = Math.max(level, 0.5) * (base / 2);
    // Excursions are measured from the middle of the event's own range.
    // (the middle of the stretch: its ends still hold parts of the breaths around it).
    const m0 = k1 - k0 > 2 * halfN ? k0 + halfN : (k0 + k1) >> 1;
    const m1 = k1 - k0 > 2 * halfN ? k1 - halfN : m0 + 1;
    let hiC = -Infinity;
    let loC = Infinity;
    for (let k = m0; k < m1; k++) {
      if (sig[k] > hiC) hiC = sig[k];
      if (sig[k] < loC) loC = sig[k];
    }
    const centre = Number.isFinite(hiC) && Number.isFinite(loC) ? (hiC + loC) / 2 : 0;
    // A lone missing sample is no edge; the search stops within one slow breath anyway.
    const big = (k: number) => Math.abs(sig[k] - centre) >= half;
    const mid = (k0 + k1) >> 1;
    let on = mid;
    while (on > 0 && on > k0 - halfN - searchN && !big(on - 1)) on--;
    let off = mid;
    while (off < n - 1 && off < k1 + halfN + searchN && !big(off + 1)) off++;
    // A hypopnea's edges (read at 70 % of the baseline's excursion) sit on the peaks of the
    // breaths around it; AASM measures from the nadir preceding the first reduced breath to
    // the beginning of the first breath near baseline: the signal's crossing of the centre
    // after the last such peak, and before the first. (Measured on the simulator, the peaks
    // made hypopneas ≈ 1 s longer than drawn on every night; apneas' and flow-only edges,
    // read at 50 %, were within ±0.5 s and stay: docs/decisions/0098-hypopnea-edges-at-the-breath-boundary.md.)
    if (level === hypoLevel && (o.eventEdges ?? 'signal') === 'signal') {
      const side = (k: number) => Math.sign(sig[k] - centre);
      // Only from a big excursion found (not from where the search gave up).
      if (on > 0 && big(on - 1)) {
        const before = side(on - 1);
        while (on < mid && side(on) === before) on++;
      }
      if (off < n - 1 && big(off + 1)) {
        const after = side(off + 1);
        while (off > on && side(off) === after) off--;
      }
    }
    return { onsetMs: timeOf(on), durationMs: timeOf(off + 1) - timeOf(on), on, end: off + 1 };
  };
  const breaths = o.eventEdges === 'breaths' ? breathSegments(amp, o.signal) : null;
  const cut = o.eventEdges === 'hybrid' ? breathSegments(amp, o.signal) : null;
  const minBreathN = MIN_BREATH_S * rate;
  const maxBreathN = MAX_BREATH_S * rate;
  /**
   * A segment is a breath cut with confidence: a whole breath (not a pause or a gap), of a
   * plausible length (1–15 s) and not much longer than the breaths before (`period`, their
   * median length): a longer "breath" holds more than one (a slow drift, a leak, a pause the
   * segmentation could not see), and its start says nothing about where the event starts.
   */
  const wholeBreath = (b: Breaths, k: number, period: number) => {
    const len = segmentEnd(b, k) - b.start[k];
    return b.kind[k] === BREATH && len >= minBreathN && len <= maxBreathN && len <= MAX_BREATH_OF_PERIOD * period && Number.isFinite(b.size[k]);
  };
  /**
   * Hybrid edges (AASM's breath boundaries): the signal's onset edge lies in the breath
   * holding the last big excursion before the event; the event starts at that breath's
   * start when the breath is clearly reduced as a whole (≤ the hypopnea level of the
   * breaths' baseline: the event took most of it), else at its end (the start of the next
   * breath). The same on the far side: the breath holding the first big excursion after
   * the event ends the event at its start, or at its end when it is still clearly reduced.
   * An edge whose breath is not cut with confidence (a pause, a gap, an implausible length)
   * or with no baseline of breaths stays where the signal put it.
   */
  const hybridSpan = (span: { onsetMs: number; durationMs: number; on: number; end: number }, k0: number, level: number) => {
    if (!cut) return span;
    const ref = breathBaseline(cut, k0 - halfN);
    if (!Number.isFinite(ref)) return span;
    const limit = level * ref;
    const period = breathPeriod(cut, k0 - halfN);
    let a = span.on;
    const kOn = segmentAt(cut, Math.max(0, span.on - 1));
    if (wholeBreath(cut, kOn, period)) {
      // A breath cut short by a pause (the event began in its expiration) is measured over a
      // normal breath's length: the flow it did not move is part of its size.
      const len = segmentEnd(cut, kOn) - cut.start[kOn];
      const cutShort = kOn + 1 < cut.kind.length && cut.kind[kOn + 1] === PAUSE && len < period;
      const size = cutShort ? (cut.size[kOn] * len) / period : cut.size[kOn];
      a = size <= limit ? cut.start[kOn] : segmentEnd(cut, kOn);
    }
    let b = span.end;
    const kEnd = segmentAt(cut, Math.min(n - 1, span.end));
    if (wholeBreath(cut, kEnd, period)) b = cut.size[kEnd] <= limit ? segmentEnd(cut, kEnd) : cut.start[kEnd];
    // Flow coming back after a pause in expiration is no breath yet (a breath begins with an
    // inspiration): the event ends where the first whole breath begins.
    else if (cut.kind[kEnd] === PAUSE && kEnd + 1 < cut.kind.length && wholeBreath(cut, kEnd + 1, period)) b = segmentEnd(cut, kEnd);
    if (b <= a) return span;
    return { onsetMs: timeOf(a), durationMs: timeOf(b) - timeOf(a), on: a, end: b };
  };
  /** Median length (grid samples) of the stable breaths of the 2 minutes before grid index i; a plausible breath's longest length without them. */
  const breathPeriod = (b: Breaths, i: number) => {
    const v: number[] = [];
    for (let k = segmentAt(b, i) - 1; k >= 0 && b.start[k] >= i - BASELINE_S * rate; k--) {
      if (b.kind[k] === BREATH && !inEvent[Math.floor(b.start[k] / rate)]) v.push(segmentEnd(b, k) - b.start[k]);
    }
    if (v.length === 0) return maxBreathN;
    v.sort((x, y) => x - y);
    return v[v.length >> 1];
  };
  /** The breaths' own baseline before grid index i: median size of the stable breaths of the 2 (else 5) minutes before. */
  const breathBaseline = (breaths: Breaths, i: number) => {
    const sizes = (spanS: number) => {
      const v: number[] = [];
      for (let k = segmentAt(breaths, i) - 1; k >= 0 && breaths.start[k] >= i - spanS * rate; k--) {
        if (breaths.kind[k] === BREATH && !inEvent[Math.floor(breaths.start[k] / rate)]) v.push(breaths.size[k]);
      }
      return v;
    };
    let v = sizes(BASELINE_S);
    if (v.length < MIN_BASELINE_BREATHS) v = sizes(LOOKBACK_S);
    if (v.length < MIN_BASELINE_BREATHS) return Number.NaN;
    v.sort((x, y) => x - y);
    return v[v.length >> 1];
  };
  /**
   * The run of clearly reduced segments (≤ the hypopnea level of the breaths' baseline)
   * through the low stretch [k0, k1) of the amplitude, as a span; null when no breath there is reduced.
   */
  const breathRun = (breaths: Breaths, k0: number, k1: number, level: number) => {
    const ref = breathBaseline(breaths, k0 - halfN);
    const count = breaths.start.length;
    if (!Number.isFinite(ref)) return null;
    // A pause is no breath: the event runs on to the start of the first breath that is not reduced.
    const reduced = (k: number) => breaths.kind[k] === PAUSE || (breaths.kind[k] === BREATH && breaths.size[k] <= level * ref);
    const mid = (k0 + k1) >> 1;
    let k = segmentAt(breaths, mid);
    if (!reduced(k)) {
      // The nearest reduced segment within the stretch, if any.
      let best = -1;
      for (let q = segmentAt(breaths, k0); q < count && breaths.start[q] < k1; q++) {
        if (reduced(q) && (best < 0 || Math.abs(breaths.start[q] - mid) < Math.abs(breaths.start[best] - mid))) best = q;
      }
      if (best < 0) return null;
      k = best;
    }
    let first = k;
    while (first > 0 && reduced(first - 1)) first--;
    let last = k;
    while (last + 1 < count && reduced(last + 1)) last++;
    const onsetMs = timeOf(breaths.start[first]);
    return { onsetMs, durationMs: timeOf(segmentEnd(breaths, last)) - onsetMs };
  };
  const apneaLevel = 1 - o.apneaDrop;
  const flowOnlyLevel = 1 - o.flowOnlyDrop;
  /**
   * One pass over the night: every event that meets the rules, a hypopnea that needs a
   * desaturation (`pending`) as if it had one; the desaturations are given afterwards.
   */
  const events: DetectedEvent[] = [];
  const pending = new Set<DetectedEvent>();
  {
    let cachedS = -1;
    let base = Number.NaN;
    let i = 0;
    while (i < n) {
      const s = Math.floor(i / rate);
      // The baseline moves slowly: refresh it every 10 s, and at once where an event may start.
      if (s !== cachedS && (s - cachedS >= 10 || !Number.isFinite(base) || a[i] <= hypoLevel * base * 1.25)) {
        base = baselineAt(s);
        cachedS = s;
      }
      if (!Number.isFinite(base) || !Number.isFinite(a[i]) || a[i] > hypoLevel * base) {
        i++;
        continue;
      }
      // A stretch of low amplitude [i, j), with its longest parts below the apnea and the flow-only levels.
      const apnea = new LongestRun(apneaLevel * base);
      const strong = new LongestRun(flowOnlyLevel * base);
      let j = i;
      let sumRatio = 0;
      let minRatio = 1;
      const maxN = MAX_EVENT_S * rate;
      while (j < n && Number.isFinite(a[j]) && a[j] <= hypoLevel * base && j - i <= maxN) {
        sumRatio += a[j] / base;
        minRatio = Math.min(minRatio, a[j] / base);
        apnea.add(a[j], j);
        strong.add(a[j], j);
        j++;
      }
      const tooLong = j - i > maxN;
      const from = i;
      i = Math.max(j, i + 1);
      // A stretch cut by a gap is scored on its visible part only: it must meet the rules there.
      if (tooLong) continue;
      // Breath edges (opt-in): the run of clearly reduced breaths through the stretch, at the
      // hypopnea level (the flow-only level for a flow-only hypopnea); else edges on the signal.
      const spanOf = (k0: number, k1: number, level: number): { onsetMs: number; durationMs: number } | null => {
        if (breaths) return breathRun(breaths, k0, k1, level === flowOnlyLevel ? flowOnlyLevel : hypoLevel);
        const { onsetMs, durationMs } = hybridSpan(signalSpan(k0, k1, level, base), from, level === flowOnlyLevel ? flowOnlyLevel : hypoLevel);
        return { onsetMs, durationMs };
      };
      const whole = spanOf(from, j, hypoLevel) ?? { onsetMs: 0, durationMs: 0 };
      const minMs = o.minDurationS * 1000 - 1;
      const dropOf = (k0: number, k1: number) => round1((1 - meanRatio(a, k0, k1, base)) * 100);
      let event: DetectedEvent | null = null;
      const ap = apnea.length > 0 ? spanOf(apnea.from, apnea.to, apneaLevel) : null;
      if (ap && ap.durationMs >= minMs) {
        // The apnea is its flat part (AASM measures the ≥90 % drop).
        event = {
          kind: 'apnea', ...ap, amplitude: round3(minRatio),
          apneaType: effort.length ? apneaType(effort, ap.onsetMs + halfW, ap.onsetMs + ap.durationMs - halfW) : 'unclassified',
          reason: { dropPct: dropOf(apnea.from, apnea.to), durationS: round1(ap.durationMs / 1000), rule: `AASM apnea ≥${pct(o.apneaDrop)} % ≥${o.minDurationS} s` },
        };
      } else if (whole.durationMs >= minMs) {
        const endMs = whole.onsetMs + whole.durationMs;
        const noOximetry = o.flowOnlyHypopneas || (o.oximetry !== undefined && !oximetryCovers(o.oximetry, whole.onsetMs, endMs + o.desaturationLagS * 1000));
        if (noOximetry) {
          const st = strong.length > 0 ? spanOf(strong.from, strong.to, flowOnlyLevel) : null;
          if (st && st.durationMs >= minMs) {
            event = {
              kind: 'hypopnea', ...st, amplitude: round3(minRatio), flowOnly: true,
              reason: { dropPct: dropOf(strong.from, strong.to), durationS: round1(st.durationMs / 1000), rule: `flow-only hypopnea ≥${pct(o.flowOnlyDrop)} % ≥${o.minDurationS} s (no oximetry)` },
            };
          }
        } else {
          event = {
            kind: 'hypopnea', ...whole, amplitude: round3(minRatio),
            reason: { dropPct: dropOf(from, j), durationS: round1(whole.durationMs / 1000), rule: `AASM hypopnea ≥${pct(o.hypopneaDrop)} % ≥${o.minDurationS} s + ${o.desaturationRule} % desaturation` },
          };
          pending.add(event);
        }
      }
      // A low stretch can be cut by one breath or a noisy second in the middle of a long event;
      // the rest of it then lies inside the event already scored (its edges are on the signal,
      // beyond the stretch). One event is scored once: a detection mostly inside the previous
      // one is part of it, not a second event.
      const prev = events[events.length - 1];
      if (event && prev && overlapMs(prev, event) * 2 > event.durationMs) event = null;
      if (event) {
        events.push(event);
        const first = Math.max(0, Math.floor((event.onsetMs - amp.t0) / 1000));
        const last = Math.min(seconds, Math.ceil((event.onsetMs + event.durationMs - amp.t0) / 1000));
        for (let k = first; k < last; k++) inEvent[k] = 1;
      }
    }
  }
  // AASM associates a desaturation with the event it follows, and with that one only: a
  // desaturation goes to the last event that begins before it (5 s tolerance), once; a
  // hypopnea that gets none is not scored. (Its reduced breathing still stays out of the
  // baselines after it: a ≥ 30 % drop for ≥ 10 s is no stable breathing, confirmed or not.)
  if (pending.size === 0) return events;
  const used = new Set<DetectedEvent>();
  const out: DetectedEvent[] = [];
  events.forEach((event, k) => {
    if (!pending.has(event)) {
      out.push(event);
      return;
    }
    const endMs = event.onsetMs + event.durationMs;
    const midMs = event.onsetMs + event.durationMs / 2;
    // No later event could have caused the desaturation: none begins between this one's
    // middle and the desaturation's onset less the circulation delay (a fall starting
    // sooner after a later event's onset began before that event could reach the finger).
    const follows = (d: DetectedEvent) => {
      for (let q = k + 1; q < events.length && events[q].onsetMs + DESAT_MIN_LAG_MS <= d.onsetMs; q++) if (events[q].onsetMs > midMs) return false;
      return true;
    };
    const desat = desaturations.find((d) => d.kind === 'desaturation' && !used.has(d) && d.onsetMs >= event.onsetMs - DESAT_BEFORE_MS && d.onsetMs <= endMs + o.desaturationLagS * 1000 && follows(d));
    if (!desat) return;
    used.add(desat);
    const desaturationPct = desat.baseline !== undefined && desat.nadir !== undefined ? round1(desat.baseline - desat.nadir) : undefined;
    const { dropPct, durationS, rule } = event.reason!;
    out.push({ ...event, reason: { dropPct, durationS, desaturationPct, rule } });
  });
  return out;
}

/** A desaturation may start this long before the onset of the event it follows, ms. */
const DESAT_BEFORE_MS = 5000;
/**
 * The shortest lung-to-finger circulation delay, ms: an event lowers the SpO2 at the finger
 * no sooner than this after its onset, so a fall starting sooner after an event's onset
 * belongs to the event before it, when that one can take it.
 */
const DESAT_MIN_LAG_MS = 10_000;

/** How long two events overlap, ms. */
function overlapMs(a: DetectedEvent, b: DetectedEvent): number {
  return Math.max(0, Math.min(a.onsetMs + a.durationMs, b.onsetMs + b.durationMs) - Math.max(a.onsetMs, b.onsetMs));
}

/** The longest run of consecutive samples at or below a level, as [from, to). */
class LongestRun {
  from = 0;
  to = 0;
  private start = -1;
  constructor(private readonly level: number) {}
  get length() {
    return this.to - this.from;
  }
  add(v: number, k: number) {
    if (v <= this.level) {
      if (this.start < 0) this.start = k;
      if (k + 1 - this.start > this.length) {
        this.from = this.start;
        this.to = k + 1;
      }
    } else this.start = -1;
  }
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const round3 = (x: number) => Math.round(x * 1000) / 1000;
const pct = (f: number) => Math.round(f * 100);

function meanRatio(a: Float32Array, from: number, to: number, base: number): number {
  let sum = 0;
  for (let k = from; k < to; k++) sum += a[k] / base;
  return to > from ? sum / (to - from) : 1;
}

/**
 * The q-quantile of the finite values of a[from, to) whose index passes `keep`; NaN with
 * fewer than `minCount` of them.
 */
function quantile(a: Float32Array, from: number, to: number, q: number, keep: (k: number) => boolean, minCount = 1): number {
  const v: number[] = [];
  for (let k = Math.max(0, from); k < Math.min(a.length, to); k++) if (Number.isFinite(a[k]) && keep(k)) v.push(a[k]);
  if (v.length < minCount) return Number.NaN;
  v.sort((x, y) => x - y);
  return v[Math.min(v.length - 1, Math.floor(q * v.length))];
}

/** Marks amplitude samples whose time falls in bad quality (0) as missing, and the signal's too when breaths are measured on it. */
function vetoBadQuality(amp: Amplitude, quality: Series, signalToo: boolean) {
  for (let i = 0; i < amp.values.length; i++) {
    const t = amp.t0 + (i * 1000) / amp.rate;
    const qi = Math.floor(((t - quality.t0) * quality.rate) / 1000);
    if (qi >= 0 && qi < quality.values.length && quality.values[qi] === 0) {
      amp.values[i] = Number.NaN;
      if (signalToo) amp.signal[i] = Number.NaN;
    }
  }
}

/** True when at least half the SpO2 samples in [fromMs, toMs) are valid. */
function oximetryCovers(spo2: Series, fromMs: number, toMs: number): boolean {
  const a = Math.max(0, Math.floor(((fromMs - spo2.t0) * spo2.rate) / 1000));
  const b = Math.min(spo2.values.length, Math.ceil(((toMs - spo2.t0) * spo2.rate) / 1000));
  let ok = 0;
  for (let k = a; k < b; k++) if (Number.isFinite(spo2.values[k])) ok++;
  return b > a && ok * 2 >= b - a;
}

/**
 * Apnea type from effort (AASM): central when effort is absent throughout, mixed when it
 * is absent in the first part and returns, obstructive when it continues. The belts'
 * amplitude is compared with their own median over the 2 minutes before; inner span only
 * (the peak-to-peak window would see the breaths around the event).
 */
function apneaType(effort: Amplitude[], fromMs: number, toMs: number): NonNullable<DetectedEvent['apneaType']> {
  const at = (e: Amplitude, t: number) => {
    const i = Math.round(((t - e.t0) * e.rate) / 1000);
    return i >= 0 && i < e.values.length ? e.values[i] : Number.NaN;
  };
  // Each belt's baseline: median of its amplitude, once a second, over the 2 minutes before.
  const bases = effort.map((e) => {
    const v: number[] = [];
    const end = fromMs - e.windowS * 1000;
    for (let t = end - BASELINE_S * 1000; t < end; t += 1000) {
      const x = at(e, t);
      if (Number.isFinite(x)) v.push(x);
    }
    v.sort((x, y) => x - y);
    return v.length >= BASELINE_MIN_S ? v[v.length >> 1] : Number.NaN;
  });
  const present: boolean[] = [];
  // A second off each end where there is room: the windows there still touch the breaths around.
  const margin = toMs - fromMs >= 4000 ? 1000 : 0;
  for (let t = fromMs + margin; t <= toMs - margin; t += 1000) {
    let best = Number.NaN;
    effort.forEach((e, k) => {
      const r = at(e, t) / bases[k];
      if (Number.isFinite(r) && !(r <= best)) best = r;
    });
    if (Number.isFinite(best)) present.push(best >= EFFORT_ABSENT);
  }
  if (present.length === 0) return 'unclassified';
  const share = present.filter(Boolean).length / present.length;
  if (share <= 0.1) return 'central';
  // Absent in the first part, then back: mixed.
  const firstPresent = present.indexOf(true);
  if (firstPresent >= Math.max(2, present.length * 0.25) && present.slice(firstPresent).filter(Boolean).length >= 0.8 * (present.length - firstPresent)) return 'mixed';
  return 'obstructive';
}
