import { readdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyseNight, toSeries, type NightInput } from '../../engine/detect';
import { nightFromFiles } from '../../server/recordings/assemble';
import { joinInto, joinPieces, nightSessions, type NightFileMeta } from '../../server/recordings/sessions';
import type { ChannelData } from '../../server/recordings/model';
import { checkOneNight, NotOneNightError, splitNights } from '../../server/recordings/limits';
import { HMC, PSG, REAL_DIR, real, viaTempFile } from './edf-build';
import { writeEdfPlus } from '../../server/recordings/edf/writer';
import { readEdf } from '../../server/recordings/edf/reader';
import { edfToRecording } from '../../server/recordings/edf/channels';

/** The shared four-session ResMed night (22:36, 23:26, 01:48, 02:30): 20 files. */
const FOUR = readdirSync(REAL_DIR).filter((n) => /^snore_resmed_2025091[01]_/.test(n)).sort();

/** What file order must not change: channels with a hash of their samples, span, events, sessions (the analysis reads only these). */
function stored(names: readonly string[]) {
  const night = nightFromFiles(names.map((name) => ({ name, bytes: real(name) })), { timezone: 'Europe/Zurich' });
  return {
    night,
    figures: {
      span: [night.startMs, night.stopMs],
      channels: night.channels.map((c) => [c.code, c.label, c.t0, c.storage, c.samples.length, createHash('md5').update(new Uint8Array(c.samples.buffer, c.samples.byteOffset, c.samples.byteLength)).digest('hex')]),
      events: night.events.map((e) => [e.onsetMs, e.text]),
      sessions: nightSessions(night.meta.files as NightFileMeta[]),
      sources: night.meta.sources,
    },
  };
}

/** The stored figures and the analysis of a night. */
function figures(names: readonly string[]) {
  const { night, figures: f } = stored(names);
  const channels: NightInput['channels'] = {};
  for (const c of night.channels) if (c.code === 'NC_PSG' || c.code === 'SPO2_PSG') channels[c.code] = toSeries(c.code, c.samples, c.sampleRate, c.t0, c.scale, c.offset, []);
  const a = analyseNight({ startMs: night.startMs, stopMs: night.stopMs, channels });
  return { ...f, monitoringH: a.kpis.monitoringH, respiratory: a.respiratory.map((e) => [e.kind, e.onsetMs]) };
}

