import { describe, expect, it } from 'vitest';
import { readEdf } from '../../server/recordings/edf/reader';
import { RecordingFormatError } from '../../server/recordings/model';
import { BRP, real, viaTempFile } from './edf-build';

/** Issue 33 point 7: a control character in an imported label is refused with the file and field named. */
describe('EDF labels', () => {
  it('a NUL inside the first signal label is refused, naming the file and the field', () => {
    const bytes = real(BRP).slice();
    bytes[256 + 1] = 0; // the second character of signal 1's label
    const name = 'nul-label.edf';
    const read = () => readEdf(viaTempFile(name, bytes), name);
    expect(read).toThrow(RecordingFormatError);
    expect(read).toThrow(/^nul-label\.edf: signal 1 label: contains a control character/);
  });
});
