import { describe, expect, it } from 'vitest';
import { expiredKeys } from '../../src/cache/channelCache';
import { addMonths, monthGrid, nightDate } from '../../src/features/night/calendar';
import { availableChannels, channelDef, channelsWithData, nightDefaultOff, mapStages, move, orderChannels, sourcesToLoad, toPreference } from '../../src/features/night/channels';
import { expandedHeight } from '../../src/features/night/ChartStack';
import { binBand, histogramEdges } from '../../src/features/night/histogram';
import { pickNight } from '../../src/features/review/NightPage';
import { nightScreenOf } from '../../src/features/night/preload';
import type { NightInfo } from '../../src/features/night/types';
import { bandsOf, parseVitalParameters } from '../../src/features/night/vitals';
import { bmiOf } from '../../src/features/night/BioHeader';
import { readdirSync, readFileSync } from 'node:fs';
import { simulateNight } from '../../server/simulator/index';

const radar = ['SLP_STGS', 'BR', 'HR', 'SPO2', 'PR', 'I', 'Q', 'SQB', 'weight', 'NC_PSG', 'THRX_PSG', 'ABD_PSG', 'SPO2_PSG'];

describe('available channels', () => {
  it('offers IQ when I or Q exists, I and Q to annotators, ODI to non-paid, never SQB', () => {
    const physician = availableChannels(radar, { annotator: false, membership: 'paid' });
    expect(physician).toContain('IQ');
    expect(physician).not.toContain('I');
    expect(physician).not.toContain('ODI');
    expect(physician).not.toContain('SQB');
    const annotator = availableChannels(radar, { annotator: true, membership: 'non-paid' });
    expect(annotator).toEqual(expect.arrayContaining(['IQ', 'I', 'Q', 'ODI']));
    expect(availableChannels(['BR'], { annotator: false, membership: 'paid' })).toEqual(['BR']);
  });

  it('lists every stored channel: those without a meaning here under their own labels, off by default, never bp_diastolic', () => {
    // A Sleep-EDF PSG: its airflow maps to NC_PSG, its EEG, EOG, EMG, temperature and marker keep their labels.
    const psg = ['EEG Fpz-Cz', 'EEG Pz-Oz', 'EOG horizontal', 'NC_PSG', 'EMG submental', 'Temp rectal', 'Event marker', 'SLP_STGS'];
    const offered = availableChannels(psg, { annotator: false, membership: 'paid' });
    expect(offered).toEqual(['SLP_STGS', 'NC_PSG', 'EEG Fpz-Cz', 'EEG Pz-Oz', 'EOG horizontal', 'EMG submental', 'Temp rectal', 'Event marker']);
    expect(orderChannels(offered, null, undefined, nightDefaultOff).filter((c) => c.visible).map((c) => c.code)).toEqual(['SLP_STGS']);
    // The trend's defaults keep its indices (not night channels) on.
    expect(orderChannels(['BR', 'AHI', 'RII', 'weight'], null).map((c) => c.visible)).toEqual([true, true, true, false]);
    expect(channelDef('EEG Fpz-Cz')).toMatchObject({ code: 'EEG Fpz-Cz', sources: ['EEG Fpz-Cz'], style: 'line', unmapped: true });
    expect(channelDef('BR').unmapped).toBeUndefined();
    expect(availableChannels(['bp', 'bp_diastolic', 'SQB'], { annotator: false, membership: 'paid' })).toEqual(['bp']);
    // A night of unmapped channels only (a BDF from a test generator): all of them shown and loaded.
    const bdf = ['squarewave', 'ramp', 'pulse', 'noise', 'sine 1 Hz'];
    const choices = orderChannels(availableChannels(bdf, { annotator: false, membership: 'paid' }), null, new Set(bdf));
    expect(choices.every((c) => c.visible)).toBe(true);
    expect(sourcesToLoad(choices, new Set(bdf))).toEqual(bdf);
  });

  it('turns weight and PSG channels off by default and follows a saved order', () => {
    const offered = availableChannels(radar, { annotator: false, membership: 'paid' });
    const defaults = orderChannels(offered, null);
    expect(defaults.filter((c) => !c.visible).map((c) => c.code)).toEqual(['weight', 'NC_PSG', 'THRX_PSG', 'ABD_PSG', 'SPO2_PSG']);
    const saved = orderChannels(offered, { SPO2: true, BR: false, UNKNOWN: true, NC_PSG: true });
    expect(saved.slice(0, 3)).toEqual([{ code: 'SPO2', visible: true }, { code: 'BR', visible: false }, { code: 'NC_PSG', visible: true }]);
    expect(saved).toHaveLength(offered.length);
    expect(Object.keys(toPreference(saved)).slice(0, 3)).toEqual(['SPO2', 'BR', 'NC_PSG']);
  });

  it('a night whose default charts have no data (CPAP: flow is a PSG channel) shows the channels with data instead', () => {
    const cpap = availableChannels(['NC_PSG', 'THRX_PSG', 'SQB'], { annotator: false, membership: 'non-paid' });
    expect(cpap).toEqual(['NC_PSG', 'THRX_PSG', 'ODI']);
    // Defaults alone would show the derived ODI chart only (empty without oximetry).
    expect(orderChannels(cpap, null)).toEqual([
      { code: 'NC_PSG', visible: true },
      { code: 'THRX_PSG', visible: true },
      { code: 'ODI', visible: false },
    ]);
    // A saved order that hides them too: the same fallback, in the saved order.
    expect(orderChannels(cpap, { THRX_PSG: false, NC_PSG: false, ODI: true }).map((c) => `${c.code}:${c.visible}`)).toEqual(['THRX_PSG:true', 'NC_PSG:true', 'ODI:false']);
    // One recorded chart on is enough: nothing changes.
    expect(orderChannels(cpap, { NC_PSG: true }).map((c) => `${c.code}:${c.visible}`)).toEqual(['NC_PSG:true', 'THRX_PSG:false', 'ODI:true']);
    // A radar night keeps its defaults (PSG and weight off).
    expect(orderChannels(availableChannels(radar, { annotator: false, membership: 'non-paid' }), null).find((c) => c.code === 'NC_PSG')?.visible).toBe(false);
  });

  it('a night the radar did not record opens on its reference channels with data, whatever the saved layout says of them', () => {
    // A ResMed SD card: flow (NC_PSG), the CPAP's breathing rate, an SpO2 with no valid value.
    const night = [
      { code: 'NC_PSG', count: 100, valid: 100 },
      { code: 'BR', count: 50, valid: 50 },
      { code: 'SPO2_PSG', count: 50, valid: 0 },
    ];
    const offered = availableChannels(night.map((c) => c.code), { annotator: false, membership: 'non-paid' });
    const withData = channelsWithData(night);
    const shown = (choices: { code: string; visible: boolean }[]) => choices.filter((c) => c.visible).map((c) => c.code);
    // Saved on radar nights: breathing rate on, the flow off. The flow shows all the same; the empty SpO2 does not.
    expect(shown(orderChannels(offered, { BR: true, NC_PSG: false, SPO2_PSG: false }, withData, nightDefaultOff))).toEqual(['BR', 'NC_PSG']);
    // Beside the radar's own signals the reference channels stay as saved (off by default).
    const radarNight = [...night, { code: 'Y_DIST', count: 100, valid: 100 }];
    const radarOffered = availableChannels(radarNight.map((c) => c.code), { annotator: false, membership: 'non-paid' });
    expect(shown(orderChannels(radarOffered, { BR: true, NC_PSG: false }, channelsWithData(radarNight), nightDefaultOff))).not.toContain('NC_PSG');
    expect(shown(orderChannels(radarOffered, null, channelsWithData(radarNight), nightDefaultOff))).not.toContain('NC_PSG');
  });

  it('a CPAP night whose oximeter recorded no valid value opens on the charts with data, not on empty pulse and SpO2', () => {
    const night = [
      { code: 'NC_PSG', count: 100, valid: 100 },
      { code: 'PR', count: 50, valid: 0 },
      { code: 'SPO2', count: 50, valid: 0 },
    ];
    const offered = availableChannels(night.map((c) => c.code), { annotator: false, membership: 'non-paid' });
    const withData = channelsWithData(night);
    expect([...withData]).toEqual(['NC_PSG']);
    const shown = (choices: { code: string; visible: boolean }[]) => choices.filter((c) => c.visible).map((c) => c.code);
    expect(shown(orderChannels(offered, null, withData))).toEqual(['NC_PSG']);
    // Counting samples, not valid ones, the empty oximetry charts were the ones shown.
    expect(shown(orderChannels(offered, null))).toEqual(expect.arrayContaining(['PR', 'SPO2']));
    expect(shown(orderChannels(offered, null))).not.toContain('NC_PSG');
    // One valid pulse sample is data: the pulse shows beside the flow (no radar: the flow is this night's own signal), the empty SpO2 does not.
    expect(shown(orderChannels(offered, null, channelsWithData([...night.slice(0, 1), { code: 'PR', count: 50, valid: 1 }, night[2]!])))).toEqual(['PR', 'NC_PSG']);
    // A night list without valid counts (an older server) reads the sample count.
    expect([...channelsWithData([{ code: 'PR', count: 5 }])]).toEqual(['PR']);
    // Nothing with data at all: the defaults, not a screen without charts.
    expect(shown(orderChannels(offered, null, new Set()))).toEqual(shown(orderChannels(offered, null)));
  });

  it('reads from a URL what the night screen will ask for (the preload before React mounts)', () => {
    expect(nightScreenOf('/app/patients/id=7', '?night=1794960000')).toEqual({ patientId: 7, night: 1794960000, overview: true });
    expect(nightScreenOf('/app/patients/id=7/', '')).toEqual({ patientId: 7, night: null, overview: true });
    // Other tabs and the trend view load their own data: no channels preloaded for them.
    expect(nightScreenOf('/app/patients/id=7', '?night=1&tab=summary')?.overview).toBe(false);
    expect(nightScreenOf('/app/patients/id=7', '?view=trend')?.overview).toBe(false);
    expect(nightScreenOf('/app/patients/id=7', '?tab=overview')?.overview).toBe(true);
    expect(nightScreenOf('/app/patients', '')).toBeNull();
    expect(nightScreenOf('/app/patients/id=7/edit', '')).toBeNull();
    expect(nightScreenOf('/app/dashboard', '?night=1')).toBeNull();
  });

  it('moves an item by drag and drop', () => {
    expect(move(['a', 'b', 'c', 'd'], 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(move(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(move(['a'], 0, 5)).toEqual(['a']);
  });

  it('maps device sleep stages 1, 2, 4, 5 to 0, 1, 2, 3 and keeps missing codes', () => {
    const s = Int16Array.from([1, 2, 4, 5, -1, -2, 3]);
    mapStages(s);
    expect(Array.from(s)).toEqual([0, 1, 2, 3, -1, -2, -1]);
  });
});

describe('channel names', () => {
  it('names every channel a simulated night (with PSG) stores, in every language: no raw code in a list or a download', () => {
    const night = simulateNight({ seed: 'names', startMs: Date.UTC(2026, 0, 1, 22), durationMs: 3_600_000, psg: true });
    const codes = night.channels.map((c) => c.code);
    expect(codes).toContain('bp_diastolic');
    for (const file of readdirSync('locales').filter((f) => f.endsWith('.json'))) {
      const names = (JSON.parse(readFileSync(`locales/${file}`, 'utf8')) as { night: { channels: Record<string, string> } }).night.channels;
      expect(codes.filter((c) => !names[c]), file).toEqual([]);
    }
  });
});

describe('threshold bands from vital parameters', () => {
  it('reads the JSON string and falls back to the spec defaults field by field', () => {
    const vp = parseVitalParameters(JSON.stringify({ spo2: { modFrom: 88, modTo: 92 }, br: { sevToF: 45 } }));
    expect(bandsOf('spo2', vp)).toEqual({ moderate: [[88, 92]], severe: [[40, 89]] });
    expect(bandsOf('br', vp)).toEqual({ moderate: [[10, 12], [24, 30]], severe: [[0, 10], [30, 45]] });
    expect(bandsOf('pr', parseVitalParameters('not json'))).toEqual({ moderate: [[55, 60], [100, 120]], severe: [[0, 55], [120, 160]] });
    expect(bandsOf('pr', parseVitalParameters(null)).severe).toEqual([[0, 55], [120, 160]]);
  });

  it('colours histogram bins by band, severe first', () => {
    const bands = bandsOf('spo2', parseVitalParameters(null));
    expect(binBand(85, 86, bands)).toBe('severe');
    expect(binBand(91, 92, bands)).toBe('moderate');
    expect(binBand(96, 97, bands)).toBe('normal');
    expect(histogramEdges(70, 100, 30)).toHaveLength(31);
  });
});

describe('screen rules', () => {
  it('splits the expanded height by the count of expanded blocks, at most four ways', () => {
    expect(expandedHeight(1000, 1)).toBe(800);
    expect(expandedHeight(1000, 2)).toBe(400);
    expect(expandedHeight(1000, 6)).toBe(200);
  });

  it('picks the query night when it has a recording, else the latest', () => {
    const nights = [{ night: 100 }, { night: 200 }] as NightInfo[];
    expect(pickNight(nights, 100)?.night).toBe(100);
    expect(pickNight(nights, 150)?.night).toBe(200);
    expect(pickNight(nights, null)?.night).toBe(200);
    expect(pickNight([], null)).toBeNull();
    // Another recording of a night, named by ?recording=: only among that night's others.
    const shared = [{ night: 100, recording_id: 1, others: [{ night: 100, recording_id: 7 }] }, { night: 200, recording_id: 2 }] as NightInfo[];
    expect(pickNight(shared, 100, 7)?.recording_id).toBe(7);
    expect(pickNight(shared, 100, 2)?.recording_id).toBe(1);
    expect(pickNight(shared, 100, null)?.recording_id).toBe(1);
  });

  it('computes BMI with 2 decimals, 0 when a measure is missing', () => {
    expect(bmiOf(71, 164)).toBe(26.4);
    expect(bmiOf(null, 164)).toBe(0);
  });

  it('expires cache entries not read for 7 days', () => {
    const now = 10 * 86_400_000;
    expect(expiredKeys([['a', now - 8 * 86_400_000], ['b', now - 86_400_000]], now)).toEqual(['a']);
  });
});

describe('night-picker calendar', () => {
  it('lays a month out in weeks from Monday', () => {
    const march = monthGrid(2026, 2); // 1 March 2026 is a Sunday
    expect(march[0]).toEqual([null, null, null, null, null, null, '2026-03-01']);
    expect(march.flat().filter(Boolean)).toHaveLength(31);
    expect(march.at(-1)!.at(-1)).toBeNull();
  });

  it('names a night key by its UTC date and steps across years', () => {
    expect(nightDate(Date.UTC(2026, 2, 9) / 1000)).toBe('2026-03-09');
    expect(addMonths(2026, 0, -1)).toEqual({ year: 2025, month: 11 });
    expect(addMonths(2026, 11, 1)).toEqual({ year: 2027, month: 0 });
  });
});

describe('channels to load', () => {
  it('loads the charts shown in screen order (IQ as I then Q, each source once), SQB last, nothing hidden or absent', () => {
    const present = new Set(['SLP_STGS', 'BR', 'HR', 'I', 'Q', 'SQB', 'bp', 'weight']);
    const choices = [
      { code: 'HR', visible: true },
      { code: 'IQ', visible: true },
      { code: 'SLP_STGS', visible: true },
      { code: 'BR', visible: false },
      { code: 'bp', visible: true },
      { code: 'SPO2', visible: true },
      { code: 'weight', visible: false },
    ];
    expect(sourcesToLoad(choices, present)).toEqual(['HR', 'I', 'Q', 'SLP_STGS', 'bp', 'SQB']);
    expect(sourcesToLoad([{ code: 'IQ', visible: true }, { code: 'I', visible: true }], new Set(['I', 'Q']))).toEqual(['I', 'Q']);
  });
});
