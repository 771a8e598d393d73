import { describe, expect, it } from 'vitest';
import { assembleNight, parseRecordingFile, uploadContext } from '../../server/recordings/assemble';
import { ScoringFileAloneError, type ParsedRecording } from '../../server/recordings/model';
import { nsrrEventText } from '../../server/recordings/nsrr';
import { deviceEventsOf } from '../../server/recordings/night-files';
import { nsrrXmlOf, PROFUSION_SCORED, profusionXmlOf, SCORED } from '../nsrr-xml';
import { PSG, real } from './edf-build';

const HYPNOGRAM = 'sleepedf_SC4001EC_hypnogram.edf';
const BDF = 'pyedflib_test_generator.bdf';
const xml = (text: string) => new TextEncoder().encode(text);
const read = (name: string) => parseRecordingFile(name, real(name));
/** A file read as the upload reads it: after the upload's other files, with them. */
const withUpload = (name: string, bytes: Uint8Array, upload: readonly ParsedRecording[], timezone?: string) => parseRecordingFile(name, bytes, uploadContext({ timezone }, upload));

describe("a PSG's NSRR XML scoring file uploaded with its EDF", () => {
  const psg = read(PSG);
  const scoring = xml(nsrrXmlOf(real(HYPNOGRAM), SCORED));

  it('is placed at its EDF\'s start: its stages are the same hypnogram as the EDF+ one it was written from', () => {
    // Alone it cannot be read: its times count from its recording's start.
    expect(() => parseRecordingFile('SC4001E0-nsrr.xml', scoring)).toThrow(ScoringFileAloneError);
    const part = withUpload('SC4001E0-nsrr.xml', scoring, [psg]);
    expect(part).toMatchObject({ format: 'NSRR XML', startMs: psg.startMs, meta: { scores: PSG, hypnogramEpochs: 2880 - 230 } });

    const fromXml = assembleNight([psg, part]);
    const fromEdf = assembleNight([psg, read(HYPNOGRAM)]);
    const stages = (n: typeof fromXml) => n.channels.find((c) => c.code === 'SLP_STGS')!;
    expect(stages(fromXml).t0).toBe(stages(fromEdf).t0);
    expect(Array.from(stages(fromXml).samples)).toEqual(Array.from(stages(fromEdf).samples));
    expect(fromXml.stopMs).toBe(fromEdf.stopMs);

    // Every event kept, at its time from the EDF's start, under the name NSRR gives it.
    const at = (s: number) => psg.startMs + s * 1000;
    expect(part.events.filter((e) => !/^Sleep stage|^Movement/.test(e.text)).map((e) => [e.onsetMs, e.durationMs, e.text])).toEqual([
      [at(30_000.5), 14_200, 'Obstructive apnea'],
      [at(30_120), 21_000, 'Obstructive apnea'],
      [at(31_000), 18_700, 'Hypopnea'],
      [at(31_020), 25_000, 'SpO2 desaturation'],
      [at(31_030), 6_000, 'ASDA arousal'],
      [at(32_000), 3_000, 'Limb movement - left'],
    ]);
    // Its apneas, hypopneas, desaturations and arousals are the night's scored events, at their own start.
    expect(deviceEventsOf([part]).map((e) => [e.kind, e.onsetMs, e.vendor, e.fileName])).toEqual([
      ['obstructive_apnea', at(30_000.5), 'nsrr', 'SC4001E0-nsrr.xml'],
      ['obstructive_apnea', at(30_120), 'nsrr', 'SC4001E0-nsrr.xml'],
      ['hypopnea', at(31_000), 'nsrr', 'SC4001E0-nsrr.xml'],
      ['desaturation', at(31_020), 'nsrr', 'SC4001E0-nsrr.xml'],
      ['arousal', at(31_030), 'nsrr', 'SC4001E0-nsrr.xml'],
    ]);
  });

  it('scores the EDF it is named after, and says so when an upload of several recordings does not tell', () => {
    const other = read(BDF);
    expect(other.startMs).not.toBe(psg.startMs);
    // NSRR's own naming: "<edf name>-nsrr.xml".
    expect(withUpload('sleepedf_SC4001E0_short_psg-nsrr.xml', scoring, [other, psg]).startMs).toBe(psg.startMs);
    expect(() => withUpload('scoring.xml', scoring, [other, psg])).toThrow(
      `scoring.xml: file: is a scoring file (NSRR XML) and this upload holds recordings of different starts (${BDF}, ${PSG}): name it after the EDF it scores (as NSRR does: "<edf name>-nsrr.xml"), or upload it with that EDF alone`,
    );
    // A name that only begins like an EDF's is no match ("…_psg2-nsrr" is not "…_psg"'s).
    expect(() => withUpload('sleepedf_SC4001E0_short_psg2-nsrr.xml', scoring, [other, psg])).toThrow(/holds recordings of different starts/);
  });

  it('is refused with no recording to place it on, or when its start time is another recording\'s', () => {
    expect(() => withUpload('SC4001E0-nsrr.xml', scoring, [])).toThrow(
      'SC4001E0-nsrr.xml: file: is a scoring file (NSRR XML), timed from its recording\'s start: upload it together with its EDF, or import it on its night with "Import scoring file"',
    );
    // A hypnogram file scores no recording of its own.
    expect(() => withUpload('SC4001E0-nsrr.xml', scoring, [read(HYPNOGRAM)])).toThrow(/upload it together with its EDF/);
    expect(() => withUpload('SC4001E0-nsrr.xml', xml(nsrrXmlOf(real(HYPNOGRAM), SCORED, '22.15.00')), [psg])).toThrow(
      `SC4001E0-nsrr.xml: Recording Start Time: 22:15:00 is not the start of ${PSG} (16:13:00 in UTC): it is not that recording's scoring file`,
    );
    // Read in the night's zone, the clock is compared in it (16:13 in Vienna is 14:13 UTC, read so).
    const vienna = parseRecordingFile(PSG, real(PSG), { timezone: 'Europe/Vienna' });
    expect(withUpload('SC4001E0-nsrr.xml', scoring, [vienna], 'Europe/Vienna').startMs).toBe(vienna.startMs);
  });

  it("uploaded without its EDF, it scores the patient's stored EDF it is named after", () => {
    const stored = [
      { fileName: 'other.edf', format: 'EDF', startMs: psg.startMs + 86_400_000, signals: 3 },
      { fileName: PSG, format: 'EDF', startMs: psg.startMs, signals: 7 },
      // A stored hypnogram file scores no recording of its own.
      { fileName: 'sleepedf_SC4001E0_short.edf', format: 'EDF+C', startMs: psg.startMs - 60_000, signals: 1, hypnogramEpochs: 2650 },
    ];
    const context = { ...uploadContext({}, []), stored };
    expect(parseRecordingFile('sleepedf_SC4001E0_short_psg-nsrr.xml', scoring, context)).toMatchObject({ startMs: psg.startMs, meta: { scores: PSG } });
    expect(() => parseRecordingFile('sleepedf_SC4001E0_short-nsrr.xml', scoring, context)).toThrow(/upload it together with its EDF/);
    // Named after none: never placed on a stored night by guess.
    expect(() => parseRecordingFile('scoring.xml', scoring, context)).toThrow(/upload it together with its EDF/);
  });

  it("reads a PSG's Profusion XML (NSRR's other annotations) as the same night: the same hypnogram, the same scored events (decision 1052)", () => {
    const profusion = xml(profusionXmlOf(real(HYPNOGRAM), PROFUSION_SCORED));
    const part = withUpload('sleepedf_SC4001E0_short_psg-profusion.xml', profusion, [psg]);
    expect(part).toMatchObject({ format: 'Profusion XML', startMs: psg.startMs, meta: { scores: PSG, hypnogramEpochs: 2880 - 230 } });
    const fromProfusion = assembleNight([psg, part]);
    const fromEdf = assembleNight([psg, read(HYPNOGRAM)]);
    const stages = (n: typeof fromEdf) => n.channels.find((c) => c.code === 'SLP_STGS')!;
    expect(stages(fromProfusion).t0).toBe(stages(fromEdf).t0);
    expect(Array.from(stages(fromProfusion).samples)).toEqual(Array.from(stages(fromEdf).samples));
    expect(fromProfusion.stopMs).toBe(fromEdf.stopMs);
    // Profusion's names kept; its apneas, hypopneas, desaturations and arousals the night's scored events, a scorer's.
    const at = (s: number) => psg.startMs + s * 1000;
    expect(part.events.filter((e) => !/^Sleep stage|^Movement/.test(e.text)).map((e) => [e.onsetMs, e.text])).toEqual([
      [at(30_000.5), 'Obstructive Apnea'],
      [at(30_120), 'Obstructive Apnea'],
      [at(31_000), 'Hypopnea'],
      [at(31_020), 'SpO2 desaturation'],
      [at(31_030), 'Arousal (ASDA)'],
      [at(32_000), 'Limb Movement (Left)'],
    ]);
    expect(deviceEventsOf([part]).map((e) => [e.kind, e.vendor])).toEqual([
      ['obstructive_apnea', 'profusion'],
      ['obstructive_apnea', 'profusion'],
      ['hypopnea', 'profusion'],
      ['desaturation', 'profusion'],
      ['arousal', 'profusion'],
    ]);
    // Profusion's own export is named "<edf>.XML": it scores that EDF too.
    const other = read(BDF);
    expect(withUpload(`${PSG}.XML`, profusion, [other, psg]).startMs).toBe(psg.startMs);
  });

  it('refuses an XML that is neither, and a stage code that is none, naming what is wrong', () => {
    expect(() => withUpload('notes.xml', xml('<?xml version="1.0"?>\n<Notes><Note>hi</Note></Notes>'), [psg])).toThrow(
      'notes.xml: PSGAnnotation: the document has no <PSGAnnotation> root (NSRR XML) nor <CMPStudyConfig> (Profusion XML): not a scoring file',
    );
    const bad = xml('<CMPStudyConfig><EpochLength>30</EpochLength><SleepStages><SleepStage>0</SleepStage><SleepStage>W</SleepStage></SleepStages></CMPStudyConfig>');
    expect(() => withUpload('bad-profusion.xml', bad, [psg])).toThrow('bad-profusion.xml: SleepStage 2: "W" is not a stage code');
  });

  it('names events as a night keeps them', () => {
    expect(['Wake|0', 'Stage 1 sleep|1', 'Stage 3 sleep|3', 'Stage 4 sleep|4', 'REM sleep|5', 'Movement|6', 'Unscored|9'].map(nsrrEventText)).toEqual([
      'Sleep stage W',
      'Sleep stage 1',
      'Sleep stage 3',
      'Sleep stage 4',
      'Sleep stage R',
      'Movement time',
      'Sleep stage ?',
    ]);
    expect(['Central apnea|Central Apnea', 'SDO:HypopneaFinding', 'SDO:HemoglobinOxygenDesaturationFinding', 'SDO:LimbMovementFinding', 'Arousal|Arousal ()', 'Snore'].map(nsrrEventText)).toEqual([
      'Central apnea',
      'Hypopnea',
      'SpO2 desaturation',
      'SDO:LimbMovementFinding',
      'Arousal',
      'Snore',
    ]);
  });
});
