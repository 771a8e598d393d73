import { describe, expect, it } from 'vitest';
import { uploadProblem } from '../../src/features/recordings/api';
import { isImportableFile } from '../../contract/night-rules';

const limits = { max_files: 64, max_file_bytes: 512 * 1024 * 1024, max_upload_bytes: 1024 * 1024 * 1024 };
const file = (name: string, size = 1000) => ({ name, size });

describe('the import dialog checks an upload before sending it', () => {
  it('a DATALOG night of six sessions (30 files) passes; more files than the limit, a file or an upload too large do not', () => {
    const night = Array.from({ length: 30 }, (_, i) => file(`2025091${i}_BRP.edf`));
    expect(uploadProblem(night, limits)).toBeNull();
    expect(uploadProblem(Array.from({ length: 65 }, (_, i) => file(`f${i}.edf`)), limits)).toEqual({ kind: 'tooMany', count: 65, max: 64 });
    expect(uploadProblem([file('a.edf'), file('big.edf', 600 * 1024 * 1024)], limits)).toEqual({ kind: 'fileTooLarge', file: 'big.edf', max: limits.max_file_bytes });
    const three = [file('a.edf', 400 * 1024 * 1024), file('b.edf', 400 * 1024 * 1024), file('c.edf', 400 * 1024 * 1024)];
    expect(uploadProblem(three, limits)).toEqual({ kind: 'uploadTooLarge', size: 1200 * 1024 * 1024, max: limits.max_upload_bytes });
  });

  it("a folder sends only the files the import reads (not ResMed's .crc and .tgt)", () => {
    expect(['20250910_223617_BRP.edf', 'x.BDF', 'o2.csv', 'STR.crc', 'Identification.tgt', 'notes.txt'].filter(isImportableFile)).toEqual(['20250910_223617_BRP.edf', 'x.BDF', 'o2.csv']);
    // macOS's "._" companions a Finder copy leaves beside each file on a FAT card are no recordings.
    expect(['._20250910_223617_BRP.edf', 'DATALOG/20250910/._x.edf', 'DATALOG/20250910/x._edf.edf'].filter(isImportableFile)).toEqual(['DATALOG/20250910/x._edf.edf']);
  });
});