/** A seeded shuffle (the same permutations every run). */
function shuffled<T>(list: readonly T[], seed: number): T[] {
  const out = [...list];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('a night is all of its sessions', () => {
  it('four ResMed sessions: one flow channel with gaps, monitoring time = the sessions\' flow time, four sessions listed', () => {
    expect(FOUR).toHaveLength(20);
    const f = figures(FOUR);
    const codes = f.channels.map((c) => c[0] as string);
    // One channel per signal, never '#2' copies of a later session.
    expect(codes.filter((c) => c.includes('#'))).toEqual([]);
    expect(codes).toContain('NC_PSG');
    expect(new Set(codes).size).toBe(codes.length);
    const flow = f.channels.find((c) => c[0] === 'NC_PSG')!;
    // Gaps between sessions are missing (float32 NaN), never invented values.
    expect(flow[3]).toBe('float32');
    // ≈ 5.4 h of flow in a 7.6-h night.
    expect(f.monitoringH).toBeGreaterThan(5.2);
    expect(f.monitoringH).toBeLessThan(5.6);
    expect((f.span[1] - f.span[0]) / 3_600_000).toBeGreaterThan(7.4);
    expect(f.sessions).toHaveLength(4);
    expect(f.sessions.map((s) => s.files.length)).toEqual([5, 5, 5, 5]);
    const flowHours = f.sessions.reduce((h, s) => h + s.duration_ms, 0) / 3_600_000;
    expect(Math.abs(flowHours - f.monitoringH)).toBeLessThan(0.05);
  });

  it("an AirSense 10 night's one EVE and CSL, written under its first session's start, are listed with that session", () => {
    // cpap-lib's card: one EVE/CSL pair for the night (22:49:16), its events over the whole night.
    const dir = 'cpaplib_as10_20230822';
    const names = readdirSync(`${REAL_DIR}${dir}`).filter((n) => !n.startsWith('20230822_224924_')).sort();
    const night = nightFromFiles(names.map((name) => ({ name, bytes: real(`${dir}/${name}`) })), { timezone: 'Europe/Zurich' });
    const sessions = nightSessions(night.meta.files as NightFileMeta[]);
    // Six sessions with data; 04:24:37 ends within a minute of 04:28:32, so they are one.
    expect(sessions.map((s) => s.files.filter((n) => /_(BRP|PLD|SAD)\.edf$/.test(n)).length)).toEqual([3, 3, 3, 3, 6]);
    expect(sessions[0]!.files).toEqual(['20230822_224916_CSL.edf', '20230822_224916_EVE.edf', '20230822_225132_BRP.edf', '20230822_225132_PLD.edf', '20230822_225132_SAD.edf']);
    expect(sessions.slice(1).flatMap((s) => s.files).filter((n) => /_(EVE|CSL)\.edf$/.test(n))).toEqual([]);
  });

  it('the order files arrive in changes no figure (a strong sample of the 20! orders)', () => {
    const reference = stored(FOUR).figures;
    const orders = [[...FOUR].reverse(), ...Array.from({ length: 12 }, (_, k) => shuffled(FOUR, k + 1))];
    for (const order of orders) expect(stored(order).figures).toEqual(reference);
  });

  it('the flow samples of each session are kept exactly, at their own times', () => {
    const brps = FOUR.filter((n) => n.endsWith('_BRP.edf'));
    const whole = nightFromFiles(brps.map((name) => ({ name, bytes: real(name) })));
    const flow = whole.channels.find((c) => c.code === 'NC_PSG')!;
    for (const name of brps) {
      const one = nightFromFiles([{ name, bytes: real(name) }]).channels.find((c) => c.code === 'NC_PSG')!;
      const at = Math.round(((one.t0 - flow.t0) * flow.sampleRate) / 1000);
      expect(Array.from(flow.samples.subarray(at, at + one.samples.length))).toEqual(Array.from(one.samples));
      expect(flow.scale).toBe(one.scale);
    }
  });
});

describe('a later upload joins a stored channel (joinInto)', () => {
  /** One second-long piece of a 10-Hz flow signal per value list, starting `at` seconds after 22:00. */
  const piece = (at: number, values: readonly number[], storage: 'int16' | 'float32' = 'int16'): ChannelData => ({
    code: 'NC_PSG',
    label: 'Flow.40ms',
    unit: 'L/s',
    sampleRate: 10,
    t0: Date.UTC(2025, 8, 10, 22) + at * 1000,
    storage,
    scale: 0.02,
    offset: 0,
    samples: storage === 'int16' ? Int16Array.from(values) : Float32Array.from(values),
  });
  const ten = (from: number) => Array.from({ length: 10 }, (_, i) => from + i);
  const same = (a: ChannelData, b: ChannelData) => [a.t0, a.storage, Array.from(a.samples)].join() === [b.t0, b.storage, Array.from(b.samples)].join();

  it('a piece in the gap between two sessions fills it: the channel of all three at once, every sample where it was', () => {
    const [one, two, three] = [piece(0, ten(1)), piece(2, ten(21)), piece(4, ten(41))];
    const stored = joinPieces([one, three]);
    const whole = joinInto(stored, two)!;
    expect(same(whole, joinPieces([one, two, three]))).toBe(true);
    expect(Array.from(whole.samples.subarray(20, 30))).toEqual(ten(21));
    expect(whole.samples.slice(10, 20).every(Number.isNaN)).toBe(true);
  });

  it('a piece before or after the stored channel joins it as before; one across its samples, or of another signal, does not', () => {
    const stored = joinPieces([piece(2, ten(21)), piece(4, ten(41))]);
    expect(same(joinInto(stored, piece(0, ten(1)))!, joinPieces([piece(0, ten(1)), piece(2, ten(21)), piece(4, ten(41))]))).toBe(true);
    expect(same(joinInto(stored, piece(6, ten(61)))!, joinPieces([piece(2, ten(21)), piece(4, ten(41)), piece(6, ten(61))]))).toBe(true);
    // Half a second into the first session's samples: kept apart, nothing overwritten.
    expect(joinInto(stored, piece(2.5, ten(91)))).toBeNull();
    expect(joinInto(stored, { ...piece(3, ten(31)), label: 'Pressure' })).toBeNull();
    expect(joinInto(stored, { ...piece(3, ten(31)), scale: 0.01 })).toBeNull();
  });

  it('sessions 1 and 3 stored, 2 and 4 uploaded: they interleave into the channel of all four; a piece holding a sample where the channel does is kept apart', () => {
    const s = [piece(0, ten(1)), piece(2, ten(21)), piece(4, ten(41)), piece(6, ten(61))];
    const whole = joinInto(joinPieces([s[0]!, s[2]!]), joinPieces([s[1]!, s[3]!]))!;
    expect(same(whole, joinPieces(s))).toBe(true);
    const stored = joinPieces([s[0]!, s[1]!]);
    // From the gap into the next session's samples: kept apart, even where its own are missing there.
    expect(joinInto(stored, piece(1.5, [...ten(51)]))).toBeNull();
    const across = joinInto(stored, piece(1.5, [...ten(51).slice(0, 5), ...ten(0).map(() => Number.NaN)], 'float32'))!;
    expect(Array.from(across.samples.subarray(10, 30))).toEqual([...Array(5).fill(Number.NaN), 51, 52, 53, 54, 55, ...ten(21)]);
  });

  it('sessions at any sub-sample times, split into two uploads either way round: the channel of one upload of them all (each session rounded once)', () => {
    /** As stored and read back: more than one session remembered (migration 068), one is none. */
    const asStored = (c: ChannelData): ChannelData => {
      const { segments, ...rest } = c;
      return segments && segments.length > 1 ? { ...rest, segments } : rest;
    };
    const session = fc.record({ gapMs: fc.integer({ min: 0, max: 90_000 }), n: fc.integer({ min: 1, max: 40 }), float: fc.boolean() });
    fc.assert(
      fc.property(fc.constantFrom(0.5, 1, 10, 25, 1 / 30), fc.array(session, { minLength: 2, maxLength: 6 }), fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), fc.boolean(), (rate, specs, inFirst, laterFirst) => {
        const period = 1000 / rate;
        let t = Date.UTC(2025, 8, 10, 22, 36, 9);
        const sessions = specs.map((spec, k) => {
          // At least two sample periods after the session before, at any millisecond.
          const t0 = k === 0 ? t : t + 2 * period + spec.gapMs;
          t = t0 + spec.n * period;
          const values = Array.from({ length: spec.n }, (_, i) => 100 * k + i);
          return { ...piece(0, values, spec.float ? 'float32' : 'int16'), sampleRate: rate, t0: Math.round(t0) };
        });
        const first = sessions.filter((_, k) => inFirst[k]);
        const second = sessions.filter((_, k) => !inFirst[k]);
        fc.pre(first.length > 0 && second.length > 0);
        const [stored, later] = laterFirst ? [second, first] : [first, second];
        const whole = joinInto(asStored(joinPieces(stored)), joinPieces(later));
        const reference = joinPieces(sessions);
        expect(whole).not.toBeNull();
        expect([whole!.t0, whole!.samples.length]).toEqual([reference.t0, reference.samples.length]);
        expect(Array.from(whole!.samples)).toEqual(Array.from(reference.samples));
      }),
      { numRuns: 300 },
    );
  });
});

