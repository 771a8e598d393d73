import { describe, expect, it } from 'vitest';
import { readEdf } from '../../server/recordings/edf/reader';
import { RecordingFormatError } from '../../server/recordings/model';
import { BRP, EVE, SA2, buildEdf, patchFixed, patchSignal, real, tal, viaTempFile } from './edf-build';

/** Reads a variant written to a temp dir and returns the error it is refused with. */
function refusal(name: string, bytes: Uint8Array): RecordingFormatError {
  const onDisk = viaTempFile(name, bytes);
  try {
    readEdf(onDisk, name);
  } catch (error) {
    expect(error).toBeInstanceOf(RecordingFormatError);
    return error as RecordingFormatError;
  }
  throw new Error(`${name} was accepted`);
}

/** Replaces the first occurrence of `from` in the bytes by `to` (same length). */
function patchText(bytes: Uint8Array, from: string, to: string): Uint8Array {
  const at = Buffer.from(bytes).indexOf(from, 0, 'latin1');
  expect(at).toBeGreaterThan(0);
  const out = bytes.slice();
  out.set(Buffer.from(to, 'latin1'), at);
  return out;
}

describe('broken files are refused naming the file, the field and the problem', () => {
  it('empty file', () => {
    expect(refusal('empty.edf', new Uint8Array(0)).message).toBe('empty.edf: file: is empty (0 bytes)');
  });

  it('file cut inside the fixed header', () => {
    expect(refusal('stub.edf', real(BRP).slice(0, 100)).message).toBe(
      'stub.edf: header: file ends after 100 bytes, inside the 256-byte fixed header',
    );
  });

  it('file cut inside the signal headers', () => {
    expect(refusal('stub.edf', real(BRP).slice(0, 600)).message).toBe(
      'stub.edf: header: file ends after 600 bytes, inside the 1024-byte header',
    );
  });

  it('truncated data records', () => {
    const bytes = real(BRP);
    const e = refusal('cut.edf', bytes.slice(0, bytes.length - 5000));
    expect(e.file).toBe('cut.edf');
    expect(e.field).toBe('data records');
    expect(e.problem).toBe(
      `header announces 388 records of 6002 bytes (2328776 bytes) but the file holds ${2328776 - 5000} bytes of data (truncated)`,
    );
  });

  it('unknown version', () => {
    expect(refusal('v1.edf', patchFixed(real(SA2), 0, 8, '1')).message).toBe(
      'v1.edf: version: "1" is neither EDF (must be "0") nor BDF (0xFF "BIOSEMI")',
    );
    const bdf = real(SA2);
    bdf[0] = 0xff;
    bdf.set(Buffer.from('BIOSEMI', 'latin1'), 1);
    // Read as BDF now: 3-byte samples, so the 16-bit data of this EDF is too short for its records.
    expect(refusal('x.bdf', bdf).message).toMatch(/^x\.bdf: data records: header announces 388 records of 363 bytes .* \(truncated\)$/);
  });

  it('header byte count that does not match the number of signals', () => {
    expect(refusal('hdr.edf', patchFixed(real(BRP), 184, 8, '768')).message).toBe(
      'hdr.edf: number of bytes in header record: is 768, but 3 signals need 256 + 256 × 3 = 1024',
    );
  });

  it('zero signals', () => {
    expect(refusal('none.edf', patchFixed(real(SA2), 252, 4, '0')).message).toBe(
      'none.edf: number of signals: is 0: the file has no signals',
    );
  });

  it('bad numbers in header fields', () => {
    expect(refusal('n.edf', patchFixed(real(SA2), 236, 8, '38x')).message).toBe('n.edf: number of data records: "38x" is not a number');
    expect(refusal('d.edf', patchFixed(real(SA2), 244, 8, 'sixty')).message).toBe('d.edf: duration of a data record: "sixty" is not a number');
    expect(refusal('p.edf', patchSignal(real(SA2), 3, 3, 0, 'abc')).message).toBe(
      'p.edf: signal 1 (Pulse.1s) physical minimum: "abc" is not a number',
    );
    expect(refusal('q.edf', patchSignal(real(SA2), 3, 5, 1, '1.5')).message).toBe(
      'q.edf: signal 2 (SpO2.1s) digital minimum: "1.5" is not a whole number',
    );
    expect(refusal('h.edf', patchFixed(real(SA2), 184, 8, '')).message).toBe('h.edf: number of bytes in header record: is empty, expected a number');
  });

  it('bad start date and time', () => {
    expect(refusal('sd.edf', patchFixed(real(SA2), 168, 8, '32.13.25')).message).toBe('sd.edf: startdate: "32.13.25" is not a calendar date');
    expect(refusal('sd2.edf', patchFixed(real(SA2), 168, 8, '31.02.25')).message).toBe('sd2.edf: startdate: "31.02.25" is not a calendar date');
    expect(refusal('st.edf', patchFixed(real(SA2), 176, 8, '25.61.00')).message).toBe('st.edf: starttime: "25.61.00" is not a time of day');
    expect(refusal('st2.edf', patchFixed(real(SA2), 176, 8, '1 pm')).message).toBe('st2.edf: starttime: "1 pm" is not hh.mm.ss');
  });

  it('digital maximum equal to the digital minimum', () => {
    expect(refusal('dm.edf', patchSignal(real(SA2), 3, 6, 0, '0')).message).toBe(
      'dm.edf: signal 1 (Pulse.1s) digital maximum: 0 is not above the digital minimum 0',
    );
  });

  it('physical maximum equal to the physical minimum', () => {
    expect(refusal('pm.edf', patchSignal(real(SA2), 3, 4, 1, '0')).message).toBe(
      'pm.edf: signal 2 (SpO2.1s) physical maximum: equals the physical minimum (0): no scale',
    );
  });

  it('non-positive samples per record', () => {
    expect(refusal('spr.edf', patchSignal(real(SA2), 3, 8, 0, '0')).message).toBe(
      'spr.edf: signal 1 (Pulse.1s) nr of samples in each data record: is 0, must be positive',
    );
    expect(refusal('spr2.edf', patchSignal(real(SA2), 3, 8, 1, '-60')).field).toBe('signal 2 (SpO2.1s) nr of samples in each data record');
  });

  it('no data records', () => {
    const bytes = real(SA2);
    expect(refusal('zero.edf', patchFixed(bytes.slice(0, 1024), 236, 8, '0')).message).toBe(
      'zero.edf: number of data records: is 0: the file holds no data',
    );
  });

  it('annotations before the recording start (EVE onset made negative)', () => {
    expect(refusal('neg.edf', patchText(real(EVE), '+1752', '-1752')).message).toBe(
      'neg.edf: EDF Annotations: "Hypopnea" at -1752 s lies before the recording start (0 s)',
    );
  });

  it('annotations after the recording end (EDF+C, 2 records of 1 s)', () => {
    const bytes = buildEdf({
      reserved: 'EDF+C',
      recordDuration: 1,
      signals: [{ label: 'SpO2', samplesPerRecord: 1 }, { label: 'EDF Annotations', samplesPerRecord: 30 }],
      records: [
        [[95], tal('+0', ['']) + tal('+5', ['Desaturation'], '10')],
        [[96], tal('+1', [''])],
      ],
    });
    expect(refusal('late.edf', bytes).message).toBe(
      'late.edf: EDF Annotations: "Desaturation" at +5 s lies after the recording end (+2 s)',
    );
  });

  it('malformed TAL onset', () => {
    expect(refusal('tal.edf', patchText(real(EVE), '+1752', '+17a2')).message).toBe(
      'tal.edf: EDF Annotations (record 2, byte 5): onset "+17a2" is not a signed number like +12.5',
    );
  });

  it('EDF+D record without its time-keeping annotation', () => {
    const bytes = patchText(real(EVE), '+0\x14\x14\x00+1752', '+0\x14X\x14\x00+1752');
    expect(refusal('tk.edf', bytes).message).toBe(
      'tk.edf: EDF Annotations (record 2): no time-keeping annotation: the record has no start time',
    );
  });

  it('EDF+D records that overlap', () => {
    const bytes = buildEdf({
      reserved: 'EDF+D',
      recordDuration: 2,
      signals: [{ label: 'Flow', samplesPerRecord: 2 }, { label: 'EDF Annotations', samplesPerRecord: 8 }],
      records: [
        [[1, 2], tal('+10', [''])],
        [[3, 4], tal('+11', [''])],
      ],
    });
    expect(refusal('ovl.edf', bytes).message).toBe(
      'ovl.edf: EDF Annotations (record 2): record starts at +11 s, before record 1 ends (+12 s)',
    );
  });

  it('unknown time zone', () => {
    expect(() => readEdf(real(SA2), SA2, { timezone: 'Mars/Olympus' })).toThrow(
      `${SA2}: timezone: "Mars/Olympus" is not a known IANA time zone`,
    );
  });
});
