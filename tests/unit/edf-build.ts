/**
 * Test helpers: a tiny EDF builder independent of the writer under test, byte patching of
 * header fields, and the paths of the real recordings (read in place, never copied).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REAL_DIR = fileURLToPath(new URL('../fixtures/real/', import.meta.url));
export const BRP = 'snore_resmed_20250808_010210_BRP.edf';
export const EVE = 'snore_resmed_20250808_010203_EVE.edf';
export const SA2 = 'snore_resmed_20250808_010210_SA2.edf';
export const PLD = 'snore_resmed_20250808_010210_PLD.edf';
export const PSG = 'sleepedf_SC4001E0_short_psg.edf';
export const HMC = 'hmc_SN001_hypnogram_test_edfann.edf';

/** A real recording's bytes. */
export function real(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(REAL_DIR, name)));
}

/** Writes `bytes` into a fresh temp dir, reads them back from disk, removes the dir. */
export function viaTempFile(name: string, bytes: Uint8Array): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'nocturne-edf-'));
  try {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return new Uint8Array(readFileSync(path));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const SIGNAL_WIDTHS = [16, 80, 8, 8, 8, 8, 8, 80, 8, 32];

/** Overwrites a fixed-header field (byte offset and width) with a left-aligned value. */
export function patchFixed(bytes: Uint8Array, offset: number, width: number, value: string): Uint8Array {
  const out = bytes.slice();
  const text = value.padEnd(width, ' ');
  for (let i = 0; i < width; i++) out[offset + i] = text.charCodeAt(i);
  return out;
}

/** Overwrites per-signal field `field` (0 = label … 8 = samples per record) of signal `signal`. */
export function patchSignal(bytes: Uint8Array, signalCount: number, field: number, signal: number, value: string): Uint8Array {
  let offset = 256;
  for (let f = 0; f < field; f++) offset += SIGNAL_WIDTHS[f] * signalCount;
  return patchFixed(bytes, offset + signal * SIGNAL_WIDTHS[field], SIGNAL_WIDTHS[field], value);
}

interface BuildSignal {
  label: string;
  samplesPerRecord: number;
  physicalMin?: number;
  physicalMax?: number;
  digitalMin?: number;
  digitalMax?: number;
  unit?: string;
}

export interface BuildEdf {
  reserved?: string;
  startDate?: string;
  startTime?: string;
  recording?: string;
  recordDuration: number;
  signals: BuildSignal[];
  /** Per record, per signal: numbers (digital samples) or a string (annotation bytes, NUL-padded). */
  records: (number[] | string)[][];
}

/** Builds EDF bytes field by field. */
export function buildEdf(spec: BuildEdf): Uint8Array {
  const ns = spec.signals.length;
  const pad = (v: string | number, w: number) => String(v).padEnd(w, ' ').slice(0, w);
  let h = pad('0', 8) + pad('X X X X', 80) + pad(spec.recording ?? 'Startdate X X X X', 80);
  h += pad(spec.startDate ?? '10.03.26', 8) + pad(spec.startTime ?? '22.00.00', 8);
  h += pad(256 * (ns + 1), 8) + pad(spec.reserved ?? '', 44) + pad(spec.records.length, 8);
  h += pad(spec.recordDuration, 8) + pad(ns, 4);
  const cols: (keyof BuildSignal | null)[] = ['label', null, 'unit', 'physicalMin', 'physicalMax', 'digitalMin', 'digitalMax', null, 'samplesPerRecord', null];
  const defaults: Partial<BuildSignal> = { physicalMin: -32768, physicalMax: 32767, digitalMin: -32768, digitalMax: 32767, unit: '' };
  cols.forEach((key, f) => {
    for (const s of spec.signals) h += pad(key ? (s[key] ?? defaults[key] ?? '') : '', SIGNAL_WIDTHS[f]);
  });
  const recordBytes = spec.signals.reduce((n, s) => n + 2 * s.samplesPerRecord, 0);
  const out = new Uint8Array(h.length + recordBytes * spec.records.length);
  for (let i = 0; i < h.length; i++) out[i] = h.charCodeAt(i);
  const view = new DataView(out.buffer);
  let at = h.length;
  for (const record of spec.records) {
    record.forEach((data, s) => {
      const n = spec.signals[s].samplesPerRecord;
      if (typeof data === 'string') {
        const enc = new TextEncoder().encode(data);
        out.set(enc.subarray(0, 2 * n), at);
      } else {
        for (let i = 0; i < n; i++) view.setInt16(at + 2 * i, data[i] ?? 0, true);
      }
      at += 2 * n;
    });
  }
  return out;
}

/** A TAL string: '+onset[\x15duration]\x14text\x14…\x00'. */
export function tal(onset: string, texts: string[], duration?: string): string {
  return `${onset}${duration !== undefined ? `\x15${duration}` : ''}\x14${texts.map((t) => `${t}\x14`).join('')}\x00`;
}
