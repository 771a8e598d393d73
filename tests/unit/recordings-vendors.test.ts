import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readEdf } from '../../server/recordings/edf/reader';
import { edfToRecording } from '../../server/recordings/edf/channels';
import { deviceEvents, exportedDeviceText, scoredKind, scoredKindOf, vendorOf } from '../../server/recordings/vendors';

const REAL = new URL('../fixtures/real/', import.meta.url);

describe('vendor time conventions', () => {
  it('ResMed EVE: the written time is the end of the event', () => {
    const name = 'snore_resmed_20251025_005805_EVE.edf';
    const rec = edfToRecording(readEdf(new Uint8Array(readFileSync(new URL(name, REAL))), name, { timezone: 'UTC' }));
    expect(vendorOf({ fileName: name, recording: String(rec.meta.recording) }).vendor).toBe('resmed');
    const events = deviceEvents({ fileName: name, recording: String(rec.meta.recording) }, rec.events);
    // docs/decisions/0078-device-annotations.md lists the scored events; "Recording starts" is not one.
    expect(events).toHaveLength(7);
    const first = events[0];
    const written = rec.events.find((e) => e.text === 'Obstructive Apnea')!;
    expect(first.kind).toBe('obstructive_apnea');
    expect(first.durationMs).toBe(12_000);
    expect(first.onsetMs).toBe(written.onsetMs - 12_000);
    expect(first.vendor).toBe('resmed');
  });

  it('plain EDF+ scoring: the written time is the start', () => {
    const file = { fileName: 'psg_scoring.edf', recording: 'Startdate 01-JAN-2024 X X X' };
    expect(vendorOf(file).vendor).toBe('edf+');
    const [e] = deviceEvents(file, [{ onsetMs: 1_000_000, durationMs: 15_000, text: 'Hypopnea' }]);
    expect(e).toMatchObject({ onsetMs: 1_000_000, durationMs: 15_000, kind: 'hypopnea', vendor: 'edf+' });
  });

  it('reads event texts of several tools and ignores everything else', () => {
    expect(scoredKind('Central Apnea')).toBe('central_apnea');
    expect(scoredKind('Obstructive apnoea')).toBe('obstructive_apnea');
    expect(scoredKind('Hypopnea')).toBe('hypopnea');
    expect(scoredKind('Apnea')).toBe('apnea');
    expect(scoredKind('Recording starts')).toBeNull();
    expect(scoredKind('Sleep stage W')).toBeNull();
  });

  it("reads a Nocturne export's device events back at their real time, with their vendor and file", () => {
    const text = exportedDeviceText({ text: 'Central Apnea', vendor: 'resmed', fileName: '20250808_010203_EVE.edf' });
    expect(text).toBe('Central Apnea {resmed: 20250808_010203_EVE.edf}');
    expect(scoredKindOf(text)).toBe('central_apnea');
    expect(scoredKindOf('Apnea: snore [BR]')).toBeNull();
    // The export itself is no ResMed file: the mark is the start, and the origin is kept.
    const [e] = deviceEvents({ fileName: 'NCT1005_20250807.edf' }, [{ onsetMs: 1_000_000, durationMs: 10_000, text }]);
    expect(e).toMatchObject({ onsetMs: 1_000_000, durationMs: 10_000, kind: 'central_apnea', text: 'Central Apnea', vendor: 'resmed', fileName: '20250808_010203_EVE.edf' });
    // Even read by the ResMed rule (a header that says ResMed), the exported time is not moved.
    expect(deviceEvents({ fileName: 'x_EVE.edf' }, [{ onsetMs: 1_000_000, durationMs: 10_000, text }])[0]!.onsetMs).toBe(1_000_000);
  });
});