describe('the download of a night of sessions', () => {
  it('is EDF+D with the gaps between sessions, and reads back to the same flow samples', () => {
    const brps = FOUR.filter((n) => n.endsWith('_BRP.edf'));
    const night = nightFromFiles(brps.map((name) => ({ name, bytes: real(name) })));
    const flow = night.channels.find((c) => c.code === 'NC_PSG')!;
    const edf = readEdf(viaTempFile('night.edf', writeEdfPlus(night)), 'night.edf');
    expect(edf.variant).toBe('EDF+D');
    const back = edfToRecording(edf).channels.find((c) => c.code === 'NC_PSG')!;
    expect(back.t0).toBe(flow.t0);
    expect(back.samples.length).toBe(flow.samples.length);
    const same = (a: number, b: number) => (Number.isNaN(a) ? Number.isNaN(b) : a === b);
    let differ = 0;
    for (let i = 0; i < flow.samples.length; i++) if (!same(flow.samples[i], back.samples[i])) differ++;
    expect(differ).toBe(0);
  });
});

describe('which files can be one night', () => {
  it('two people twelve years apart (Sleep-EDF 1989, HMC 2001) are refused naming both files', () => {
    let error: unknown;
    try {
      nightFromFiles([PSG, HMC].map((name) => ({ name, bytes: real(name) })));
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(NotOneNightError);
    expect((error as NotOneNightError).files).toEqual([PSG, HMC]);
    expect((error as Error).message).toMatch(/more than the 36 h of one night/);
  });

  it("one upload of several nights (a card's DATALOG folder) is split where no file covers 12 h; each part one night", () => {
    const h = 3_600_000;
    const f = (fileName: string, start: number, stop: number, patient?: string) => ({ fileName, startMs: start * h, stopMs: stop * h, ...(patient ? { meta: { patient } } : {}) });
    // Two nights of sessions 15 h apart, given out of order: two parts, earliest first.
    const parts = splitNights([f('n2-b.edf', 47, 52), f('n1-a.edf', 22, 25), f('n1-b.edf', 26, 30), f('n2-a.edf', 45, 46)]);
    expect(parts.map((p) => p.map((x) => x.fileName))).toEqual([['n1-a.edf', 'n1-b.edf'], ['n2-a.edf', 'n2-b.edf']]);
    // One night with an 8-h hole (the mask off from 23:00 to 07:00) stays one.
    expect(splitNights([f('a.edf', 22, 23), f('b.edf', 31, 32)])).toHaveLength(1);
    // A hole of 13 h makes two nights of an upload, where one night's check refuses it (below).
    expect(splitNights([f('a.edf', 0, 1), f('b.edf', 14, 15)])).toHaveLength(2);
    // A part longer than a night with no such hole is refused, as is a night years from the others.
    expect(() => splitNights([f('a.edf', 0, 20), f('b.edf', 30, 40)])).toThrow(/more than the 36 h of one night/);
    expect(() => splitNights([f('a.edf', 0, 8), f('b.edf', 400 * 24, 400 * 24 + 8)])).toThrow(/more than the 36 h of one night/);
    // Nights of two people (EDF+ patient fields) are refused whatever their nights.
    expect(() => splitNights([f('a.edf', 0, 8, 'MCH-0234567 F 02-MAY-1951 Haagse_Harry'), f('b.edf', 48, 56, 'MCH-0234568 F 02-MAY-1951 Haagse_Harry')])).toThrow(/patient code differs/);
  });

  it('a 13-h hole between files, and EDF+ headers naming two people, are refused', () => {
    const h = 3_600_000;
    expect(() => checkOneNight([{ fileName: 'a.edf', startMs: 0, stopMs: h }, { fileName: 'b.edf', startMs: 14 * h, stopMs: 15 * h }])).toThrow(/b\.edf: start date\/time: it starts 13\.0 h after a\.edf ends/);
    const person = (fileName: string, patient: string) => ({ fileName, startMs: 0, stopMs: h, meta: { patient } });
    expect(() => checkOneNight([person('a.edf', 'MCH-0234567 F 02-MAY-1951 Haagse_Harry'), person('b.edf', 'MCH-0234568 F 02-MAY-1951 Haagse_Harry')])).toThrow(/patient code differs/);
    // Unknown subfields (X) and ResMed's anonymous headers never conflict.
    expect(() => checkOneNight([person('a.edf', 'X F X Female_33yr'), person('b.edf', 'SN001 X X X'), person('c.edf', 'X X X X 7F4F D4BA')])).not.toThrow();
  });
});
