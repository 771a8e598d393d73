import { describe, expect, it } from 'vitest';
import { reportCategoryName, reportChannelName, reportChannelsLine, reportComment } from '../../server/reports/names';

// The PDF reports name channels by the app's rules and catalogues (contract/channel-names.ts).
describe('channel names in a report', () => {
  it("names Nocturne's codes and ResMed's labels in the report's language, with the period in its numbers", () => {
    expect(reportChannelName('en', 'NC_PSG')).toBe('Nasal Cannula');
    expect(reportChannelName('de', 'NC_PSG')).toBe('Nasenkanüle');
    expect(reportChannelName('de', 'SLP_STGS')).toBe('Schlafstadien');
    expect(reportChannelName('en', 'MaskPress.2s')).toBe('Mask pressure (2\u00a0s)');
    expect(reportChannelName('de', 'TidVol.0.5s')).toBe('Atemzugvolumen (0,5\u00a0s)');
    expect(reportChannelName('en', 'Press.40ms')).toBe('Mask pressure (40\u00a0ms)');
    expect(reportChannelName('en', 'Press.2s')).toBe('Therapy pressure (2\u00a0s)');
  });

  it('keeps a code no catalogue knows as stored, and names every channel of an annotation', () => {
    expect(reportChannelName('de', 'EEG Fpz-Cz')).toBe('EEG Fpz-Cz');
    expect(reportChannelName('en', 'TE')).toBe('TE');
    expect(reportChannelsLine('en', 'SPO2,Y_DIST,EEG Fpz-Cz')).toBe('SpO2, Chest displacement, EEG Fpz-Cz');
  });

  it("names built-in categories and the detector's comments in German; a person's words stay as written", () => {
    expect(reportCategoryName('de', { label: 'Apnea', type: 'built-in' })).not.toBe('Apnea');
    expect(reportCategoryName('en', { label: 'Apnea', type: 'built-in' })).toBe('Apnea');
    expect(reportCategoryName('de', { label: 'Apnea', type: 'custom' })).toBe('Apnea');
    const german = reportComment('de', 'Apnea (NC_PSG), amplitude 12 % of baseline');
    expect(german).toContain('Nasenkanüle');
    expect(german).toContain('12');
    expect(german).not.toContain('NC_PSG');
    expect(german).not.toContain('amplitude');
    expect(reportComment('de', 'SpO2 95.5 → 88 %')).toContain('95,5');
    expect(reportComment('de', 'Snoring heard by partner')).toBe('Snoring heard by partner');
  });
});
