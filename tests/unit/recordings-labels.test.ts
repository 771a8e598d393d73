import { describe, expect, it } from 'vitest';
import { normaliseLabel } from '../../contract/signal-labels';
import { mapLabel } from '../../server/recordings/labels';

describe('label-to-channel map', () => {
  it('maps the PSG reference and rate channels', () => {
    const cases: [string, string][] = [
      ['Flow', 'NC_PSG'],
      ['Flow.40ms', 'NC_PSG'],
      ['Resp oro-nasal', 'NC_PSG'],
      ['Nasal Pressure', 'NC_PSG'],
      ['Thorax', 'THRX_PSG'],
      ['Thor', 'THRX_PSG'],
      ['Effort THO', 'THRX_PSG'],
      ['Abdomen', 'ABD_PSG'],
      ['ABDO', 'ABD_PSG'],
      ['Resp Abdominal', 'ABD_PSG'],
      // The Sleep Heart Health Study's and MESA's Compumedics labels; Nox's RIP belts.
      ['THOR RES', 'THRX_PSG'],
      ['ABDO RES', 'ABD_PSG'],
      ['RIP Thorax', 'THRX_PSG'],
      ['RIP Abdomen', 'ABD_PSG'],
      ['H.R.', 'HR'],
      ['SpO2', 'SPO2_PSG'],
      ['SpO2.1s', 'SPO2_PSG'],
      ['SaO2', 'SPO2_PSG'],
      ['Pulse', 'PR'],
      ['Pulse.1s', 'PR'],
      ['Pulse Rate', 'PR'],
      ['RespRate.2s', 'BR'],
      ['Heart Rate', 'HR'],
    ];
    for (const [label, code] of cases) expect([label, mapLabel(label)]).toEqual([label, code]);
  });

  it('keeps everything else under its own label (trimmed), never guessing', () => {
    for (const label of ['EEG Fpz-Cz', 'EOG horizontal', 'EMG submental', 'Temp rectal', 'Event marker', 'Press.40ms', 'Leak.2s', 'Crc16', 'RR', 'Pleth', 'Movement', 'Position']) {
      expect(mapLabel(label)).toBe(label);
    }
    expect(mapLabel('  Snore.2s  ')).toBe('Snore.2s');
  });

  it('matches case-insensitively, ignoring spaces, punctuation and the ResMed period suffix', () => {
    expect(normaliseLabel('Resp oro-nasal')).toBe('resporonasal');
    expect(normaliseLabel('Flow.40ms')).toBe('flow');
    expect(normaliseLabel('SpO2.1s')).toBe('spo2');
    expect(normaliseLabel('TidVol.0.5s')).toBe('tidvol');
    expect(mapLabel('FLOW')).toBe('NC_PSG');
    expect(mapLabel('thorax ')).toBe('THRX_PSG');
  });

  it('a user map overrides and extends the defaults; an empty code keeps the label', () => {
    const extra = { 'Nasal Cannula Pressure': 'NC_PSG', Flow: 'FLOW_CPAP', 'Heart Rate': '', 'Leak': 'LEAK' };
    expect(mapLabel('Nasal cannula pressure', extra)).toBe('NC_PSG');
    expect(mapLabel('Flow.40ms', extra)).toBe('FLOW_CPAP');
    expect(mapLabel('Heart Rate', extra)).toBe('Heart Rate');
    expect(mapLabel('Leak.2s', extra)).toBe('LEAK');
    expect(mapLabel('Thorax', extra)).toBe('THRX_PSG');
  });
});
