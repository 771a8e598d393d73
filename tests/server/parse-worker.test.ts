import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeEdfPlus } from '../../server/recordings/edf';
import type { Night } from '../../server/recordings/model';
import { closeParsePool, parseFilesInWorker } from '../../server/recordings/parse-pool';
import { parseRecordingFile } from '../../server/recordings/assemble';

/**
 * The parse worker moves its sample buffers to the main thread instead of copying them (a
 * 200 MB night would otherwise be resident twice): the samples that arrive must be exactly
 * the file's, for channels large enough to be moved and small ones that are copied.
 */
afterAll(() => closeParsePool());

describe('parsing in the worker thread', () => {
  it('hands over every sample and the file md5 unchanged', async () => {
    const start = Date.UTC(2026, 2, 10, 21, 0);
    const night: Night = {
      startMs: start,
      stopMs: start + 3_600_000,
      timezone: 'UTC',
      events: [],
      meta: {},
      channels: [200, 1].map((hz, k) => {
        const samples = new Int16Array(3600 * hz);
        for (let i = 0; i < samples.length; i++) samples[i] = ((i * (k + 7)) % 4000) - 2000;
        return { code: `C${k}`, label: `Chan ${k}`, unit: 'uV', sampleRate: hz, t0: start, storage: 'int16' as const, scale: 1, offset: 0, samples };
      }),
    };
    const dir = await mkdtemp(path.join(tmpdir(), 'nocturne-worker-test-'));
    try {
      const file = path.join(dir, 'night.edf');
      const bytes = writeEdfPlus(night);
      await writeFile(file, bytes);
      const { files, parts } = await parseFilesInWorker([file], { timezone: 'UTC' });
      expect(files).toEqual([{ name: 'night.edf', md5: createHash('md5').update(bytes).digest('hex'), size: bytes.byteLength }]);
      const got = parts[0].channels;
      expect(got.map((c) => c.samples.length)).toEqual([720_000, 3600]);
      // The large channel's 1.4 MB arrive moved (a buffer of its own), the small one copied.
      expect(got[0].samples.byteLength).toBeGreaterThan(64 * 1024);
      for (let k = 0; k < 2; k++) expect(Array.from(got[k].samples)).toEqual(Array.from(night.channels[k].samples));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads a large EDF (≥ 16 MB) from disk in batches: the same samples, annotations and md5', async () => {
    const start = Date.UTC(2026, 2, 10, 21, 0);
    const night: Night = {
      startMs: start,
      stopMs: start + 3 * 3_600_000,
      timezone: 'UTC',
      events: [{ onsetMs: start + 60_000, durationMs: 10_000, text: 'Obstructive Apnea' }],
      meta: {},
      channels: [0, 1, 2, 3].map((k) => {
        const samples = new Int16Array(3 * 3600 * 200);
        for (let i = 0; i < samples.length; i++) samples[i] = ((i * (k + 5)) % 3000) - 1500;
        return { code: `C${k}`, label: `Chan ${k}`, unit: 'uV', sampleRate: 200, t0: start, storage: 'int16' as const, scale: 1, offset: 0, samples };
      }),
    };
    const dir = await mkdtemp(path.join(tmpdir(), 'nocturne-worker-test-'));
    try {
      const file = path.join(dir, 'large.edf');
      const bytes = writeEdfPlus(night);
      expect(bytes.byteLength).toBeGreaterThan(16 * 1024 * 1024);
      await writeFile(file, bytes);
      const { files, parts } = await parseFilesInWorker([file], { timezone: 'UTC' });
      expect(files).toEqual([{ name: 'large.edf', md5: createHash('md5').update(bytes).digest('hex'), size: bytes.byteLength }]);
      // What the whole-file reader gives for the same bytes.
      const whole = parseRecordingFile('large.edf', bytes, { timezone: 'UTC' });
      expect(parts[0].events).toEqual(whole.events);
      expect(parts[0].channels.map((c) => c.code)).toEqual(['C0', 'C1', 'C2', 'C3']);
      for (let k = 0; k < 4; k++) {
        const got = parts[0].channels[k].samples;
        expect(Buffer.from(got.buffer, got.byteOffset, got.byteLength).equals(Buffer.from(night.channels[k].samples.buffer))).toBe(true);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
