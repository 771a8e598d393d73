import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import en from '../../locales/en-US.json';
import { channelsLine } from '../../src/features/annotations/channelNames';

// A list line names an annotation's channels in full when few, and counts the rest when a mark
// was scored on every chart shown (sixteen names would fill the panel); the title names them all.

const t = i18next.createInstance();
await t.init({ lng: 'en-US', resources: { 'en-US': { translation: en } } });

describe('an annotation line\'s channels', () => {
  it('names up to three channels in full', () => {
    expect(channelsLine(t.t, 'en-US', ['BR', 'HR', 'SPO2'])).toEqual({ text: 'Breathing rate, Heart rate, SpO2', title: 'Breathing rate, Heart rate, SpO2' });
  });

  it('names two and counts the rest past three, the title naming every one', () => {
    const line = channelsLine(t.t, 'en-US', ['SLP_STGS', 'Y_DIST', 'MOV', 'BR', 'HR']);
    expect(line.text).toBe('Sleep stages, Chest displacement and 3 more');
    expect(line.title.split(', ')).toHaveLength(5);
  });
});
