import { describe, expect, it } from 'vitest';
import { sampleNameProblem } from '../../server/samples/name';
import { addBody, sampleErrorKey } from '../../src/features/samples/api';
import { ApiError } from '../../src/api/errors';
import { titleFromPath } from '../../src/features/shell/title';
import { capabilitiesOf } from '../../src/state/roles';

const source = { first_name: 'Zoë', last_name: 'Müller-Lüdenscheidt', patient_code: 'NCT1001' };

describe('sampleNameProblem', () => {
  it('takes a name that says nothing of the source patient', () => {
    expect(sampleNameProblem('Severe OSA, supine', source)).toBeNull();
    expect(sampleNameProblem('  Central apnoea 2  ', source)).toBeNull();
    // One letter is an initial, not a name; a word that merely contains a name part is not it.
    expect(sampleNameProblem('Case Z', source)).toBeNull();
    expect(sampleNameProblem('Zoëlogy night', source)).toBeNull();
  });

  it('refuses the source patient’s names, accents and case aside, and its code anywhere', () => {
    expect(sampleNameProblem('zoe night', source)).toBe('identifying');
    expect(sampleNameProblem('MULLER case', source)).toBe('identifying');
    expect(sampleNameProblem('Lüdenscheidt', source)).toBe('identifying');
    expect(sampleNameProblem('xnct1001y', source)).toBe('identifying');
  });

  it('refuses an empty name and one over 30 characters (counted as characters, not UTF-16 units)', () => {
    expect(sampleNameProblem('   ', source)).toBe('required');
    expect(sampleNameProblem('a'.repeat(31), source)).toBe('max_length');
    expect(sampleNameProblem('睡'.repeat(30), source)).toBeNull();
    expect(sampleNameProblem('😴'.repeat(30), source)).toBeNull();
  });
});

describe('the add-to-sample call', () => {
  it('sends an existing sample by id, a new one by its trimmed name', () => {
    expect(addBody(7, 9, { kind: 'existing', sampleId: 3 })).toEqual({ patient_id: 7, recording_id: 9, sample_patient_id: 3 });
    expect(addBody(7, 9, { kind: 'new', name: '  Severe OSA ' })).toEqual({ patient_id: 7, recording_id: 9, name: 'Severe OSA' });
  });

  it('words refusals by their rule or code, and leaves others to the generic text', () => {
    expect(sampleErrorKey(new ApiError(400, 'validation_failed', 'x', [], 'name', 'identifying'))).toBe('samples.errors.identifying');
    expect(sampleErrorKey(new ApiError(400, 'validation_failed', 'x', [], 'name', 'max_length'))).toBe('samples.errors.maxLength');
    expect(sampleErrorKey(new ApiError(409, 'sample_name_taken', 'x', [], 'name', 'taken'))).toBe('samples.errors.taken');
    expect(sampleErrorKey(new ApiError(409, 'sample_night_exists', 'x'))).toBe('samples.errors.nightExists');
    expect(sampleErrorKey(new ApiError(403, 'sample_read_only', 'x'))).toBe('samples.errors.readOnly');
    expect(sampleErrorKey(new ApiError(500, 'internal', 'x'))).toBeNull();
    expect(sampleErrorKey(new Error('x'))).toBeNull();
  });
});

describe('the sample list screen', () => {
  it('is titled and open to physicians and annotators, not to admins', () => {
    expect(titleFromPath('/app/sample-patients', capabilitiesOf({ is_annotator: true }))).toEqual({ kind: 'key', key: 'titles.samplePatients' });
    expect(titleFromPath('/app/sample-patients', capabilitiesOf({ is_annotator: false }))).toEqual({ kind: 'key', key: 'titles.samplePatients' });
    expect(titleFromPath('/app/sample-patients', capabilitiesOf({ is_admin: true }))).toEqual({ kind: 'key', key: 'titles.notFound' });
  });
});
